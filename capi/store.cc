// The C shim of the exposure store: checks arguments and calls core/store.
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <optional>
#include <string>

#include "capi/seen.h"
#include "capi/shim.h"
#include "capi/versioned.h"
#include "capi/window_options.h"
#include "core/store.h"

struct seen_store {
  seen::Store store;
  mutable seen::capi::ErrorSlot error{};  // its last failure (report.h)
};

using seen::capi::CreateInto;
using seen::capi::Fail;
using seen::capi::Guard;

namespace {

// The first published layout ended with expected_users; fields added later go after it.
constexpr size_t kOldestStoreOptions = offsetof(seen_store_options, expected_users) + sizeof(uint64_t);

seen::StoreOptions StoreOptionsFrom(const seen_store_options* caller) {
  const seen_store_options read = seen::capi::ReadVersioned(caller, kOldestStoreOptions, "store options");
  const seen_store_options* opts = &read;
  if (opts->reserved != 0) {
    throw seen::Error(seen::Code::kInvalidArgument,
                      "store options: reserved is " + std::to_string(opts->reserved) + "; it must be 0");
  }
  seen::StoreOptions options;
  options.window = seen::capi::WindowParamsFrom(opts->window);
  // The core counts 0 as never; the C API keeps 0 for the default, the most common wish, and
  // spells never UINT32_MAX.
  options.idle_timeout = opts->idle_timeout == UINT32_MAX ? 0 : seen::IdleTimeoutOrDefault(opts->idle_timeout);
  options.max_bytes = opts->max_bytes;
  options.expected_users = seen::OrDefault(opts->expected_users, seen::defaults::kStoreExpectedUsers);
  return options;
}

}  // namespace

extern "C" {

seen_status seen_store_create(const seen_store_options* opts, seen_store** out, seen_error* err) {
  const seen::capi::ReportTo report(err);
  SEEN_REQUIRE(opts != nullptr, "opts is NULL");
  return CreateInto<seen_store>(out, [&] { return seen::Store(StoreOptionsFrom(opts)); });
}

void seen_store_free(seen_store* s) { delete s; }

void seen_store_last_error(const seen_store* s, seen_error* err) { seen::capi::CopyLastError(s, err); }

seen_status seen_store_filter(const seen_store* s, uint64_t user, const uint64_t* candidates,
                              size_t n, uint64_t now, uint8_t* out_unseen) {
  const seen::capi::ReportTo report(s);
  SEEN_REQUIRE(s != nullptr, "store is NULL");
  SEEN_REQUIRE((candidates != nullptr && out_unseen != nullptr) || n == 0,
               "candidates or out_unseen is NULL");
  SEEN_REQUIRE(now <= UINT32_MAX, "now is past 2^32 - 1 seconds");
  return Guard([&] { s->store.Filter(user, candidates, n, static_cast<uint32_t>(now), out_unseen); });
}

seen_status seen_store_mark(seen_store* s, uint64_t user, const uint64_t* items, size_t n,
                            uint64_t now) {
  const seen::capi::ReportTo report(s);
  SEEN_REQUIRE(s != nullptr, "store is NULL");
  SEEN_REQUIRE(items != nullptr || n == 0, "items is NULL");
  SEEN_REQUIRE(now <= UINT32_MAX, "now is past 2^32 - 1 seconds");
  return Guard([&] { s->store.Mark(user, items, n, static_cast<uint32_t>(now)); });
}

seen_status seen_store_take(seen_store* s, uint64_t user, const uint64_t* candidates, size_t n,
                            size_t want, uint64_t now, uint64_t* out_taken, size_t* out_count) {
  const seen::capi::ReportTo report(s);
  SEEN_REQUIRE(s != nullptr && out_count != nullptr, "store or out_count is NULL");
  SEEN_REQUIRE(candidates != nullptr || n == 0, "candidates is NULL");
  SEEN_REQUIRE(out_taken != nullptr || want == 0, "out_taken is NULL");
  SEEN_REQUIRE(now <= UINT32_MAX, "now is past 2^32 - 1 seconds");
  *out_count = 0;
  return Guard([&] {
    *out_count = s->store.Take(user, candidates, n, want, static_cast<uint32_t>(now), out_taken);
  });
}

seen_status seen_store_expire(seen_store* s, uint64_t now, uint64_t* dropped) {
  const seen::capi::ReportTo report(s);
  SEEN_REQUIRE(s != nullptr, "store is NULL");
  SEEN_REQUIRE(now <= UINT32_MAX, "now is past 2^32 - 1 seconds");
  return Guard([&] {
    const uint64_t count = s->store.Expire(static_cast<uint32_t>(now));
    if (dropped != nullptr) *dropped = count;
  });
}

seen_status seen_store_get_stats(const seen_store* s, seen_store_stats* stats) {
  const seen::capi::ReportTo report(s);
  SEEN_REQUIRE(s != nullptr && stats != nullptr, "store or stats is NULL");
  SEEN_REQUIRE(stats->size >= sizeof(size_t), "stats->size is not set");
  const seen::StoreStats st = s->store.Stats();
  const seen_store_stats full{sizeof(seen_store_stats), st.users, st.bytes, st.evictions,
                              st.expirations, st.users_grown, st.span_drops};
  const size_t size = std::min(stats->size, sizeof full);
  std::memcpy(stats, &full, size);
  stats->size = size;
  return SEEN_OK;
}

seen_status seen_store_get_saturation(const seen_store* s, uint64_t now,
                                      seen_store_saturation* sat) {
  const seen::capi::ReportTo report(s);
  SEEN_REQUIRE(s != nullptr && sat != nullptr, "store or sat is NULL");
  SEEN_REQUIRE(sat->size >= sizeof(size_t), "sat->size is not set");
  SEEN_REQUIRE(now <= UINT32_MAX, "now is past 2^32 - 1 seconds");
  return Guard([&] {
    const seen::StoreSaturation m = s->store.Saturation(static_cast<uint32_t>(now));
    const seen_store_saturation full{sizeof(seen_store_saturation), m.users, m.above_target,
                                     m.mean_fill, m.max_rate, m.span_limited};
    const size_t size = std::min(sat->size, sizeof full);
    std::memcpy(sat, &full, size);
    sat->size = size;
  });
}

seen_status seen_store_get_user_saturation(const seen_store* s, uint64_t user, uint64_t now,
                                           seen_window_saturation* sat) {
  const seen::capi::ReportTo report(s);
  SEEN_REQUIRE(s != nullptr && sat != nullptr, "store or sat is NULL");
  SEEN_REQUIRE(sat->size >= sizeof(size_t), "sat->size is not set");
  SEEN_REQUIRE(now <= UINT32_MAX, "now is past 2^32 - 1 seconds");
  return Guard([&] {
    const std::optional<seen::UserSaturation> m = s->store.SaturationOf(user, static_cast<uint32_t>(now));
    if (!m) throw seen::Error(seen::Code::kNotFound, "user " + std::to_string(user) + " is not in the store");
    seen::capi::FillWindowSaturation(s->store.options().window, m->window, m->bytes, sat);
  });
}

seen_status seen_store_get_window_info(const seen_store* s, seen_window_info* info) {
  const seen::capi::ReportTo report(s);
  SEEN_REQUIRE(s != nullptr, "store is NULL");
  return seen::capi::FillWindowInfo(s->store.options().window, info);
}

seen_status seen_store_save(const seen_store* s, const char* path) {
  const seen::capi::ReportTo report(s);
  SEEN_REQUIRE(s != nullptr && path != nullptr, "store or path is NULL");
  return Guard([&] { s->store.Save(path); });
}

seen_status seen_store_open(const char* path, uint32_t flags, seen_store** out, seen_error* err) {
  return seen_store_open_keyed(path, flags, nullptr, 0, out, err);
}

seen_status seen_store_open_keyed(const char* path, uint32_t flags, const uint8_t* key,
                                  size_t key_len, seen_store** out, seen_error* err) {
  const seen::capi::ReportTo report(err);
  SEEN_REQUIRE(path != nullptr, "path is NULL");
  SEEN_REQUIRE(seen::capi::OpenFlagsAre(flags, SEEN_OPEN_PRIVATE_COPY),
               "flags need SEEN_OPEN_READ_ONLY or SEEN_OPEN_PRIVATE_COPY, optionally | SEEN_OPEN_NO_VERIFY");
  return CreateInto<seen_store>(out, [&] {
    return seen::Store::Open(path, (flags & SEEN_OPEN_PRIVATE_COPY) != 0, (flags & SEEN_OPEN_NO_VERIFY) == 0,
                             seen::capi::OptionalKey(key, key_len));
  });
}

}  // extern "C"
