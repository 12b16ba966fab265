// The `seen` command: one function per subcommand, and the small pieces they share.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace seen::cli {

// Exit codes (documented in README and `seen --help`).
constexpr int kExitOk = 0;
constexpr int kExitError = 1;  // a file or input problem, named on stderr
constexpr int kExitUsage = 2;  // a bad command line

// A bad command line; main prints it with the usage and exits kExitUsage.
struct UsageError {
  std::string message;
};

// One option of a command: `--name VALUE`, or a switch `--name` when value is nullptr.
struct OptionSpec {
  const char* name;
  const char* value;  // the placeholder shown in help, e.g. "N"; nullptr for a switch
  const char* help;
};

class Args;

// A subcommand: what `seen CMD --help` prints, the options it accepts, and what runs it.
struct CommandSpec {
  const char* name;
  const char* synopsis;  // the arguments after `seen CMD`
  const char* summary;   // one line: what the command does
  std::vector<OptionSpec> options;
  int (*run)(const Args&);
};

// Every subcommand, in the order `seen --help` lists them (cli/commands.cc).
const std::vector<CommandSpec>& Commands();

// The options a command declares, given as --name VALUE, --name=VALUE or --name (switches),
// -o FILE for --output, and positional arguments (- is stdin), in any order; after -- every
// argument is positional. Split by CLI11 (cli/args.cc). Anything else that starts with - is
// a UsageError naming it, and every message names an option as it was typed (-o stays -o).
class Args {
 public:
  Args(int argc, char** argv, const CommandSpec& command);
  const std::vector<std::string>& positional() const { return positional_; }
  bool flag(const std::string& name) const;
  std::string get(const std::string& name, const std::string& fallback) const;
  std::string require(const std::string& name) const;
  uint64_t get_u64(const std::string& name, uint64_t fallback) const;
  // A size such as 1073741824, 1e9, 512M or 1GiB (K, M, G, T: powers of 1024).
  uint64_t get_bytes(const std::string& name, uint64_t fallback) const;
  // A rate strictly between 0 and 1, such as a false-positive rate.
  double get_rate(const std::string& name, double fallback) const;
  // Refuses a command line that gives both options.
  void exclusive(const std::string& a, const std::string& b) const;

 private:
  std::vector<std::string> positional_;
  std::map<std::string, std::string> options_;
};

int Build(const Args& args);
int Query(const Args& args);
int Info(const Args& args);
int Merge(const Args& args);
int Demo(const Args& args);
int Dedupe(const Args& args);
bool DemoSimhash(const Args& args);
int Simulate(const Args& args);

// Sections of `seen demo`, each printing its report; false if a promise failed.
bool DemoExposure(const Args& args);

}  // namespace seen::cli
