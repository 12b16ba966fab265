// seen info: the kind, parameters, size and fill of a Bloom, counting or scalable filter,
// window, store, SimHash index or MinHash index file (or of one on stdin, for -), after its
// checksums were verified.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "cli/input.h"
#include "cli/key_file.h"
#include "core/bloom.h"
#include "core/bloom_codec.h"
#include "core/counting_codec.h"
#include "core/error.h"
#include "core/file.h"
#include "core/format.h"
#include "core/minhash_codec.h"
#include "core/scalable_codec.h"
#include "core/simhash_codec.h"
#include "core/store.h"
#include "core/window_codec.h"

namespace seen::cli {

namespace {

// One line of `seen info`: a name and its value. Values are JSON values so that `--json` is
// written by the JSON library, and the table prints the same values as plain text.
struct Field {
  std::string name;
  nlohmann::ordered_json value;
};

Field Text(std::string name, std::string value) { return {std::move(name), std::move(value)}; }
Field Count(std::string name, uint64_t value) { return {std::move(name), value}; }
Field Flag(std::string name, bool value) { return {std::move(name), value}; }
// JSON has no infinity: a count a saturated filter cannot estimate is null (docs: README).
Field Real(std::string name, double value) {
  if (!std::isfinite(value)) return {std::move(name), nullptr};
  return {std::move(name), value};
}

std::string TableText(const nlohmann::ordered_json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_boolean()) return value.get<bool>() ? "yes" : "no";
  if (value.is_null()) return "unknown (saturated)";
  if (value.is_number_float()) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.6g", value.get<double>());
    return buf;
  }
  return value.dump();
}

void Print(const std::vector<Field>& fields, bool json) {
  if (json) {
    nlohmann::ordered_json object = nlohmann::ordered_json::object();
    for (const Field& f : fields) object[f.name] = f.value;
    // A path that is not UTF-8 still gives valid JSON, its bad bytes as U+FFFD.
    std::printf("%s\n", object.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
    return;
  }
  for (const Field& f : fields) {
    std::string label = f.name;
    std::replace(label.begin(), label.end(), '_', ' ');
    std::printf("%-20s%s\n", label.c_str(), TableText(f.value).c_str());
  }
}

std::vector<Field> BloomFields(const Input& in, const std::optional<SecretKey>& key) {
  const Bloom filter = in.Load([&](const std::string& path) { return Open(path, false, true, key); },
                               [&](const uint8_t* data, uint64_t size) { return Deserialize(data, size, key); });
  const BloomParams& p = filter.params();
  const BloomStats s = filter.Stats();
  return {Count("bytes", p.bytes()), Count("blocks", p.blocks), Count("k", p.k), Count("seed", p.seed),
          Flag("keyed", p.key.has_value()),
          Count("expected_items", p.expected_items), Real("target_fpr", p.target_fpr),
          Real("fill_ratio", s.fill_ratio), Real("approx_items", s.approx_items),
          Real("predicted_fpr", s.predicted_fpr)};
}

std::vector<Field> CountingFields(const Input& in, const std::optional<SecretKey>& key) {
  const Counting filter =
      in.Load([&](const std::string& path) { return OpenCounting(path, false, true, key); },
              [&](const uint8_t* data, uint64_t size) { return DeserializeCounting(data, size, key); });
  const CountingParams& p = filter.params();
  const CountingStats s = filter.Stats();
  return {Count("bytes", p.bytes()), Count("blocks", p.blocks), Count("k", p.k), Count("seed", p.seed),
          Flag("keyed", p.key.has_value()), Count("expected_items", p.expected_items),
          Real("target_fpr", p.target_fpr), Real("fill_ratio", s.fill_ratio),
          Real("approx_items", s.approx_items), Count("saturated_counters", s.saturated),
          Real("predicted_fpr", s.predicted_fpr)};
}

std::vector<Field> ScalableFields(const Input& in, const std::optional<SecretKey>& key) {
  const Scalable filter =
      in.Load([&](const std::string& path) { return OpenScalable(path, false, true, key); },
              [&](const uint8_t* data, uint64_t size) { return DeserializeScalable(data, size, key); });
  const ScalableOptions& o = filter.options();
  return {Count("bytes", filter.bytes()), Count("sub_filters", filter.subs().size()),
          Count("initial_capacity", o.initial_capacity), Real("target_fpr", o.fpr),
          Real("growth", o.growth), Real("tightening", o.tightening), Count("seed", o.seed),
          Flag("keyed", o.key.has_value()), Count("items", filter.items()),
          Real("predicted_fpr", filter.PredictedFpr())};
}

const char* LayoutName(WindowLayout layout) {
  switch (layout) {
    case WindowLayout::kRing: return "ring";
    case WindowLayout::kSliced: return "sliced";
    case WindowLayout::kGrowing: return "growing";
    case WindowLayout::kPacked: return "packed";
    case WindowLayout::kTable: break;
  }
  return "table";
}

std::vector<Field> WindowSpecFields(const WindowParams& p) {
  std::vector<Field> fields = {Text("mode", p.mode == WindowMode::kTime ? "time" : "count"),
                               Text("layout", LayoutName(p.layout)), Count("span", p.span),
                               Count("segments", p.segments), Real("slack", p.slack()),
                               Count("state_bytes", p.state_bytes()), Real("target_fpr", p.target_fpr),
                               Count("seed", p.seed)};
  if (p.grows()) fields.push_back(Count("max_bytes", p.max_bytes));
  return fields;
}

std::vector<Field> WindowFields(const Input& in, uint32_t now) {
  const Window w = [&] {
    try {
      return DeserializeWindow(in.data(), in.size());
    } catch (const Error& e) {
      throw Error(e.code(), in.name() + ": " + e.what());
    }
  }();
  const WindowSaturation sat = MeasureWindowSaturation(w.params, w.state.data(), &w.growth, now);
  auto fields = WindowSpecFields(w.params);
  fields.push_back(Count("now", now));
  fields.push_back(Count("bytes", w.state.size() + w.growth.size()));
  fields.push_back(Real("fill", sat.fill));
  fields.push_back(Real("predicted_fpr", sat.rate));
  fields.push_back(Count("effective_span", sat.effective_span));
  return fields;
}

std::vector<Field> StoreFields(const Input& in, uint32_t now) {
  const Store store = in.Load([](const std::string& path) { return Store::Open(path, false, true); },
                              [](const uint8_t*, uint64_t) -> Store {
                                throw Error(Code::kIo, "a store opens from its file only: give its path, not -");
                              });
  const StoreStats stats = store.Stats();
  const StoreSaturation sat = store.Saturation(now);
  auto fields = WindowSpecFields(store.options().window);
  fields.insert(fields.begin(), {Count("users", stats.users), Count("bytes", stats.bytes)});
  fields.push_back(Count("now", now));
  fields.push_back(Count("users_above_target", sat.above_target));
  fields.push_back(Count("users_span_limited", sat.span_limited));
  fields.push_back(Count("users_grown", stats.users_grown));
  fields.push_back(Real("mean_fill", sat.mean_fill));
  fields.push_back(Real("max_predicted_fpr", sat.max_rate));
  return fields;
}

std::vector<Field> SimhashIndexFields(const Input& in) {
  const SimhashIndex index = in.Load([](const std::string& path) { return OpenSimhashIndex(path, true); },
                                     [](const uint8_t* data, uint64_t size) { return DeserializeSimhashIndex(data, size); });
  const SimhashLayout& l = index.layout();
  return {Count("documents", l.count), Count("max_k", l.max_k), Count("blocks", l.blocks),
          Count("primary_bits", l.primary_bits), Count("bytes", index.bytes())};
}

std::vector<Field> MinhashIndexFields(const Input& in, const std::optional<SecretKey>& key) {
  const MinhashIndex index =
      in.Load([&](const std::string& path) { return OpenMinhashIndex(path, key, false, true); },
              [&](const uint8_t* data, uint64_t size) { return DeserializeMinhashIndex(data, size, key); });
  const MinhashOptions& o = index.options();
  return {Count("documents", index.size()), Count("bins", o.bins), Count("shingle", o.shingle),
          Count("seed", o.seed), Flag("keyed", o.key.has_value()), Real("threshold", index.threshold()),
          Count("bands", index.shape().bands), Count("rows", index.shape().rows), Count("bytes", index.bytes())};
}

}  // namespace

int Info(const Args& args) {
  if (args.positional().size() != 1) throw UsageError{"info needs exactly one FILE"};
  const std::string& path = args.positional()[0];
  const uint64_t now = args.get_u64("now", static_cast<uint64_t>(std::time(nullptr)));
  if (now > UINT32_MAX) throw UsageError{"--now is past 2^32 - 1 seconds"};
  StdinOnce(args.positional(), args);
  const Input in(path);
  const uint32_t kind = ContainerKind(in.data(), in.size(), in.name());
  // Every kind below is opened with its payload checksum checked: a mismatch is an error.
  std::vector<Field> fields = {Text("file", path), Text("kind", KindName(kind)), Text("checksum", "verified")};
  std::vector<Field> more;
  if (kind == static_cast<uint32_t>(Kind::kBloom)) {
    more = BloomFields(in, KeyFile(args));
  } else if (kind == static_cast<uint32_t>(Kind::kCounting)) {
    more = CountingFields(in, KeyFile(args));
  } else if (kind == static_cast<uint32_t>(Kind::kScalable)) {
    more = ScalableFields(in, KeyFile(args));
  } else if (kind == static_cast<uint32_t>(Kind::kWindow)) {
    more = WindowFields(in, static_cast<uint32_t>(now));
  } else if (kind == static_cast<uint32_t>(Kind::kStore)) {
    more = StoreFields(in, static_cast<uint32_t>(now));
  } else if (kind == static_cast<uint32_t>(Kind::kSimhashIndex)) {
    more = SimhashIndexFields(in);
  } else if (kind == static_cast<uint32_t>(Kind::kMinhashIndex)) {
    more = MinhashIndexFields(in, KeyFile(args));
  } else {
    throw Error(Code::kWrongKind, in.name() + ": holds kind " + std::to_string(kind) +
                                      ", unknown to this build; seen info reads Bloom, counting and scalable filter, window, store, "
                                      "SimHash index and MinHash index files");
  }
  fields.insert(fields.end(), more.begin(), more.end());
  Print(fields, args.flag("json"));
  return kExitOk;
}

}  // namespace seen::cli
