// seen query: prints each key with `seen` or `new`; --new-only prints just the new keys.
#include <cstdio>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "cli/key_file.h"
#include "cli/lines.h"
#include "core/bloom.h"
#include "core/bloom_codec.h"

namespace seen::cli {

int Query(const Args& args) {
  if (args.positional().empty()) throw UsageError{"query needs FILE"};
  const Bloom filter = Open(args.positional()[0], false, true, KeyFile(args));
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
  if (args.positional().size() > 1) {
    KeyBatch batch;
    for (size_t i = 1; i < args.positional().size(); ++i) {
      const std::string& key = args.positional()[i];
      batch.Add(key.data(), key.size());
    }
    print(batch);
    return kExitOk;
  }
  auto source = LineSource::Open("-");
  const char *begin, *end;
  while (source->Next(&begin, &end)) ForEachBatch(begin, end, print);
  return kExitOk;
}

}  // namespace seen::cli
