// The C shim of MinHash: options over their defaults, and calls into core/minhash*.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "capi/seen.h"
#include "capi/shim.h"
#include "capi/versioned.h"
#include "core/minhash.h"
#include "core/minhash_codec.h"
#include "core/minhash_index.h"

struct seen_minhash_index {
  seen::MinhashIndex index;
  mutable seen::capi::ErrorSlot error{};  // its last failure (report.h)
};

using seen::capi::CreateInto;
using seen::capi::Guard;

namespace {

struct Settings {
  seen::MinhashOptions sketch;
  double threshold;
};

// The caller's options over the defaults, only as far as its `size` reaches.
Settings SettingsFrom(const seen_minhash_options* given) {
  const seen_minhash_options o =
      given == nullptr ? seen_minhash_options{} : seen::capi::ReadVersioned(given, sizeof(size_t), "minhash options");
  Settings s;
  s.sketch.bins = o.bins;
  s.sketch.shingle = o.shingle;
  s.sketch.seed = o.seed;
  s.sketch.key = seen::capi::OptionalKey(o.key, o.key_len);
  s.sketch = seen::WithDefaultsForZeros(s.sketch);
  s.threshold = seen::MinhashThresholdOrDefault(o.threshold);
  return s;
}

}  // namespace

extern "C" {

seen_status seen_minhash_sketch_text(const char* text, size_t len, const seen_minhash_options* opts,
                                     uint32_t* out, size_t cap, seen_error* err) {
  const seen::capi::ReportTo report(err);
  SEEN_REQUIRE(text != nullptr || len == 0, "text is NULL");
  SEEN_REQUIRE(out != nullptr, "out is NULL");
  return Guard([&] {
    const Settings s = SettingsFrom(opts);
    const std::vector<uint32_t> sketch = seen::SketchText(text, len, s.sketch);
    if (cap < sketch.size()) {
      throw seen::Error(seen::Code::kBufferTooSmall, "a sketch has " + std::to_string(sketch.size()) +
                                                         " bins, cap is " + std::to_string(cap));
    }
    std::copy(sketch.begin(), sketch.end(), out);
  });
}

double seen_minhash_similarity(const uint32_t* a, const uint32_t* b, size_t bins) {
  if (a == nullptr || b == nullptr) return 0;
  return seen::EstimateJaccard(a, b, bins);
}

seen_status seen_minhash_index_create(const seen_minhash_options* opts, seen_minhash_index** out,
                                      seen_error* err) {
  const seen::capi::ReportTo report(err);
  return CreateInto<seen_minhash_index>(out, [&] {
    const Settings s = SettingsFrom(opts);
    return seen::MinhashIndex(s.sketch, s.threshold);
  });
}

void seen_minhash_index_free(seen_minhash_index* index) { delete index; }

void seen_minhash_index_last_error(const seen_minhash_index* index, seen_error* err) { seen::capi::CopyLastError(index, err); }

seen_status seen_minhash_index_add_text(seen_minhash_index* index, uint64_t id, const char* text,
                                        size_t len) {
  const seen::capi::ReportTo report(index);
  SEEN_REQUIRE(index != nullptr, "index is NULL");
  SEEN_REQUIRE(text != nullptr || len == 0, "text is NULL");
  return Guard([&] { index->index.Add(id, seen::SketchText(text, len, index->index.options())); });
}

seen_status seen_minhash_index_remove(seen_minhash_index* index, uint64_t id, int* removed) {
  const seen::capi::ReportTo report(index);
  SEEN_REQUIRE(index != nullptr, "index is NULL");
  return Guard([&] {
    const bool was = index->index.Remove(id);
    if (removed != nullptr) *removed = was ? 1 : 0;
  });
}

seen_status seen_minhash_index_query_text(const seen_minhash_index* index, const char* text,
                                          size_t len, uint64_t* ids, double* similarities,
                                          size_t cap, size_t* found) {
  const seen::capi::ReportTo report(index);
  SEEN_REQUIRE(index != nullptr && found != nullptr, "index or found is NULL");
  SEEN_REQUIRE(text != nullptr || len == 0, "text is NULL");
  SEEN_REQUIRE(ids != nullptr || cap == 0, "ids is NULL");
  return Guard([&] {
    // On the stack: a query allocates only its matches.
    uint32_t sketch[seen::kMaxMinhashBins];
    const seen::MinhashOptions& options = index->index.options();
    seen::SketchTextInto(text, len, options, sketch);
    const auto matches = index->index.Query(sketch, options.bins);
    *found = matches.size();
    for (size_t i = 0; i < std::min(cap, matches.size()); ++i) {
      ids[i] = matches[i].id;
      if (similarities != nullptr) similarities[i] = matches[i].similarity;
    }
    if (matches.size() > cap) {
      throw seen::Error(seen::Code::kBufferTooSmall, std::to_string(matches.size()) + " matches, cap is " +
                                                         std::to_string(cap));
    }
  });
}

seen_status seen_minhash_index_size(const seen_minhash_index* index, uint64_t* texts, uint64_t* bytes) {
  const seen::capi::ReportTo report(index);
  SEEN_REQUIRE(index != nullptr, "index is NULL");
  if (texts != nullptr) *texts = index->index.size();
  if (bytes != nullptr) *bytes = index->index.bytes();
  return SEEN_OK;
}

seen_status seen_minhash_index_serialize(const seen_minhash_index* index, uint8_t* buf, size_t cap,
                                         size_t* written) {
  const seen::capi::ReportTo report(index);
  SEEN_REQUIRE(index != nullptr && written != nullptr, "index or written is NULL");
  return seen::capi::SerializeInto(__func__, index->index, buf, cap, written);
}

seen_status seen_minhash_index_deserialize(const uint8_t* buf, size_t len, const uint8_t* key, size_t key_len,
                                           seen_minhash_index** out, seen_error* err) {
  const seen::capi::ReportTo report(err);
  SEEN_REQUIRE(buf != nullptr || len == 0, "buf is NULL");
  return CreateInto<seen_minhash_index>(out, [&] {
    return seen::DeserializeMinhashIndex(buf, len, seen::capi::OptionalKey(key, key_len));
  });
}

seen_status seen_minhash_index_save(const seen_minhash_index* index, const char* path) {
  const seen::capi::ReportTo report(index);
  SEEN_REQUIRE(index != nullptr && path != nullptr, "index or path is NULL");
  return Guard([&] { seen::Save(index->index, path); });
}

seen_status seen_minhash_index_open(const char* path, uint32_t flags, const uint8_t* key, size_t key_len,
                                    seen_minhash_index** out, seen_error* err) {
  const seen::capi::ReportTo report(err);
  SEEN_REQUIRE(path != nullptr, "path is NULL");
  const uint32_t mode = flags & ~SEEN_OPEN_NO_VERIFY;
  SEEN_REQUIRE(mode == SEEN_OPEN_READ_ONLY || mode == SEEN_OPEN_PRIVATE_COPY,
               "flags need SEEN_OPEN_READ_ONLY or SEEN_OPEN_PRIVATE_COPY, optionally with SEEN_OPEN_NO_VERIFY");
  return CreateInto<seen_minhash_index>(out, [&] {
    return seen::OpenMinhashIndex(path, seen::capi::OptionalKey(key, key_len), mode == SEEN_OPEN_READ_ONLY,
                                  (flags & SEEN_OPEN_NO_VERIFY) == 0);
  });
}

}  // extern "C"
