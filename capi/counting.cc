// The C shim of the counting filter: checks arguments and calls core/counting.
#include <algorithm>
#include <cstring>
#include <string>

#include "capi/seen.h"
#include "capi/shim.h"
#include "core/counting.h"
#include "core/counting_codec.h"

struct seen_counting {
  seen::Counting counting;
  mutable seen::capi::ErrorSlot error{};  // its last failure (report.h)
};

using seen::capi::CreateInto;
using seen::capi::Fail;
using seen::capi::Guard;

namespace {

seen_status NotFound(const char* function, uint64_t absent) {
  return Fail(SEEN_ERR_NOT_FOUND, std::string(function) + ": " + std::to_string(absent) +
                                      " key(s) were certainly absent and were not removed");
}

}  // namespace

extern "C" {

seen_status seen_counting_create(uint64_t expected_items, double fpr, uint64_t seed,
                                 seen_counting** out, seen_error* err) {
  const seen::capi::ReportTo report(err);
  return CreateInto<seen_counting>(out, [&] { return seen::Counting::Create(expected_items, fpr, seed); });
}

seen_status seen_counting_create_keyed(uint64_t expected_items, double fpr, const uint8_t* key,
                                       size_t key_len, seen_counting** out, seen_error* err) {
  const seen::capi::ReportTo report(err);
  return CreateInto<seen_counting>(out, [&] {
    return seen::Counting::Create(expected_items, fpr, 0, seen::SecretKey::FromBytes(key, key_len));
  });
}

void seen_counting_free(seen_counting* f) { delete f; }

void seen_counting_last_error(const seen_counting* f, seen_error* err) { seen::capi::CopyLastError(f, err); }

seen_status seen_counting_add_u64(seen_counting* f, const uint64_t* ids, size_t n) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr, "filter is NULL");
  SEEN_REQUIRE(ids != nullptr || n == 0, "ids is NULL");
  return Guard([&] { f->counting.AddU64(ids, n); });
}

seen_status seen_counting_remove_u64(seen_counting* f, const uint64_t* ids, size_t n,
                                     uint8_t* removed) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr, "filter is NULL");
  SEEN_REQUIRE(ids != nullptr || n == 0, "ids is NULL");
  uint64_t absent = 0;
  const seen_status status = Guard([&] { absent = f->counting.RemoveU64(ids, n, removed); });
  return status == SEEN_OK && absent > 0 ? NotFound(__func__, absent) : status;
}

seen_status seen_counting_contains_u64(const seen_counting* f, const uint64_t* ids, size_t n,
                                       uint8_t* out) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr, "filter is NULL");
  SEEN_REQUIRE((ids != nullptr && out != nullptr) || n == 0, "ids or out is NULL");
  return Guard([&] { f->counting.ContainsU64(ids, n, out); });
}

seen_status seen_counting_add_keys(seen_counting* f, const uint8_t* data, const uint64_t* offsets,
                                   size_t n) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr, "filter is NULL");
  SEEN_REQUIRE(offsets != nullptr || n == 0, "offsets is NULL");
  SEEN_REQUIRE(data != nullptr || n == 0 || offsets[n] == offsets[0], "data is NULL");
  return Guard([&] { f->counting.AddKeys(data, offsets, n); });
}

seen_status seen_counting_remove_keys(seen_counting* f, const uint8_t* data,
                                      const uint64_t* offsets, size_t n, uint8_t* removed) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr, "filter is NULL");
  SEEN_REQUIRE(offsets != nullptr || n == 0, "offsets is NULL");
  SEEN_REQUIRE(data != nullptr || n == 0 || offsets[n] == offsets[0], "data is NULL");
  uint64_t absent = 0;
  const seen_status status = Guard([&] { absent = f->counting.RemoveKeys(data, offsets, n, removed); });
  return status == SEEN_OK && absent > 0 ? NotFound(__func__, absent) : status;
}

seen_status seen_counting_contains_keys(const seen_counting* f, const uint8_t* data,
                                        const uint64_t* offsets, size_t n, uint8_t* out) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr, "filter is NULL");
  SEEN_REQUIRE((offsets != nullptr && out != nullptr) || n == 0, "offsets or out is NULL");
  SEEN_REQUIRE(data != nullptr || n == 0 || offsets[n] == offsets[0], "data is NULL");
  return Guard([&] { f->counting.ContainsKeys(data, offsets, n, out); });
}

seen_status seen_counting_add_one_u64(seen_counting* f, uint64_t id) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr, "filter is NULL");
  return Guard([&] { f->counting.PutU64(id); });
}

seen_status seen_counting_add_one_key(seen_counting* f, const void* key, size_t len) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr, "filter is NULL");
  SEEN_REQUIRE(key != nullptr || len == 0, "key is NULL");
  return Guard([&] { f->counting.PutKey(key, len); });
}

seen_status seen_counting_remove_one_u64(seen_counting* f, uint64_t id) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr, "filter is NULL");
  bool removed = false;
  const seen_status status = Guard([&] { removed = f->counting.DeleteU64(id); });
  return status == SEEN_OK && !removed ? NotFound(__func__, 1) : status;
}

seen_status seen_counting_remove_one_key(seen_counting* f, const void* key, size_t len) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr, "filter is NULL");
  SEEN_REQUIRE(key != nullptr || len == 0, "key is NULL");
  bool removed = false;
  const seen_status status = Guard([&] { removed = f->counting.DeleteKey(key, len); });
  return status == SEEN_OK && !removed ? NotFound(__func__, 1) : status;
}

int seen_counting_contains_one_u64(const seen_counting* f, uint64_t id) {
  if (f == nullptr) return Fail(SEEN_ERR_INVALID_ARGUMENT, "seen_counting_contains_one_u64: filter is NULL"), -1;
  return f->counting.TestU64(id) ? 1 : 0;
}

int seen_counting_contains_one_key(const seen_counting* f, const void* key, size_t len) {
  if (f == nullptr || (key == nullptr && len > 0)) {
    return Fail(SEEN_ERR_INVALID_ARGUMENT, "seen_counting_contains_one_key: filter or key is NULL"), -1;
  }
  return f->counting.TestKey(key, len) ? 1 : 0;
}

seen_status seen_counting_clear(seen_counting* f) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr, "filter is NULL");
  return Guard([&] { f->counting.Clear(); });
}

seen_status seen_counting_get_info(const seen_counting* f, seen_counting_info* info) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr && info != nullptr, "filter or info is NULL");
  SEEN_REQUIRE(info->size >= sizeof(size_t), "info->size is not set");
  const seen::CountingParams& p = f->counting.params();
  const seen_counting_info full{sizeof(seen_counting_info), p.bytes(), p.blocks, p.k,
                                f->counting.read_only() ? 1u : 0u, p.seed, p.expected_items,
                                p.target_fpr, seen::kCounterBits, p.key ? 1u : 0u};
  const size_t size = std::min(info->size, sizeof full);
  std::memcpy(info, &full, size);
  info->size = size;
  return SEEN_OK;
}

seen_status seen_counting_get_presence_blocks(const seen_counting* f, const uint8_t** blocks) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr && blocks != nullptr, "filter or blocks is NULL");
  *blocks = f->counting.presence();
  return SEEN_OK;
}

seen_status seen_counting_get_stats(const seen_counting* f, seen_counting_stats* stats) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr && stats != nullptr, "filter or stats is NULL");
  SEEN_REQUIRE(stats->size >= sizeof(size_t), "stats->size is not set");
  const seen::CountingStats s = f->counting.Stats();
  const seen_counting_stats full{sizeof(seen_counting_stats), s.approx_items, s.saturated,
                                 s.fill_ratio, s.predicted_fpr};
  const size_t size = std::min(stats->size, sizeof full);
  std::memcpy(stats, &full, size);
  stats->size = size;
  return SEEN_OK;
}

seen_status seen_counting_serialize(const seen_counting* f, uint8_t* buf, size_t cap,
                                    size_t* written) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr && written != nullptr, "filter or written is NULL");
  return seen::capi::SerializeInto(__func__, f->counting, buf, cap, written);
}

seen_status seen_counting_deserialize(const uint8_t* buf, size_t len, seen_counting** out,
                                      seen_error* err) {
  const seen::capi::ReportTo report(err);
  SEEN_REQUIRE(buf != nullptr || len == 0, "buf is NULL");
  return CreateInto<seen_counting>(out, [&] { return seen::DeserializeCounting(buf, len); });
}

seen_status seen_counting_deserialize_keyed(const uint8_t* buf, size_t len, const uint8_t* key,
                                            size_t key_len, seen_counting** out, seen_error* err) {
  const seen::capi::ReportTo report(err);
  SEEN_REQUIRE(buf != nullptr || len == 0, "buf is NULL");
  return CreateInto<seen_counting>(out, [&] {
    return seen::DeserializeCounting(buf, len, seen::SecretKey::FromBytes(key, key_len));
  });
}

seen_status seen_counting_view(const uint8_t* buf, size_t len, uint32_t flags, seen_counting** out,
                               seen_error* err) {
  const seen::capi::ReportTo report(err);
  SEEN_REQUIRE(buf != nullptr || len == 0, "buf is NULL");
  SEEN_REQUIRE((flags & ~SEEN_OPEN_NO_VERIFY) == 0, "flags may only hold SEEN_OPEN_NO_VERIFY");
  return CreateInto<seen_counting>(out, [&] {
    return seen::ViewCounting(buf, len, (flags & SEEN_OPEN_NO_VERIFY) == 0);
  });
}

seen_status seen_counting_save(const seen_counting* f, const char* path) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr && path != nullptr, "filter or path is NULL");
  return Guard([&] { seen::Save(f->counting, path); });
}

seen_status seen_counting_open(const char* path, uint32_t flags, seen_counting** out,
                               seen_error* err) {
  return seen_counting_open_keyed(path, flags, nullptr, 0, out, err);
}

seen_status seen_counting_open_keyed(const char* path, uint32_t flags, const uint8_t* key,
                                     size_t key_len, seen_counting** out, seen_error* err) {
  const seen::capi::ReportTo report(err);
  SEEN_REQUIRE(path != nullptr, "path is NULL");
  SEEN_REQUIRE(seen::capi::OpenFlagsAre(flags, SEEN_OPEN_WRITE_IN_PLACE),
               "flags need SEEN_OPEN_READ_ONLY or SEEN_OPEN_WRITE_IN_PLACE, optionally | SEEN_OPEN_NO_VERIFY");
  return CreateInto<seen_counting>(out, [&] {
    return seen::OpenCounting(path, (flags & SEEN_OPEN_WRITE_IN_PLACE) != 0,
                              (flags & SEEN_OPEN_NO_VERIFY) == 0, seen::capi::OptionalKey(key, key_len));
  });
}

seen_status seen_counting_sync(seen_counting* f) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr, "filter is NULL");
  return Guard([&] { f->counting.Sync(); });
}

}  // extern "C"
