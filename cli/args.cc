#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/cli.h"

namespace seen::cli {
namespace {

// An argument as typed, without its =VALUE: what messages name.
std::string Spelled(const std::string& arg) { return arg.substr(0, arg.find('=')); }

}  // namespace

// CLI11 splits the line: --name VALUE, --name=VALUE, switches, positionals anywhere, and "--"
// ending the options. -o is registered apart from --output, so that CLI11 records which of the
// two was typed and every message here names the option as the user wrote it.
Args::Args(int argc, char** argv, const CommandSpec& command) {
  CLI::App app;
  app.set_help_flag();  // main prints the help, from the same CommandSpec
  // Unknown options are collected instead of thrown, so that the message can name them and
  // an unknown option never takes the argument after it as its value.
  app.allow_extras();
  std::map<const CLI::Option*, const OptionSpec*> specs;
  for (const auto& spec : command.options) {
    std::vector<std::string> spellings = {std::string("--") + spec.name};
    if (spellings[0] == "--output") spellings.push_back("-o");
    for (const std::string& spelling : spellings) {
      CLI::Option* option = spec.value == nullptr ? app.add_flag(spelling) : app.add_option(spelling);
      // Every occurrence is kept, so that a repeated option is refused below, by name.
      specs[option->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)] = &spec;
    }
  }
  app.add_option("positional", positional_);
  // CLI11 reads --name= as --name alone and would take the next argument as its value.
  for (int i = 0; i < argc && std::string(argv[i]) != "--"; ++i) {
    const std::string arg = argv[i];
    if (arg.size() > 3 && arg.rfind("--", 0) == 0 && arg.back() == '=') {
      throw UsageError{Spelled(arg) + " needs a value after ="};
    }
  }
  std::vector<std::string> line(argv, argv + argc);
  std::reverse(line.begin(), line.end());  // CLI11 takes a vector last argument first, and empties it
  try {
    app.parse(line);
  } catch (const CLI::ArgumentMismatch& e) {
    // CLI11 takes whatever follows an option as its value, so only the last argument can
    // lack one.
    const std::string last = argc > 0 ? Spelled(argv[argc - 1]) : "";
    for (const auto& [option, spec] : specs) {
      if (option->get_name() == last && spec->value != nullptr) {
        throw UsageError{last + " needs a value (" + spec->value + ")"};
      }
    }
    throw UsageError{e.what()};
  } catch (const CLI::ParseError& e) {
    throw UsageError{e.what()};
  }
  for (const std::string& extra : app.remaining()) {
    if (extra.size() >= 2 && extra[0] == '-' && extra != "--") {
      throw UsageError{"unknown option " + Spelled(extra) + " (seen " + command.name + " --help lists the options)"};
    }
  }
  // In the order given, so that "given twice" names the second occurrence as it was typed.
  for (const CLI::Option* option : app.parse_order()) {
    const auto found = specs.find(option);
    if (found == specs.end()) continue;  // a positional
    const OptionSpec& spec = *found->second;
    const std::string spelled = option->get_name();
    if (options_.count(spec.name)) throw UsageError{spelled + " is given twice"};
    const std::string& value = option->results().front();  // the first time it is given
    // A switch given as --name=VALUE: CLI11 passes VALUE on, where seen has no use for it.
    if (spec.value == nullptr && value != "true") throw UsageError{spelled + " takes no value"};
    options_[spec.name] = spec.value == nullptr ? "1" : value;
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
