// seen query: prints each key with `seen` or `new`; --new-only prints just the new keys. The
// filter FILE may be - (stdin), and so may one of the keys: the keys of stdin, in its place.
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "cli/input.h"
#include "cli/key_file.h"
#include "cli/lines.h"
#include "core/bloom.h"
#include "core/bloom_codec.h"

namespace seen::cli {

int Query(const Args& args) {
  const std::vector<std::string>& inputs = args.positional();
  if (inputs.empty()) throw UsageError{"query needs FILE"};
  if (inputs.size() == 1 && inputs[0] == "-") {
    throw UsageError{"query - reads the filter from stdin: give the keys as arguments"};
  }
  std::vector<std::string> stdin_readers = inputs;
  if (inputs.size() == 1) stdin_readers.push_back("-");  // no keys given: they come from stdin
  StdinOnce(stdin_readers, args);
  const std::optional<SecretKey> key = KeyFile(args);
  const Bloom filter = Input(inputs[0]).Load([&](const std::string& path) { return Open(path, false, true, key); },
                                             [&](const uint8_t* data, uint64_t size) { return Deserialize(data, size, key); });
  const bool new_only = args.flag("new-only");
  std::vector<uint8_t> answers;
  auto print = [&](const KeyBatch& batch) {
    answers.resize(batch.size());
    filter.ContainsKeys(batch.data.data(), batch.offsets.data(), batch.size(), answers.data());
    for (size_t i = 0; i < batch.size(); ++i) {
      const std::string_view key = batch.lines[i];
      if (new_only) {
        if (!answers[i]) std::printf("%.*s\n", static_cast<int>(key.size()), key.data());
      } else {
        std::printf("%.*s\t%s\n", static_cast<int>(key.size()), key.data(), answers[i] ? "seen" : "new");
      }
    }
  };
  auto print_stdin = [&] {
    auto source = LineSource::Open("-");
    const char *begin, *end;
    while (source->Next(&begin, &end)) ForEachBatch(begin, end, print);
  };
  if (inputs.size() == 1) {
    print_stdin();
    return kExitOk;
  }
  // Keys in the order given; a "-" among them stands for the keys of stdin, there.
  KeyBatch batch;
  for (size_t i = 1; i < inputs.size(); ++i) {
    if (inputs[i] != "-") {
      batch.Add(inputs[i].data(), inputs[i].size());
      continue;
    }
    print(batch);
    batch.Clear();
    print_stdin();
  }
  print(batch);
  return kExitOk;
}

}  // namespace seen::cli
