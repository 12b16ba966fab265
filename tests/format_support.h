// Helpers for the tests of the container format and its kinds: the status a call throws,
// and deliberate edits of a serialized file that keep (or break) its header checksum.
#pragma once

#include <xxhash.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "core/error.h"

namespace seen::test {

// The code of the seen::Error body throws, or kOk.
inline Code CodeOf(const std::function<void()>& body) {
  try {
    body();
  } catch (const Error& e) {
    return e.code();
  }
  return Code::kOk;
}

inline uint64_t CountYes(const std::vector<uint8_t>& answers) {
  uint64_t yes = 0;
  for (uint8_t a : answers) yes += a;
  return yes;
}

// Re-signs the header checksum after a deliberate edit, computed as docs/FORMAT.md says:
// XXH3-64 (seed 0) of header bytes 0..55 followed by the params bytes.
inline void Resign(std::vector<uint8_t>& bytes) {
  uint64_t params_size;
  std::memcpy(&params_size, bytes.data() + 16, 8);
  std::vector<uint8_t> signed_part(bytes.begin(), bytes.begin() + 56);
  signed_part.insert(signed_part.end(), bytes.begin() + 64, bytes.begin() + 64 + params_size);
  const uint64_t sum = XXH3_64bits(signed_part.data(), signed_part.size());
  std::memcpy(bytes.data() + 56, &sum, 8);
}

// A copy of bytes with `value` at `offset`, re-signed unless resign is false.
template <class T>
std::vector<uint8_t> WithField(std::vector<uint8_t> bytes, size_t offset, T value, bool resign = true) {
  std::memcpy(bytes.data() + offset, &value, sizeof value);
  if (resign) Resign(bytes);
  return bytes;
}

}  // namespace seen::test
