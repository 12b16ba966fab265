// The `seen` command line. Exit codes: 0 success, 1 a file or input problem (named on
// stderr), 2 a bad command line.
#include <cstdio>
#include <cstring>
#include <string>

#include "cli/cli.h"
#include "core/error.h"

namespace {

constexpr const char* kUsage = R"(usage: seen COMMAND [OPTIONS]

commands:
  build --capacity N [--fpr P | --bytes SIZE] [--seed S] [--threads T] INPUT... -o FILE
        one key per line (- is stdin); a trailing \r is dropped, empty lines skipped
  query FILE [KEY...] [--new-only]
        prints KEY<TAB>seen|new per key; reads keys from stdin when none are given
  info FILE [--json]
  merge A B -o C
  dedupe [--k K] [--ngram N] [--per-file | --field NAME] INPUT...
        exact and near-duplicate groups: one document per line, per file, or JSONL field
  simulate exposure [--users N] [--window N] [--csv FILE] [--png FILE]
        the published exposure-filtering designs beside seen's windows
  demo [--keys N] [--fpr P] [--users N]

exit codes: 0 ok, 1 file or input error, 2 usage error
)";

}  // namespace

int main(int argc, char** argv) {
  using namespace seen::cli;
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
    std::fputs(kUsage, argc < 2 ? stderr : stdout);
    return argc < 2 ? kExitUsage : kExitOk;
  }
  const std::string command = argv[1];
  try {
    const Args args(argc - 2, argv + 2, {"new-only", "json", "per-file"});
    if (command == "build") return Build(args);
    if (command == "query") return Query(args);
    if (command == "info") return Info(args);
    if (command == "merge") return Merge(args);
    if (command == "demo") return Demo(args);
    if (command == "dedupe") return Dedupe(args);
    if (command == "simulate") return Simulate(args);
    throw UsageError{"unknown command '" + command + "'"};
  } catch (const UsageError& e) {
    std::fprintf(stderr, "seen %s: %s\n\n%s", command.c_str(), e.message.c_str(), kUsage);
    return kExitUsage;
  } catch (const seen::Error& e) {
    std::fprintf(stderr, "seen %s: %s\n", command.c_str(), e.what());
    return kExitError;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "seen %s: out of memory\n", command.c_str());
    return kExitError;
  }
}
