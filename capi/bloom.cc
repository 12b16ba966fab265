// The C shim of the blocked Bloom filter: checks arguments and calls core/bloom.
#include <algorithm>
#include <cstring>
#include <string>

#include "capi/seen.h"
#include "capi/shim.h"
#include "core/bloom.h"
#include "core/bloom_codec.h"
#include "core/defaults.h"
#include "core/sizing.h"

static_assert(SEEN_DEFAULT_FPR == seen::defaults::kFpr, "seen.h and the core default one rate");

struct seen_bloom {
  seen::Bloom bloom;
  mutable seen::capi::ErrorSlot error{};  // its last failure (report.h)
};

using seen::capi::CreateInto;
using seen::capi::Fail;
using seen::capi::Guard;

extern "C" {

seen_status seen_bloom_size_for(uint64_t expected_items, double fpr, uint64_t* bytes,
                                uint32_t* k, seen_error* err) {
  const seen::capi::ReportTo report(err);
  SEEN_REQUIRE(bytes != nullptr && k != nullptr, "bytes or k is NULL");
  return Guard([&] {
    const seen::Sizing sizing = seen::SizeFor(expected_items, fpr);
    *bytes = sizing.blocks * seen::kBlockBytes;
    *k = sizing.k;
  });
}

seen_status seen_bloom_predict_fpr(uint64_t expected_items, uint64_t bytes, double* fpr,
                                   uint32_t* k, seen_error* err) {
  const seen::capi::ReportTo report(err);
  SEEN_REQUIRE(fpr != nullptr, "fpr is NULL");
  return Guard([&] {
    const uint64_t blocks = seen::BlocksForBytes(bytes);
    const uint32_t best_k = seen::BestK(expected_items, blocks);
    *fpr = seen::PredictFpr(static_cast<double>(expected_items), blocks, best_k);
    if (k != nullptr) *k = best_k;
  });
}

seen_status seen_bloom_create(uint64_t expected_items, double fpr, uint64_t seed,
                              seen_bloom** out, seen_error* err) {
  const seen::capi::ReportTo report(err);
  return CreateInto<seen_bloom>(out, [&] { return seen::Bloom::Create(expected_items, fpr, seed); });
}

seen_status seen_bloom_create_keyed(uint64_t expected_items, double fpr, const uint8_t* key,
                                    size_t key_len, seen_bloom** out, seen_error* err) {
  const seen::capi::ReportTo report(err);
  return CreateInto<seen_bloom>(out, [&] {
    return seen::Bloom::Create(expected_items, fpr, 0, seen::SecretKey::FromBytes(key, key_len));
  });
}

seen_status seen_bloom_create_bytes(uint64_t expected_items, uint64_t bytes, uint64_t seed,
                                    seen_bloom** out, seen_error* err) {
  const seen::capi::ReportTo report(err);
  return CreateInto<seen_bloom>(out, [&] { return seen::Bloom::CreateBytes(expected_items, bytes, seed); });
}

seen_status seen_bloom_copy(const seen_bloom* f, seen_bloom** out) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr, "filter is NULL");
  return CreateInto<seen_bloom>(out, [&] { return f->bloom.Copy(); });
}

void seen_bloom_free(seen_bloom* f) { delete f; }

void seen_bloom_last_error(const seen_bloom* f, seen_error* err) { seen::capi::CopyLastError(f, err); }

seen_status seen_bloom_add_u64(seen_bloom* f, const uint64_t* ids, size_t n) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr, "filter is NULL");
  SEEN_REQUIRE(ids != nullptr || n == 0, "ids is NULL");
  return Guard([&] { f->bloom.AddU64(ids, n); });
}

seen_status seen_bloom_contains_u64(const seen_bloom* f, const uint64_t* ids, size_t n,
                                    uint8_t* out) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr, "filter is NULL");
  SEEN_REQUIRE((ids != nullptr && out != nullptr) || n == 0, "ids or out is NULL");
  return Guard([&] { f->bloom.ContainsU64(ids, n, out); });
}

seen_status seen_bloom_add_keys(seen_bloom* f, const uint8_t* data, const uint64_t* offsets,
                                size_t n) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr, "filter is NULL");
  SEEN_REQUIRE(offsets != nullptr || n == 0, "offsets is NULL");
  SEEN_REQUIRE(data != nullptr || n == 0 || offsets[n] == offsets[0], "data is NULL");
  return Guard([&] { f->bloom.AddKeys(data, offsets, n); });
}

seen_status seen_bloom_contains_keys(const seen_bloom* f, const uint8_t* data,
                                     const uint64_t* offsets, size_t n, uint8_t* out) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr, "filter is NULL");
  SEEN_REQUIRE((offsets != nullptr && out != nullptr) || n == 0, "offsets or out is NULL");
  SEEN_REQUIRE(data != nullptr || n == 0 || offsets[n] == offsets[0], "data is NULL");
  return Guard([&] { f->bloom.ContainsKeys(data, offsets, n, out); });
}

seen_status seen_bloom_set_exclusive_adds(seen_bloom* f, int exclusive) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr, "filter is NULL");
  f->bloom.set_exclusive_adds(exclusive != 0);
  return SEEN_OK;
}

seen_status seen_bloom_add_one_u64(seen_bloom* f, uint64_t id, uint8_t* was_present) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr, "filter is NULL");
  return Guard([&] {
    const bool present = f->bloom.PutU64(id);
    if (was_present != nullptr) *was_present = present ? 1 : 0;
  });
}

seen_status seen_bloom_add_one_key(seen_bloom* f, const void* key, size_t len,
                               uint8_t* was_present) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr, "filter is NULL");
  SEEN_REQUIRE(key != nullptr || len == 0, "key is NULL");
  return Guard([&] {
    const bool present = f->bloom.PutKey(key, len);
    if (was_present != nullptr) *was_present = present ? 1 : 0;
  });
}

int seen_bloom_contains_one_u64(const seen_bloom* f, uint64_t id) {
  if (f == nullptr) return Fail(SEEN_ERR_INVALID_ARGUMENT, "seen_bloom_contains_one_u64: filter is NULL"), -1;
  return f->bloom.TestU64(id) ? 1 : 0;
}

int seen_bloom_contains_one_key(const seen_bloom* f, const void* key, size_t len) {
  if (f == nullptr || (key == nullptr && len > 0)) {
    return Fail(SEEN_ERR_INVALID_ARGUMENT, "seen_bloom_contains_one_key: filter or key is NULL"), -1;
  }
  return f->bloom.TestKey(key, len) ? 1 : 0;
}

seen_status seen_bloom_merge(seen_bloom* dst, const seen_bloom* src) {
  const seen::capi::ReportTo report(dst);
  SEEN_REQUIRE(dst != nullptr && src != nullptr, "dst or src is NULL");
  return Guard([&] { dst->bloom.Merge(src->bloom); });
}

seen_status seen_bloom_intersect(seen_bloom* dst, const seen_bloom* src) {
  const seen::capi::ReportTo report(dst);
  SEEN_REQUIRE(dst != nullptr && src != nullptr, "dst or src is NULL");
  return Guard([&] { dst->bloom.Intersect(src->bloom); });
}

seen_status seen_bloom_covers(const seen_bloom* a, const seen_bloom* b, int* covers) {
  const seen::capi::ReportTo report(a);
  SEEN_REQUIRE(a != nullptr && b != nullptr && covers != nullptr, "a, b or covers is NULL");
  return Guard([&] { *covers = a->bloom.Covers(b->bloom) ? 1 : 0; });
}

seen_status seen_bloom_blocks_of_u64(const seen_bloom* f, const uint64_t* ids, size_t n,
                                     uint64_t* blocks) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr, "filter is NULL");
  SEEN_REQUIRE((ids != nullptr && blocks != nullptr) || n == 0, "ids or blocks is NULL");
  return Guard([&] { f->bloom.BlocksOfU64(ids, n, blocks); });
}

seen_status seen_bloom_blocks_of_keys(const seen_bloom* f, const uint8_t* data,
                                      const uint64_t* offsets, size_t n, uint64_t* blocks) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr, "filter is NULL");
  SEEN_REQUIRE((offsets != nullptr && blocks != nullptr) || n == 0, "offsets or blocks is NULL");
  SEEN_REQUIRE(data != nullptr || n == 0 || offsets[n] == offsets[0], "data is NULL");
  return Guard([&] { f->bloom.BlocksOfKeys(data, offsets, n, blocks); });
}

seen_status seen_bloom_read_blocks(const seen_bloom* f, uint64_t first, uint64_t count,
                                   uint8_t* out) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr, "filter is NULL");
  SEEN_REQUIRE(out != nullptr || count == 0, "out is NULL");
  const uint64_t blocks = f->bloom.params().blocks;
  SEEN_REQUIRE(first <= blocks && count <= blocks - first, "the block range is outside the filter");
  if (count != 0) {
    std::memcpy(out, f->bloom.bytes() + first * seen::kBlockBytes, count * seen::kBlockBytes);
  }
  return SEEN_OK;
}

seen_status seen_bloom_or_blocks(seen_bloom* f, uint64_t first, uint64_t count,
                                 const uint8_t* blocks) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr, "filter is NULL");
  SEEN_REQUIRE(blocks != nullptr || count == 0, "blocks is NULL");
  return Guard([&] { f->bloom.OrBlocks(first, count, blocks); });
}

seen_status seen_bloom_clear(seen_bloom* f) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr, "filter is NULL");
  return Guard([&] { f->bloom.Clear(); });
}

seen_status seen_bloom_get_info(const seen_bloom* f, seen_bloom_info* info) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr && info != nullptr, "filter or info is NULL");
  SEEN_REQUIRE(info->size >= sizeof(size_t), "info->size is not set");
  const seen::BloomParams& p = f->bloom.params();
  seen_bloom_info full{sizeof(seen_bloom_info), p.bytes(), p.blocks, p.k,
                       f->bloom.read_only() ? 1u : 0u, p.seed, p.expected_items, p.target_fpr,
                       p.key ? 1u : 0u, 0};
  const size_t size = std::min(info->size, sizeof full);
  std::memcpy(info, &full, size);
  info->size = size;
  return SEEN_OK;
}

seen_status seen_bloom_get_blocks(const seen_bloom* f, const uint8_t** blocks) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr && blocks != nullptr, "filter or blocks is NULL");
  *blocks = f->bloom.bytes();
  return SEEN_OK;
}

seen_status seen_bloom_get_stats(const seen_bloom* f, seen_bloom_stats* stats) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr && stats != nullptr, "filter or stats is NULL");
  SEEN_REQUIRE(stats->size >= sizeof(size_t), "stats->size is not set");
  const seen::BloomStats s = f->bloom.Stats();
  seen_bloom_stats full{sizeof(seen_bloom_stats), s.fill_ratio, s.approx_items, s.predicted_fpr};
  const size_t size = std::min(stats->size, sizeof full);
  std::memcpy(stats, &full, size);
  stats->size = size;
  return SEEN_OK;
}

seen_status seen_bloom_serialize(const seen_bloom* f, uint8_t* buf, size_t cap,
                                 size_t* written) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr && written != nullptr, "filter or written is NULL");
  return seen::capi::SerializeInto(__func__, f->bloom, buf, cap, written);
}

seen_status seen_bloom_deserialize(const uint8_t* buf, size_t len, seen_bloom** out,
                                   seen_error* err) {
  const seen::capi::ReportTo report(err);
  SEEN_REQUIRE(buf != nullptr || len == 0, "buf is NULL");
  return CreateInto<seen_bloom>(out, [&] { return seen::Deserialize(buf, len); });
}

seen_status seen_bloom_deserialize_keyed(const uint8_t* buf, size_t len, const uint8_t* key,
                                         size_t key_len, seen_bloom** out, seen_error* err) {
  const seen::capi::ReportTo report(err);
  SEEN_REQUIRE(buf != nullptr || len == 0, "buf is NULL");
  return CreateInto<seen_bloom>(out, [&] {
    return seen::Deserialize(buf, len, seen::SecretKey::FromBytes(key, key_len));
  });
}

seen_status seen_bloom_view(const uint8_t* buf, size_t len, uint32_t flags, seen_bloom** out,
                            seen_error* err) {
  const seen::capi::ReportTo report(err);
  SEEN_REQUIRE(buf != nullptr || len == 0, "buf is NULL");
  SEEN_REQUIRE((flags & ~SEEN_OPEN_NO_VERIFY) == 0, "flags may only hold SEEN_OPEN_NO_VERIFY");
  return CreateInto<seen_bloom>(out, [&] {
    return seen::View(buf, len, (flags & SEEN_OPEN_NO_VERIFY) == 0);
  });
}

seen_status seen_bloom_save(const seen_bloom* f, const char* path) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr && path != nullptr, "filter or path is NULL");
  return Guard([&] { seen::Save(f->bloom, path); });
}

seen_status seen_bloom_open(const char* path, uint32_t flags, seen_bloom** out, seen_error* err) {
  return seen_bloom_open_keyed(path, flags, nullptr, 0, out, err);
}

seen_status seen_bloom_open_keyed(const char* path, uint32_t flags, const uint8_t* key,
                                  size_t key_len, seen_bloom** out, seen_error* err) {
  const seen::capi::ReportTo report(err);
  SEEN_REQUIRE(path != nullptr, "path is NULL");
  SEEN_REQUIRE(seen::capi::OpenFlagsAre(flags, SEEN_OPEN_WRITE_IN_PLACE),
               "flags need SEEN_OPEN_READ_ONLY or SEEN_OPEN_WRITE_IN_PLACE, optionally | SEEN_OPEN_NO_VERIFY");
  return CreateInto<seen_bloom>(out, [&] {
    return seen::Open(path, (flags & SEEN_OPEN_WRITE_IN_PLACE) != 0, (flags & SEEN_OPEN_NO_VERIFY) == 0,
                      seen::capi::OptionalKey(key, key_len));
  });
}

seen_status seen_bloom_sync(seen_bloom* f) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr, "filter is NULL");
  return Guard([&] { f->bloom.Sync(); });
}

}  // extern "C"
