// Reading size-versioned C structs: a caller built against an older header passes a smaller
// size, one built against a newer header a larger size. Fields past the caller's size were
// never written by it, so they read as zero, which every added field must take as its default.
// A newer caller's fields past this build's layout must be zero (their default): a value this
// build cannot honour is refused, not ignored (as Linux's copy_struct_from_user does).
#pragma once

#include <algorithm>
#include <cstring>
#include <string>

#include "core/error.h"

namespace seen::capi {

// The most bytes a caller may say its struct has: far past any layout these structs will
// grow to, and a bound on what is read, so that an absurd size (SIZE_MAX, a pointer, a
// garbage word) is refused rather than read past, and never wraps the end pointer.
constexpr size_t kMostVersionedBytes = 4096;

// Copies the caller's part of *in into a zeroed T; oldest_size is the size of the struct's
// first published layout, the least a caller can pass. Throws Error(kInvalidArgument) naming
// `what` for NULL, a size below oldest_size or above kMostVersionedBytes, or a non-zero byte
// past sizeof(T).
template <class T>
T ReadVersioned(const T* in, size_t oldest_size, const std::string& what) {
  if (in == nullptr) throw Error(Code::kInvalidArgument, what + ": NULL");
  if (in->size < oldest_size) {
    throw Error(Code::kInvalidArgument, what + ": size " + std::to_string(in->size) +
                                            " is below the oldest layout's " + std::to_string(oldest_size));
  }
  if (in->size > kMostVersionedBytes) {
    throw Error(Code::kInvalidArgument, what + ": size " + std::to_string(in->size) + " is above " +
                                            std::to_string(kMostVersionedBytes) + ", which no layout reaches");
  }
  const auto* bytes = reinterpret_cast<const unsigned char*>(in);
  if (in->size > sizeof(T) && std::any_of(bytes + sizeof(T), bytes + in->size, [](unsigned char b) { return b != 0; })) {
    throw Error(Code::kInvalidArgument, what + ": fields past this build's " + std::to_string(sizeof(T)) +
                                            " bytes are set, which it cannot honour (a newer header?)");
  }
  T out{};
  std::memcpy(&out, in, std::min(in->size, sizeof(T)));
  return out;
}

}  // namespace seen::capi
