// What every part of the C shim shares: failing with a status and a message, running core
// code so that no exception escapes into C, and argument checks.
#pragma once

#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "capi/report.h"
#include "capi/seen.h"
#include "core/error.h"
#include "core/hash.h"

namespace seen::capi {

// Records the message for this thread's seen_last_error() and for the current call's
// ReportTo target (report.h), and returns status.
seen_status Fail(seen_status status, std::string message);
// The same for a refusal the core returned instead of throwing (core/error.h's Status).
inline seen_status Fail(const Status& refusal) {
  return Fail(static_cast<seen_status>(refusal.code), refusal.message);
}

// Runs body, mapping every exception to a status; nothing escapes into C. The call's status
// is SEEN_OK, or what body returns if it returns one (a refusal it failed with, unthrown).
template <class Body>
seen_status Guard(Body&& body) {
  try {
    if constexpr (std::is_same_v<std::invoke_result_t<Body&>, seen_status>) {
      return body();
    } else {
      body();
      return SEEN_OK;
    }
  } catch (const seen::Error& e) {
    return Fail(static_cast<seen_status>(e.code()), e.what());
  } catch (const std::bad_alloc&) {
    return Fail(SEEN_ERR_NO_MEMORY, "out of memory");
  } catch (const std::exception& e) {
    return Fail(SEEN_ERR_INTERNAL, e.what());
  } catch (...) {
    return Fail(SEEN_ERR_INTERNAL, "unknown exception");
  }
}

// Creates a handle through an out-parameter: *out is the new handle, or NULL on failure.
template <class Handle, class Make>
seen_status CreateInto(Handle** out, Make&& make) {
  if (out == nullptr) return Fail(SEEN_ERR_INVALID_ARGUMENT, "out is NULL");
  *out = nullptr;
  return Guard([&] { *out = new Handle{make()}; });
}

// The serialize rule of every kind (seen_bloom_serialize): *written is the size the object
// needs; a NULL buf asks only that; a smaller cap is SEEN_ERR_BUFFER_TOO_SMALL, naming the
// function. Guarded, since sizing some objects settles their tables first.
template <class Object>
seen_status SerializeInto(const char* function, const Object& object, uint8_t* buf, size_t cap, size_t* written) {
  uint64_t needed = 0;
  const seen_status sized = Guard([&] { needed = SerializedSize(object); });
  if (sized != SEEN_OK) return sized;
  *written = static_cast<size_t>(needed);
  if (buf == nullptr) return SEEN_OK;
  if (cap < needed) {
    return Fail(SEEN_ERR_BUFFER_TOO_SMALL,
                std::string(function) + ": needs " + std::to_string(needed) + " bytes, cap is " + std::to_string(cap));
  }
  return Guard([&] { Serialize(object, buf); });  // found by argument-dependent lookup
}

// Whether open flags are `writable` or SEEN_OPEN_READ_ONLY, the modes a kind takes, optionally
// with SEEN_OPEN_NO_VERIFY, and nothing else.
inline bool OpenFlagsAre(uint32_t flags, uint32_t writable) {
  const uint32_t mode = flags & ~SEEN_OPEN_NO_VERIFY;
  return mode == SEEN_OPEN_READ_ONLY || mode == writable;
}

// The key of a *_keyed call: none for (NULL, 0), else 16..64 bytes (kInvalidArgument).
inline std::optional<SecretKey> OptionalKey(const uint8_t* key, size_t key_len) {
  if (key == nullptr && key_len == 0) return std::nullopt;
  return SecretKey::FromBytes(key, key_len);
}

}  // namespace seen::capi

// Checks made before calling the core; the message names the function and the argument.
#define SEEN_REQUIRE(condition, message)                                                    \
  do {                                                                                      \
    if (!(condition)) {                                                                     \
      return ::seen::capi::Fail(SEEN_ERR_INVALID_ARGUMENT, std::string(__func__) + ": " + message); \
    }                                                                                       \
  } while (0)
