#include <cstdlib>
#include <utility>

#include "cli/cli.h"

namespace seen::cli {

Args::Args(int argc, char** argv, const CommandSpec& command) {
  bool options_end = false;  // after "--" everything is positional, e.g. a key "-x"
  for (int i = 0; i < argc; ++i) {
    const std::string arg = argv[i];
    if (!options_end && arg == "--") {
      options_end = true;
    } else if (options_end || arg.size() < 2 || arg[0] != '-') {
      positional_.push_back(argv[i]);  // "-" too: standard input
    } else {
      // Messages name an option as it was typed: -o (--output's short form) stays -o.
      const size_t equals = arg.find('=');
      const std::string spelled = arg.substr(0, equals);
      const std::string long_form = spelled == "-o" ? "--output" : spelled;
      const OptionSpec* spec = nullptr;
      for (const auto& option : command.options) {
        if (long_form == std::string("--") + option.name) spec = &option;
      }
      if (spec == nullptr) {
        throw UsageError{"unknown option " + spelled + " (seen " + command.name +
                         " --help lists the options)"};
      }
      const std::string name = spec->name;
      if (options_.count(name)) throw UsageError{spelled + " is given twice"};
      if (spec->value == nullptr) {
        if (equals != std::string::npos) throw UsageError{spelled + " takes no value"};
        options_[name] = "1";
      } else if (equals != std::string::npos) {
        options_[name] = arg.substr(equals + 1);
      } else if (i + 1 < argc) {
        options_[name] = argv[++i];
      } else {
        throw UsageError{spelled + " needs a value (" + spec->value + ")"};
      }
    }
  }
}

bool Args::flag(const std::string& name) const { return options_.count(name) > 0; }

std::string Args::get(const std::string& name, const std::string& fallback) const {
  const auto it = options_.find(name);
  return it == options_.end() ? fallback : it->second;
}

std::string Args::require(const std::string& name) const {
  const auto it = options_.find(name);
  if (it == options_.end()) throw UsageError{"missing --" + name};
  return it->second;
}

uint64_t Args::get_u64(const std::string& name, uint64_t fallback) const {
  if (!flag(name)) return fallback;
  const std::string text = get(name, "");
  char* end = nullptr;
  // Accepts 1e9 style as well as plain integers: capacities are often written that way.
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || value < 0 || value > 1.8e19 || text[0] == '-') {
    throw UsageError{"--" + name + " expects a non-negative integer, got '" + text + "'"};
  }
  return text.find_first_of(".eE") == std::string::npos ? std::strtoull(text.c_str(), nullptr, 10)
                                                        : static_cast<uint64_t>(value);
}

uint64_t Args::get_bytes(const std::string& name, uint64_t fallback) const {
  if (!flag(name)) return fallback;
  std::string text = get(name, "");
  uint64_t unit = 1;
  for (const auto& [suffix, size] : {std::pair<const char*, int>{"TiB", 40}, {"GiB", 30}, {"MiB", 20},
                                     {"KiB", 10}, {"T", 40}, {"G", 30}, {"M", 20}, {"K", 10}}) {
    const std::string s = suffix;
    if (text.size() > s.size() && text.compare(text.size() - s.size(), s.size(), s) == 0) {
      text.resize(text.size() - s.size());
      unit = uint64_t{1} << size;
      break;
    }
  }
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(value > 0) || value * static_cast<double>(unit) > 1.8e19) {
    throw UsageError{"--" + name + " expects a size such as 1GiB or 512M, got '" + get(name, "") + "'"};
  }
  return static_cast<uint64_t>(value * static_cast<double>(unit));
}

double Args::get_rate(const std::string& name, double fallback) const {
  if (!flag(name)) return fallback;
  const std::string text = get(name, "");
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(value > 0 && value < 1)) {
    throw UsageError{"--" + name + " expects a rate between 0 and 1 (exclusive), got '" + text + "'"};
  }
  return value;
}

void Args::exclusive(const std::string& a, const std::string& b) const {
  if (flag(a) && flag(b)) throw UsageError{"--" + a + " and --" + b + " exclude each other"};
}

}  // namespace seen::cli
