#include <cstdlib>
#include <utility>

#include "cli/cli.h"

namespace seen::cli {

Args::Args(int argc, char** argv, const std::vector<std::string>& switches) {
  for (int i = 0; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.size() > 2 && arg.compare(0, 2, "--") == 0) {
      const std::string name = arg.substr(2);
      bool is_switch = false;
      for (const auto& s : switches) is_switch = is_switch || s == name;
      if (is_switch) {
        options_[name] = "1";
      } else if (i + 1 < argc) {
        options_[name] = argv[++i];
      } else {
        throw UsageError{"option --" + name + " needs a value"};
      }
    } else if (arg == "-o") {
      if (i + 1 >= argc) throw UsageError{"-o needs a file name"};
      options_["output"] = argv[++i];
    } else {
      positional_.push_back(arg);
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

double Args::get_double(const std::string& name, double fallback) const {
  if (!flag(name)) return fallback;
  const std::string text = get(name, "");
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0') {
    throw UsageError{"--" + name + " expects a number, got '" + text + "'"};
  }
  return value;
}

}  // namespace seen::cli
