#include "core/hash.h"

#include <string>

#include "core/error.h"
#include "core/kernels.h"
#include "core/subkey.h"

namespace seen {

SecretKey SecretKey::FromBytes(const uint8_t* bytes, size_t len) {
  if (bytes == nullptr || len < 16 || len > 64) {
    throw Error(Code::kInvalidArgument, "a secret key is 16 to 64 bytes, got " +
                                            (bytes == nullptr ? std::string("NULL") : std::to_string(len)));
  }
  if (len == 16) {
    uint64_t k0 = 0, k1 = 0;
    for (int b = 0; b < 8; ++b) k0 |= uint64_t{bytes[b]} << (8 * b), k1 |= uint64_t{bytes[8 + b]} << (8 * b);
    return {k0, k1};
  }
  // Two SipHash-2-4 outputs under distinct fixed keys: a public fold of the secret bytes.
  return {SipHash<2, 4>(0, 0, bytes, len), SipHash<2, 4>(1, 0, bytes, len)};
}

uint64_t SecretKey::CheckValue() const {
  // Under a key of its own: the value every keyed file shows is then no output of the function
  // that places keys. It was, before issue 33 (SipHash-1-3 of this label under the key
  // itself, which format.cc still accepts for one release).
  static const char kLabel[] = "seen key check";
  const SecretKey check = Subkey(*this, kLabel);
  return SipHash13(check.k0, check.k1, kLabel, sizeof kLabel - 1) >> 8;
}

void HashKeysBatch(const uint8_t* data, const uint64_t* offsets, size_t first, size_t n,
                   const Hashing& hashing, uint64_t* hashes) {
  for (size_t i = first; i < first + n; ++i) {
    if (offsets[i + 1] < offsets[i]) {
      throw Error(Code::kInvalidArgument, "offsets[" + std::to_string(i + 1) +
                                              "] is below offsets[" + std::to_string(i) + "]");
    }
    const uint64_t len = offsets[i + 1] - offsets[i];
    // Empty keys may come with NULL data, where even data + offset is undefined.
    hashes[i - first] = HashBytes(len == 0 ? nullptr : data + offsets[i], len, hashing);
  }
}

void U64Keys::Hash(const void* context, size_t begin, size_t count, uint64_t* hashes) {
  const auto* keys = static_cast<const U64Keys*>(context);
  HashU64Batch(keys->ids + begin, count, keys->hashing, hashes);
}

void ByteKeys::Hash(const void* context, size_t begin, size_t count, uint64_t* hashes) {
  const auto* keys = static_cast<const ByteKeys*>(context);
  HashKeysBatch(keys->data, keys->offsets, begin, count, keys->hashing, hashes);
}

}  // namespace seen
