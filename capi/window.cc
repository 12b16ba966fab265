// The C shim of exposure windows: options to core sizing, and calls into core/window.
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <new>
#include <optional>
#include <string>

#include "capi/seen.h"
#include "capi/shim.h"
#include "capi/window_handle.h"
#include "capi/window_options.h"
#include "core/window_codec.h"

using seen::capi::Fail;
using seen::capi::Guard;

namespace {

// The caller's allocator, as the core takes it: the same three members in the same order.
const seen::WindowMemory* MemoryOf(const seen_allocator* allocator) {
  static_assert(sizeof(seen_allocator) == sizeof(seen::WindowMemory) &&
                offsetof(seen_allocator, free) == offsetof(seen::WindowMemory, free) &&
                offsetof(seen_allocator, opaque) == offsetof(seen::WindowMemory, opaque),
                "seen_allocator and seen::WindowMemory must agree");
  return reinterpret_cast<const seen::WindowMemory*>(allocator);
}

// Checks the allocator and out, then returns make(memory, out), which sets *out to a new
// window in the allocator's memory (the C++ heap for a NULL allocator) or fails.
template <class Make>
seen_status CreateWindowInto(const seen_allocator* allocator, seen_window** out, Make&& make) {
  SEEN_REQUIRE(allocator == nullptr || (allocator->alloc != nullptr && allocator->free != nullptr),
               "allocator lacks alloc or free");
  SEEN_REQUIRE(out != nullptr, "out is NULL");
  *out = nullptr;
  const seen::WindowMemory* memory = allocator == nullptr ? nullptr : MemoryOf(allocator);
  return Guard([&] { return make(memory, out); });
}

// A new window of opts at now (it has no growth yet).
seen_status Fresh(const seen_window_options* opts, uint64_t now, const seen::WindowMemory* memory,
                  seen_window** out) {
  const seen::Window made =
      seen::Window::Create(seen::capi::WindowParamsFrom(opts), static_cast<uint32_t>(now), memory);
  *out = seen::capi::NewWindow(made.params, memory, [&](uint8_t* state, seen::WindowGrowth*) {
    std::memcpy(state, made.state.data(), made.state.size());
  });
  return SEEN_OK;
}

// The window in buf, checked where it lies and copied once, into its handle. Bad bytes are
// refused with the status and message DeserializeWindow would throw, but without the throw:
// loading blobs it did not write, a caller meets refusals often (core/error.h).
seen_status Stored(const uint8_t* buf, size_t len, const std::optional<seen::SecretKey>& key,
                   const seen::WindowMemory* memory, seen_window** out) {
  seen::StoredWindow stored;
  if (const seen::Status found = seen::FindWindow(buf, len, key, &stored); !found.ok()) return Fail(found);
  *out = seen::capi::NewWindow(stored.params, memory, [&](uint8_t* state, seen::WindowGrowth* growth) {
    std::memcpy(state, stored.state, stored.params.state_bytes());
    if (growth != nullptr) growth->assign(stored.growth, stored.growth + stored.growth_size);
  });
  return SEEN_OK;
}

}  // namespace

extern "C" {

seen_status seen_window_create(const seen_window_options* opts, uint64_t now, seen_window** out,
                               seen_error* err) {
  const seen::capi::ReportTo report(err);
  SEEN_REQUIRE(now <= UINT32_MAX, "now is past 2^32 - 1 seconds");
  return CreateWindowInto(nullptr, out, [&](const seen::WindowMemory* memory, seen_window** made) {
    return Fresh(opts, now, memory, made);
  });
}

void seen_window_free(seen_window* w) {
  if (w != nullptr) seen::capi::DeleteWindow(w);
}

seen_status seen_window_create_with_allocator(const seen_window_options* opts, uint64_t now,
                                              const seen_allocator* allocator, seen_window** out,
                                              seen_error* err) {
  const seen::capi::ReportTo report(err);
  SEEN_REQUIRE(now <= UINT32_MAX, "now is past 2^32 - 1 seconds");
  return CreateWindowInto(allocator, out, [&](const seen::WindowMemory* memory, seen_window** made) {
    return Fresh(opts, now, memory, made);
  });
}

seen_status seen_window_deserialize_with_allocator(const uint8_t* buf, size_t len, const uint8_t* key,
                                                   size_t key_len, const seen_allocator* allocator,
                                                   seen_window** out, seen_error* err) {
  const seen::capi::ReportTo report(err);
  SEEN_REQUIRE(buf != nullptr || len == 0, "buf is NULL");
  return CreateWindowInto(allocator, out, [&](const seen::WindowMemory* memory, seen_window** made) {
    std::optional<seen::SecretKey> secret;
    if (key != nullptr || key_len != 0) secret = seen::SecretKey::FromBytes(key, key_len);
    return Stored(buf, len, secret, memory, made);
  });
}

void seen_window_last_error(const seen_window* w, seen_error* err) { seen::capi::CopyLastError(w, err); }

seen_status seen_window_add_u64(seen_window* w, const uint64_t* items, size_t n, uint64_t now) {
  const seen::capi::ReportTo report(w);
  SEEN_REQUIRE(w != nullptr, "window is NULL");
  SEEN_REQUIRE(items != nullptr || n == 0, "items is NULL");
  SEEN_REQUIRE(now <= UINT32_MAX, "now is past 2^32 - 1 seconds");
  return Guard([&] { seen::WindowAddU64(w->params(), w->state(), w->growth(), items, n, static_cast<uint32_t>(now)); });
}

seen_status seen_window_contains_u64(const seen_window* w, const uint64_t* items, size_t n,
                                     uint64_t now, uint8_t* out) {
  const seen::capi::ReportTo report(w);
  SEEN_REQUIRE(w != nullptr, "window is NULL");
  SEEN_REQUIRE((items != nullptr && out != nullptr) || n == 0, "items or out is NULL");
  SEEN_REQUIRE(now <= UINT32_MAX, "now is past 2^32 - 1 seconds");
  return Guard([&] { seen::WindowContainsU64(w->params(), w->state(), w->growth(), items, n, static_cast<uint32_t>(now), out); });
}

seen_status seen_window_add_keys(seen_window* w, const uint8_t* data, const uint64_t* offsets,
                                 size_t n, uint64_t now) {
  const seen::capi::ReportTo report(w);
  SEEN_REQUIRE(w != nullptr, "window is NULL");
  SEEN_REQUIRE(offsets != nullptr || n == 0, "offsets is NULL");
  SEEN_REQUIRE(data != nullptr || n == 0 || offsets[n] == offsets[0], "data is NULL");
  SEEN_REQUIRE(now <= UINT32_MAX, "now is past 2^32 - 1 seconds");
  return Guard([&] {
    seen::WindowAddKeys(w->params(), w->state(), w->growth(), data, offsets, n, static_cast<uint32_t>(now));
  });
}

seen_status seen_window_contains_keys(const seen_window* w, const uint8_t* data,
                                      const uint64_t* offsets, size_t n, uint64_t now,
                                      uint8_t* out) {
  const seen::capi::ReportTo report(w);
  SEEN_REQUIRE(w != nullptr, "window is NULL");
  SEEN_REQUIRE((offsets != nullptr && out != nullptr) || n == 0, "offsets or out is NULL");
  SEEN_REQUIRE(data != nullptr || n == 0 || offsets[n] == offsets[0], "data is NULL");
  SEEN_REQUIRE(now <= UINT32_MAX, "now is past 2^32 - 1 seconds");
  return Guard([&] {
    seen::WindowContainsKeys(w->params(), w->state(), w->growth(), data, offsets, n, static_cast<uint32_t>(now), out);
  });
}

seen_status seen_window_get_info(const seen_window* w, seen_window_info* info) {
  const seen::capi::ReportTo report(w);
  SEEN_REQUIRE(w != nullptr, "window is NULL");
  return seen::capi::FillWindowInfo(w->params(), info);
}

seen_status seen_window_get_saturation(const seen_window* w, uint64_t now,
                                       seen_window_saturation* sat) {
  const seen::capi::ReportTo report(w);
  SEEN_REQUIRE(w != nullptr && sat != nullptr, "window or sat is NULL");
  SEEN_REQUIRE(sat->size >= sizeof(size_t), "sat->size is not set");
  SEEN_REQUIRE(now <= UINT32_MAX, "now is past 2^32 - 1 seconds");
  const seen::WindowSaturation measured =
      seen::MeasureWindowSaturation(w->params(), w->state(), w->growth(), static_cast<uint32_t>(now));
  seen::capi::FillWindowSaturation(w->params(), measured, w->bytes(), sat);
  return SEEN_OK;
}

seen_status seen_window_get_effective_span(const seen_window* w, uint64_t now, uint32_t* span) {
  const seen::capi::ReportTo report(w);
  SEEN_REQUIRE(w != nullptr && span != nullptr, "window or span is NULL");
  SEEN_REQUIRE(now <= UINT32_MAX, "now is past 2^32 - 1 seconds");
  *span = seen::WindowEffectiveSpan(w->params(), w->state(), static_cast<uint32_t>(now));
  return SEEN_OK;
}

seen_status seen_window_get_bytes(const seen_window* w, uint64_t* bytes) {
  const seen::capi::ReportTo report(w);
  SEEN_REQUIRE(w != nullptr && bytes != nullptr, "window or bytes is NULL");
  *bytes = w->bytes();
  return SEEN_OK;
}

seen_status seen_window_serialize(const seen_window* w, uint8_t* buf, size_t cap,
                                  size_t* written) {
  const seen::capi::ReportTo report(w);
  SEEN_REQUIRE(w != nullptr && written != nullptr, "window or written is NULL");
  return Guard([&] {
    const std::vector<uint8_t> bytes = seen::SerializeWindow(w->params(), w->state(), w->growth());
    *written = bytes.size();
    if (buf == nullptr) return;
    if (cap < bytes.size()) {
      throw seen::Error(seen::Code::kBufferTooSmall, "seen_window_serialize: needs " +
                                                         std::to_string(bytes.size()) + " bytes");
    }
    std::memcpy(buf, bytes.data(), bytes.size());
  });
}

seen_status seen_window_deserialize(const uint8_t* buf, size_t len, seen_window** out,
                                    seen_error* err) {
  const seen::capi::ReportTo report(err);
  SEEN_REQUIRE(buf != nullptr || len == 0, "buf is NULL");
  return CreateWindowInto(nullptr, out, [&](const seen::WindowMemory*, seen_window** made) {
    return Stored(buf, len, std::nullopt, nullptr, made);
  });
}

seen_status seen_window_deserialize_keyed(const uint8_t* buf, size_t len, const uint8_t* key,
                                          size_t key_len, seen_window** out, seen_error* err) {
  const seen::capi::ReportTo report(err);
  SEEN_REQUIRE(buf != nullptr || len == 0, "buf is NULL");
  return CreateWindowInto(nullptr, out, [&](const seen::WindowMemory*, seen_window** made) {
    return Stored(buf, len, seen::SecretKey::FromBytes(key, key_len), nullptr, made);
  });
}

}  // extern "C"
