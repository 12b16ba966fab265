// The `seen` command line. Exit codes: 0 success, 1 a file or input problem (named on
// stderr), 2 a bad command line.
#include <cstdio>
#include <cstring>
#include <string>

#include "cli/cli.h"
#include "core/error.h"

namespace {

using seen::cli::CommandSpec;

void PrintUsage(FILE* out) {
  std::fputs("usage: seen COMMAND [OPTIONS]    (seen COMMAND --help, or seen help COMMAND)\n\ncommands:\n", out);
  for (const CommandSpec& c : seen::cli::Commands()) std::fprintf(out, "  %-9s %s\n", c.name, c.summary);
  std::fputs("\n  seen --version    the version of seen\n\n"
             "exit codes: 0 ok, 1 file or input error, 2 usage error\n", out);
}

void PrintHelp(const CommandSpec& c) {
  std::printf("usage: seen %s %s\n\n%s\n", c.name, c.synopsis, c.summary);
  if (!c.options.empty()) std::puts("\noptions:");
  for (const auto& o : c.options) {
    const std::string spelled = std::string("--") + o.name + (o.value ? std::string(" ") + o.value : "");
    std::printf("  %-17s %s\n", spelled.c_str(), o.help);
  }
}

const CommandSpec* Find(const std::string& name) {
  for (const CommandSpec& c : seen::cli::Commands()) {
    if (name == c.name) return &c;
  }
  return nullptr;
}

bool AsksForHelp(int argc, char** argv) {
  for (int i = 0; i < argc && std::strcmp(argv[i], "--") != 0; ++i) {
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) return true;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace seen::cli;
  if (argc < 2) {
    PrintUsage(stderr);
    return kExitUsage;
  }
  const std::string first = argv[1];
  if (first == "--help" || first == "-h") {
    PrintUsage(stdout);
    return kExitOk;
  }
  if (first == "--version") {
    std::printf("seen %s\n", SEEN_VERSION_STRING);
    return kExitOk;
  }
  const bool help_command = first == "help";
  const std::string name = help_command ? (argc > 2 ? argv[2] : "") : first;
  const CommandSpec* command = Find(name);
  if (command == nullptr) {
    if (help_command && name.empty()) {
      PrintUsage(stdout);
      return kExitOk;
    }
    std::fprintf(stderr, "seen: unknown command '%s' (seen --help lists them)\n", name.c_str());
    return kExitUsage;
  }
  if (help_command || AsksForHelp(argc - 2, argv + 2)) {
    PrintHelp(*command);
    return kExitOk;
  }
  try {
    return command->run(Args(argc - 2, argv + 2, *command));
  } catch (const UsageError& e) {
    std::fprintf(stderr, "seen %s: %s\nusage: seen %s %s\n", name.c_str(), e.message.c_str(),
                 name.c_str(), command->synopsis);
    return kExitUsage;
  } catch (const seen::Error& e) {
    std::fprintf(stderr, "seen %s: %s\n", name.c_str(), e.what());
    return kExitError;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "seen %s: out of memory\n", name.c_str());
    return kExitError;
  }
}
