#include "core/hash.h"

#include <string>

#include "core/error.h"
#include "core/kernels.h"

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

void U64Keys::Hash(const void* context, size_t begin, size_t count, uint64_t* hashes) {
  const auto* keys = static_cast<const U64Keys*>(context);
  HashU64Batch(keys->ids + begin, count, keys->seed, hashes);
}

void ByteKeys::Hash(const void* context, size_t begin, size_t count, uint64_t* hashes) {
  const auto* keys = static_cast<const ByteKeys*>(context);
  HashKeysBatch(keys->data, keys->offsets, begin, count, keys->seed, hashes);
}

}  // namespace seen
