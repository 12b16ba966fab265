#include "core/hash.h"

#include <string>

#include "core/error.h"

namespace seen {

void HashKeysBatch(const uint8_t* data, const uint64_t* offsets, size_t first, size_t n,
                   uint64_t seed, uint64_t* hashes) {
  for (size_t i = first; i < first + n; ++i) {
    if (offsets[i + 1] < offsets[i]) {
      throw Error(Code::kInvalidArgument, "offsets[" + std::to_string(i + 1) +
                                              "] is below offsets[" + std::to_string(i) + "]");
    }
    const uint64_t len = offsets[i + 1] - offsets[i];
    // Empty keys may come with NULL data, where even data + offset is undefined.
    hashes[i - first] = HashBytes(len == 0 ? nullptr : data + offsets[i], len, seed);
  }
}

}  // namespace seen
