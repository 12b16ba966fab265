// The C shim of the scalable filter: checks arguments and calls core/scalable.
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>

#include "capi/seen.h"
#include "capi/shim.h"
#include "capi/versioned.h"
#include "core/error.h"
#include "core/scalable.h"
#include "core/scalable_codec.h"

struct seen_scalable {
  seen::Scalable scalable;
  mutable seen::capi::ErrorSlot error{};  // its last failure (report.h)
};

using seen::capi::CreateInto;
using seen::capi::Fail;
using seen::capi::Guard;

namespace {

// Zero (unset) fields take the core's defaults, as any field added later will.
seen::ScalableOptions OptionsFrom(const seen_scalable_options* given) {
  // The first published layout ended with seed; fields added later go after it.
  const auto opts = seen::capi::ReadVersioned(given, offsetof(seen_scalable_options, key), "scalable options");
  seen::ScalableOptions o;
  o.initial_capacity = opts.initial_capacity;
  o.fpr = opts.fpr;
  o.growth = opts.growth;
  o.tightening = opts.tightening;
  o.seed = opts.seed;
  o.key = seen::capi::OptionalKey(opts.key, opts.key_len);
  return seen::WithDefaultsForZeros(o);
}

}  // namespace

extern "C" {

seen_status seen_scalable_create(const seen_scalable_options* opts, seen_scalable** out,
                                 seen_error* err) {
  const seen::capi::ReportTo report(err);
  return CreateInto<seen_scalable>(out, [&] { return seen::Scalable::Create(OptionsFrom(opts)); });
}

void seen_scalable_free(seen_scalable* f) { delete f; }

void seen_scalable_last_error(const seen_scalable* f, seen_error* err) { seen::capi::CopyLastError(f, err); }

seen_status seen_scalable_add_u64(seen_scalable* f, const uint64_t* ids, size_t n) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr, "filter is NULL");
  SEEN_REQUIRE(ids != nullptr || n == 0, "ids is NULL");
  return Guard([&] { f->scalable.AddU64(ids, n); });
}

seen_status seen_scalable_contains_u64(const seen_scalable* f, const uint64_t* ids, size_t n,
                                       uint8_t* out) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr, "filter is NULL");
  SEEN_REQUIRE((ids != nullptr && out != nullptr) || n == 0, "ids or out is NULL");
  return Guard([&] { f->scalable.ContainsU64(ids, n, out); });
}

seen_status seen_scalable_add_keys(seen_scalable* f, const uint8_t* data, const uint64_t* offsets,
                                   size_t n) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr, "filter is NULL");
  SEEN_REQUIRE(offsets != nullptr || n == 0, "offsets is NULL");
  SEEN_REQUIRE(data != nullptr || n == 0 || offsets[n] == offsets[0], "data is NULL");
  return Guard([&] { f->scalable.AddKeys(data, offsets, n); });
}

seen_status seen_scalable_contains_keys(const seen_scalable* f, const uint8_t* data,
                                        const uint64_t* offsets, size_t n, uint8_t* out) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr, "filter is NULL");
  SEEN_REQUIRE((offsets != nullptr && out != nullptr) || n == 0, "offsets or out is NULL");
  SEEN_REQUIRE(data != nullptr || n == 0 || offsets[n] == offsets[0], "data is NULL");
  return Guard([&] { f->scalable.ContainsKeys(data, offsets, n, out); });
}

seen_status seen_scalable_add_one_u64(seen_scalable* f, uint64_t id, uint8_t* was_present) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr, "filter is NULL");
  return Guard([&] {
    const bool present = f->scalable.PutU64(id);
    if (was_present != nullptr) *was_present = present ? 1 : 0;
  });
}

seen_status seen_scalable_add_one_key(seen_scalable* f, const void* key, size_t len,
                                  uint8_t* was_present) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr, "filter is NULL");
  SEEN_REQUIRE(key != nullptr || len == 0, "key is NULL");
  return Guard([&] {
    const bool present = f->scalable.PutKey(key, len);
    if (was_present != nullptr) *was_present = present ? 1 : 0;
  });
}

int seen_scalable_contains_one_u64(const seen_scalable* f, uint64_t id) {
  if (f == nullptr) return Fail(SEEN_ERR_INVALID_ARGUMENT, "seen_scalable_contains_one_u64: filter is NULL"), -1;
  return f->scalable.TestU64(id) ? 1 : 0;
}

int seen_scalable_contains_one_key(const seen_scalable* f, const void* key, size_t len) {
  if (f == nullptr || (key == nullptr && len > 0)) {
    return Fail(SEEN_ERR_INVALID_ARGUMENT, "seen_scalable_contains_one_key: filter or key is NULL"), -1;
  }
  return f->scalable.TestKey(key, len) ? 1 : 0;
}

seen_status seen_scalable_get_info(const seen_scalable* f, seen_scalable_info* info) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr && info != nullptr, "filter or info is NULL");
  SEEN_REQUIRE(info->size >= sizeof(size_t), "info->size is not set");
  const seen::Scalable& s = f->scalable;
  const seen::ScalableOptions& o = s.options();
  const seen_scalable_info full{sizeof(seen_scalable_info), s.items(),
                                static_cast<uint32_t>(s.subs().size()), s.read_only() ? 1u : 0u,
                                s.bytes(), s.PredictedFpr(), o.initial_capacity, o.fpr, o.growth,
                                o.tightening, o.seed};
  const size_t size = std::min(info->size, sizeof full);
  std::memcpy(info, &full, size);
  info->size = size;
  return SEEN_OK;
}

seen_status seen_scalable_serialize(const seen_scalable* f, uint8_t* buf, size_t cap,
                                    size_t* written) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr && written != nullptr, "filter or written is NULL");
  return seen::capi::SerializeInto(__func__, f->scalable, buf, cap, written);
}

seen_status seen_scalable_deserialize(const uint8_t* buf, size_t len, seen_scalable** out,
                                      seen_error* err) {
  const seen::capi::ReportTo report(err);
  SEEN_REQUIRE(buf != nullptr || len == 0, "buf is NULL");
  return CreateInto<seen_scalable>(out, [&] { return seen::DeserializeScalable(buf, len); });
}

seen_status seen_scalable_deserialize_keyed(const uint8_t* buf, size_t len, const uint8_t* key,
                                            size_t key_len, seen_scalable** out, seen_error* err) {
  const seen::capi::ReportTo report(err);
  SEEN_REQUIRE(buf != nullptr || len == 0, "buf is NULL");
  return CreateInto<seen_scalable>(out, [&] {
    return seen::DeserializeScalable(buf, len, seen::SecretKey::FromBytes(key, key_len));
  });
}

seen_status seen_scalable_save(const seen_scalable* f, const char* path) {
  const seen::capi::ReportTo report(f);
  SEEN_REQUIRE(f != nullptr && path != nullptr, "filter or path is NULL");
  return Guard([&] { seen::Save(f->scalable, path); });
}

seen_status seen_scalable_open(const char* path, uint32_t flags, seen_scalable** out,
                               seen_error* err) {
  return seen_scalable_open_keyed(path, flags, nullptr, 0, out, err);
}

seen_status seen_scalable_open_keyed(const char* path, uint32_t flags, const uint8_t* key,
                                     size_t key_len, seen_scalable** out, seen_error* err) {
  const seen::capi::ReportTo report(err);
  SEEN_REQUIRE(path != nullptr, "path is NULL");
  SEEN_REQUIRE(seen::capi::OpenFlagsAre(flags, SEEN_OPEN_PRIVATE_COPY),
               "flags need SEEN_OPEN_READ_ONLY or SEEN_OPEN_PRIVATE_COPY, optionally | SEEN_OPEN_NO_VERIFY");
  return CreateInto<seen_scalable>(out, [&] {
    return seen::OpenScalable(path, (flags & SEEN_OPEN_PRIVATE_COPY) != 0,
                              (flags & SEEN_OPEN_NO_VERIFY) == 0, seen::capi::OptionalKey(key, key_len));
  });
}

}  // extern "C"
