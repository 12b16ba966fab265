// seen merge: the union of two Bloom filter files of one shape and seed (or key), A | B into C.
#include <cstdio>
#include <optional>
#include <string>

#include "cli/cli.h"
#include "cli/input.h"
#include "cli/key_file.h"
#include "cli/writable.h"
#include "core/bloom.h"
#include "core/bloom_codec.h"
#include "core/error.h"

namespace seen::cli {

int Merge(const Args& args) {
  if (args.positional().size() != 2) throw UsageError{"merge needs two input files: A B -o C"};
  const std::string output = args.require("output");
  StdinOnce(args.positional(), args);
  // Two big filters take a while to read: a bad output path fails before that.
  CheckWritable(output);
  const std::optional<SecretKey> key = KeyFile(args);
  // Each input is a file or - (stdin).
  auto load = [&](const std::string& input) {
    return Input(input).Load([&](const std::string& path) { return Open(path, false, true, key); },
                             [&](const uint8_t* data, uint64_t size) { return Deserialize(data, size, key); });
  };
  Bloom merged = load(args.positional()[0]).Copy();
  try {
    merged.Merge(load(args.positional()[1]));
  } catch (const Error& e) {
    throw Error(e.code(), args.positional()[0] + " and " + args.positional()[1] + ": " + e.what());
  }
  Save(merged, output);
  std::printf("merged %s and %s into %s\n", args.positional()[0].c_str(),
              args.positional()[1].c_str(), output.c_str());
  return kExitOk;
}

}  // namespace seen::cli
