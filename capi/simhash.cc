// The C shim of SimHash: checks arguments and calls core/simhash and core/simhash_index.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "capi/seen.h"
#include "capi/shim.h"
#include "capi/versioned.h"
#include "core/simhash.h"
#include "core/simhash_codec.h"
#include "core/simhash_index.h"

struct seen_simhash_idf {
  seen::IdfTable table;
};

struct seen_simhash_index {
  seen::SimhashIndex index;
  mutable seen::capi::ErrorSlot error{};  // its last failure (report.h)
};

using seen::capi::CreateInto;
using seen::capi::Fail;
using seen::capi::Guard;

namespace {

// The caller's options over the defaults, only as far as its `size` reaches.
seen::TextOptions Options(const seen_simhash_options* given) {
  const seen_simhash_options o =
      given == nullptr ? seen_simhash_options{} : seen::capi::ReadVersioned(given, sizeof(size_t), "simhash options");
  seen::TextOptions options;
  options.ngram = o.ngram;
  options.seed = o.seed;
  options.idf = o.idf ? &o.idf->table : nullptr;
  options.key = seen::capi::OptionalKey(o.key, o.key_len);
  return seen::WithDefaultsForZeros(options);
}

// The first `count` matches into the caller's arrays (distances may be NULL).
void CopyOut(const std::vector<seen::SimhashMatch>& matches, size_t count, uint64_t* ids, uint32_t* distances) {
  for (size_t i = 0; i < count; ++i) {
    ids[i] = matches[i].id;
    if (distances != nullptr) distances[i] = matches[i].distance;
  }
}

}  // namespace

extern "C" {

seen_status seen_simhash_text(const char* text, size_t len, const seen_simhash_options* options,
                              seen_simhash_fingerprint* out, seen_error* err) {
  const seen::capi::ReportTo report(err);
  SEEN_REQUIRE(text != nullptr || len == 0, "text is NULL");
  SEEN_REQUIRE(out != nullptr && out->size >= sizeof(size_t), "out is NULL or out->size is not set");
  SEEN_REQUIRE(options == nullptr || options->size >= sizeof(size_t), "options->size is not set");
  return Guard([&] {
    const seen::TextFingerprint f = seen::FingerprintText(text, len, Options(options));
    const seen_simhash_fingerprint full{sizeof full, f.simhash, f.exact_high, f.exact_low, f.features};
    const size_t size = std::min(out->size, sizeof full);
    std::memcpy(out, &full, size);
    out->size = size;
  });
}

seen_status seen_simhash_text_batch(const uint8_t* data, const uint64_t* offsets, size_t n,
                                    const seen_simhash_options* options, uint64_t* simhashes,
                                    uint64_t* exact, seen_error* err) {
  const seen::capi::ReportTo report(err);
  SEEN_REQUIRE((offsets != nullptr && simhashes != nullptr) || n == 0, "offsets or simhashes is NULL");
  SEEN_REQUIRE(data != nullptr || n == 0 || offsets[n] == offsets[0], "data is NULL");
  SEEN_REQUIRE(options == nullptr || options->size >= sizeof(size_t), "options->size is not set");
  return Guard([&] {
    const seen::TextOptions o = Options(options);
    for (size_t i = 0; i < n; ++i) {
      if (offsets[i + 1] < offsets[i]) throw seen::Error(seen::Code::kInvalidArgument, "offsets decrease at " + std::to_string(i));
      const size_t len = offsets[i + 1] - offsets[i];
      const char* text = len ? reinterpret_cast<const char*>(data + offsets[i]) : nullptr;
      const seen::TextFingerprint f = seen::FingerprintText(text, len, o);
      simhashes[i] = f.simhash;
      if (exact != nullptr) {
        exact[2 * i] = f.exact_high;
        exact[2 * i + 1] = f.exact_low;
      }
    }
  });
}

seen_status seen_simhash_hashes(const uint64_t* hashes, const float* weights, size_t n,
                                uint64_t* out, seen_error* err) {
  const seen::capi::ReportTo report(err);
  SEEN_REQUIRE(out != nullptr, "out is NULL");
  SEEN_REQUIRE(hashes != nullptr || n == 0, "hashes is NULL");
  return Guard([&] { *out = seen::SimhashHashes(hashes, weights, n); });
}

namespace {

// seen_simhash_strings and its keyed form (`function`, which errors name), once the key is made.
seen_status SimhashOfStrings(const char* function, const uint8_t* data, const uint64_t* offsets,
                             const float* weights, size_t n, const seen::Hashing& hashing, uint64_t* out) {
  const char* missing = out == nullptr ? "out" : offsets == nullptr && n > 0 ? "offsets"
                        : data == nullptr && n > 0 && offsets[n] != offsets[0] ? "data" : nullptr;
  if (missing != nullptr) return Fail(SEEN_ERR_INVALID_ARGUMENT, std::string(function) + ": " + missing + " is NULL");
  return Guard([&] { *out = seen::SimhashStrings(data, offsets, weights, n, hashing); });
}

}  // namespace

seen_status seen_simhash_strings(const uint8_t* data, const uint64_t* offsets, const float* weights,
                                 size_t n, uint64_t seed, uint64_t* out, seen_error* err) {
  const seen::capi::ReportTo report(err);
  return SimhashOfStrings(__func__, data, offsets, weights, n, {seed, std::nullopt}, out);
}

seen_status seen_simhash_strings_keyed(const uint8_t* data, const uint64_t* offsets, const float* weights,
                                       size_t n, uint64_t seed, const uint8_t* key, size_t key_len,
                                       uint64_t* out, seen_error* err) {
  const seen::capi::ReportTo report(err);
  SEEN_REQUIRE(key != nullptr, "key is NULL (seen_simhash_strings hashes without one)");
  std::optional<seen::SecretKey> secret;
  const seen_status keyed = Guard([&] { secret = seen::capi::OptionalKey(key, key_len); });
  if (keyed != SEEN_OK) return keyed;
  return SimhashOfStrings(__func__, data, offsets, weights, n, {seed, secret}, out);
}

uint32_t seen_simhash_distance(uint64_t a, uint64_t b) { return seen::Hamming(a, b); }

seen_status seen_simhash_idf_create(const uint8_t* data, const uint64_t* offsets,
                                    const float* weights, size_t n, float default_weight,
                                    seen_simhash_idf** out, seen_error* err) {
  const seen::capi::ReportTo report(err);
  SEEN_REQUIRE((offsets != nullptr && weights != nullptr) || n == 0, "offsets or weights is NULL");
  SEEN_REQUIRE(data != nullptr || n == 0 || offsets[n] == offsets[0], "data is NULL");
  return CreateInto<seen_simhash_idf>(out, [&] {
    return seen::IdfTable(data, offsets, weights, n, default_weight);
  });
}

void seen_simhash_idf_free(seen_simhash_idf* idf) { delete idf; }

seen_status seen_simhash_index_create(uint32_t max_k, seen_simhash_index** out, seen_error* err) {
  const seen::capi::ReportTo report(err);
  return CreateInto<seen_simhash_index>(out, [&] { return seen::SimhashIndex(max_k); });
}

void seen_simhash_index_free(seen_simhash_index* index) { delete index; }

void seen_simhash_index_last_error(const seen_simhash_index* index, seen_error* err) { seen::capi::CopyLastError(index, err); }

seen_status seen_simhash_index_add(seen_simhash_index* index, const uint64_t* fingerprints,
                                   const uint64_t* ids, size_t n) {
  const seen::capi::ReportTo report(index);
  SEEN_REQUIRE(index != nullptr, "index is NULL");
  SEEN_REQUIRE((fingerprints != nullptr && ids != nullptr) || n == 0, "fingerprints or ids is NULL");
  return Guard([&] { index->index.Add(fingerprints, ids, n); });
}

seen_status seen_simhash_index_remove(seen_simhash_index* index, const uint64_t* ids, size_t n,
                                      uint64_t* removed) {
  const seen::capi::ReportTo report(index);
  SEEN_REQUIRE(index != nullptr, "index is NULL");
  SEEN_REQUIRE(ids != nullptr || n == 0, "ids is NULL");
  return Guard([&] {
    const uint64_t count = index->index.Remove(ids, n);
    if (removed != nullptr) *removed = count;
  });
}

seen_status seen_simhash_index_build(seen_simhash_index* index) {
  const seen::capi::ReportTo report(index);
  SEEN_REQUIRE(index != nullptr, "index is NULL");
  return Guard([&] { index->index.Build(); });
}

seen_status seen_simhash_index_query(const seen_simhash_index* index, uint64_t fingerprint,
                                     uint32_t k, uint64_t* ids, uint32_t* distances, size_t cap,
                                     size_t* found) {
  const seen::capi::ReportTo report(index);
  SEEN_REQUIRE(index != nullptr && found != nullptr, "index or found is NULL");
  SEEN_REQUIRE(ids != nullptr || cap == 0, "ids is NULL");
  bool truncated = false;
  const seen_status status = Guard([&] {
    const auto matches = index->index.QueryOrdered(fingerprint, k);
    *found = matches.size();
    CopyOut(matches, std::min(cap, matches.size()), ids, distances);
    truncated = matches.size() > cap;
  });
  if (status != SEEN_OK || !truncated) return status;
  return Fail(SEEN_ERR_BUFFER_TOO_SMALL, "seen_simhash_index_query: " + std::to_string(*found) +
                                             " matches, cap is " + std::to_string(cap));
}

seen_status seen_simhash_index_any(const seen_simhash_index* index, const uint64_t* fingerprints,
                                   size_t n, uint32_t k, uint8_t* out) {
  const seen::capi::ReportTo report(index);
  SEEN_REQUIRE(index != nullptr, "index is NULL");
  SEEN_REQUIRE((fingerprints != nullptr && out != nullptr) || n == 0, "fingerprints or out is NULL");
  return Guard([&] { index->index.AnyMany(fingerprints, n, k, out); });
}

seen_status seen_simhash_index_query_batch(const seen_simhash_index* index,
                                           const uint64_t* fingerprints, size_t n, uint32_t k,
                                           uint64_t* offsets, uint64_t* ids, uint32_t* distances,
                                           size_t cap) {
  const seen::capi::ReportTo report(index);
  SEEN_REQUIRE(index != nullptr && offsets != nullptr, "index or offsets is NULL");
  SEEN_REQUIRE(fingerprints != nullptr || n == 0, "fingerprints is NULL");
  SEEN_REQUIRE(ids != nullptr || cap == 0, "ids is NULL");
  bool truncated = false;
  const seen_status status = Guard([&] {
    const auto all = index->index.QueryOrderedMany(fingerprints, n, k, offsets);
    truncated = all.size() > cap;
    if (!truncated) CopyOut(all, all.size(), ids, distances);
  });
  if (status != SEEN_OK || !truncated) return status;
  return Fail(SEEN_ERR_BUFFER_TOO_SMALL, "seen_simhash_index_query_batch: " + std::to_string(offsets[n]) +
                                             " matches, cap is " + std::to_string(cap));
}

seen_status seen_simhash_index_clusters(const seen_simhash_index* index, uint32_t k, uint64_t* ids,
                                        uint32_t* groups, size_t cap, size_t* count) {
  const seen::capi::ReportTo report(index);
  SEEN_REQUIRE(index != nullptr && count != nullptr, "index or count is NULL");
  SEEN_REQUIRE((ids != nullptr && groups != nullptr) || cap == 0, "ids or groups is NULL");
  const uint64_t size = index->index.size();
  *count = static_cast<size_t>(size);
  if (cap < size) {
    return Fail(SEEN_ERR_BUFFER_TOO_SMALL, "seen_simhash_index_clusters: the index holds " +
                                               std::to_string(size) + " pairs, cap is " + std::to_string(cap));
  }
  return Guard([&] {
    const std::vector<uint32_t> group = index->index.Clusters(k);
    const uint64_t* pair_ids = index->index.Ids();
    for (size_t i = 0; i < group.size(); ++i) {
      ids[i] = pair_ids[i];
      groups[i] = group[i];
    }
  });
}

seen_status seen_simhash_index_get_info(const seen_simhash_index* index,
                                        seen_simhash_index_info* info) {
  const seen::capi::ReportTo report(index);
  SEEN_REQUIRE(index != nullptr && info != nullptr, "index or info is NULL");
  SEEN_REQUIRE(info->size >= sizeof(size_t), "info->size is not set");
  return Guard([&] {
    const seen::SimhashIndex& i = index->index;
    const seen_simhash_index_info full{sizeof full, i.size(), i.max_k(), i.read_only() ? 1u : 0u, i.bytes()};
    const size_t size = std::min(info->size, sizeof full);
    std::memcpy(info, &full, size);
    info->size = size;
  });
}

seen_status seen_simhash_index_serialize(const seen_simhash_index* index, uint8_t* buf, size_t cap,
                                         size_t* written) {
  const seen::capi::ReportTo report(index);
  SEEN_REQUIRE(index != nullptr && written != nullptr, "index or written is NULL");
  return seen::capi::SerializeInto(__func__, index->index, buf, cap, written);
}

seen_status seen_simhash_index_deserialize(const uint8_t* buf, size_t len, seen_simhash_index** out,
                                           seen_error* err) {
  const seen::capi::ReportTo report(err);
  SEEN_REQUIRE(buf != nullptr || len == 0, "buf is NULL");
  return CreateInto<seen_simhash_index>(out, [&] { return seen::DeserializeSimhashIndex(buf, len); });
}

seen_status seen_simhash_index_view(const uint8_t* buf, size_t len, uint32_t flags,
                                    seen_simhash_index** out, seen_error* err) {
  const seen::capi::ReportTo report(err);
  SEEN_REQUIRE(buf != nullptr || len == 0, "buf is NULL");
  SEEN_REQUIRE((flags & ~SEEN_OPEN_NO_VERIFY) == 0, "flags may only hold SEEN_OPEN_NO_VERIFY");
  return CreateInto<seen_simhash_index>(out, [&] {
    return seen::ViewSimhashIndex(buf, len, (flags & SEEN_OPEN_NO_VERIFY) == 0);
  });
}

seen_status seen_simhash_index_save(const seen_simhash_index* index, const char* path) {
  const seen::capi::ReportTo report(index);
  SEEN_REQUIRE(index != nullptr && path != nullptr, "index or path is NULL");
  return Guard([&] { seen::Save(index->index, path); });
}

seen_status seen_simhash_index_open(const char* path, uint32_t flags, seen_simhash_index** out,
                                    seen_error* err) {
  const seen::capi::ReportTo report(err);
  SEEN_REQUIRE(path != nullptr, "path is NULL");
  SEEN_REQUIRE((flags & ~SEEN_OPEN_NO_VERIFY) == SEEN_OPEN_READ_ONLY,
               "flags need SEEN_OPEN_READ_ONLY, optionally with SEEN_OPEN_NO_VERIFY");
  return CreateInto<seen_simhash_index>(out, [&] {
    return seen::OpenSimhashIndex(path, (flags & SEEN_OPEN_NO_VERIFY) == 0);
  });
}

}  // extern "C"
