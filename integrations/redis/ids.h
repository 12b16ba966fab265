// The ids of a SEEN.* command, in the forms the window's batch calls take.
//  - Argument form: an argument that is a canonical decimal u64 ("0", "42"; no sign, no
//    leading zero, at most 18446744073709551615) is that integer id, which hashes as its 8
//    little-endian bytes (like seen_window_add_u64); any other argument is a byte key. So
//    every argument becomes a byte key, and one batch call takes them all, in order.
//  - Packed form: one string of n x 8 little-endian bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "integrations/redis/redis_api.h"

namespace seen::redis {

// The packed form is the little-endian layout: such a host copies it as it is.
constexpr bool kLittleEndianHost = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;

// Whether s[0..len) is a canonical decimal u64; if so, its value goes to *out.
bool ParseDecimalU64(const char* s, size_t len, uint64_t* out);

// Byte keys in the C API's layout: key i is data[offsets[i] .. offsets[i+1]).
struct KeyBatch {
  std::vector<uint8_t> data;
  std::vector<uint64_t> offsets;
  size_t size() const { return offsets.size() - 1; }
};
KeyBatch KeysFromArguments(RedisModuleString** argv, size_t n);

// False if len is not a multiple of 8.
bool UnpackIds(const char* packed, size_t len, std::vector<uint64_t>* ids);
void PackIds(const uint64_t* ids, size_t n, std::vector<char>* out);

}  // namespace seen::redis
