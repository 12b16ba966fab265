// seen info (parameters and fill of a filter file) and seen merge (A | B into C).
#include <cstdio>

#include "cli/cli.h"
#include "core/bloom.h"
#include "core/bloom_codec.h"
#include "core/error.h"

namespace seen::cli {

int Info(const Args& args) {
  if (args.positional().size() != 1) throw UsageError{"info needs exactly one FILE"};
  const std::string& path = args.positional()[0];
  const Bloom filter = Open(path, false, true);
  const BloomParams& p = filter.params();
  const BloomStats s = filter.Stats();
  const char* format = args.flag("json")
      ? "{\"file\": \"%s\", \"kind\": \"bloom\", \"bytes\": %llu, \"blocks\": %llu, \"k\": %u, "
        "\"seed\": %llu, \"expected_items\": %llu, \"target_fpr\": %.17g, \"fill_ratio\": %.17g, "
        "\"approx_items\": %.17g, \"predicted_fpr\": %.17g}\n"
      : "file            %s\nkind            bloom\nbytes           %llu\nblocks          %llu\n"
        "k               %u\nseed            %llu\nexpected items  %llu\ntarget fpr      %.6g\n"
        "fill ratio      %.6g\napprox items    %.6g\npredicted fpr   %.6g\n";
  std::printf(format, path.c_str(), static_cast<unsigned long long>(p.bytes()),
              static_cast<unsigned long long>(p.blocks), p.k, static_cast<unsigned long long>(p.seed),
              static_cast<unsigned long long>(p.expected_items), p.target_fpr, s.fill_ratio,
              s.approx_items, s.predicted_fpr);
  return kExitOk;
}

int Merge(const Args& args) {
  if (args.positional().size() != 2) throw UsageError{"merge needs two input files: A B -o C"};
  const std::string output = args.require("output");
  Bloom merged = Open(args.positional()[0], false, true).Copy();
  try {
    merged.Merge(Open(args.positional()[1], false, true));
  } catch (const Error& e) {
    throw Error(e.code(), args.positional()[0] + " and " + args.positional()[1] + ": " + e.what());
  }
  Save(merged, output);
  std::printf("merged %s and %s into %s\n", args.positional()[0].c_str(),
              args.positional()[1].c_str(), output.c_str());
  return kExitOk;
}

}  // namespace seen::cli
