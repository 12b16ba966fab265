// A fixed-size blocked Bloom filter: an array of 64-byte blocks (block.h) in a Region.
// Batch paths hash a chunk of keys, prefetch their blocks, then probe (kernels.h).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <memory>
#include <mutex>

#include "core/block.h"
#include "core/hash.h"
#include "core/kernels.h"
#include "core/region.h"

namespace seen {

struct BloomParams {
  uint64_t blocks = 0;
  uint32_t k = 0;
  uint64_t seed = 0;
  uint64_t expected_items = 0;
  double target_fpr = 0.0;
  std::optional<SecretKey> key = std::nullopt;  // keyed mode (docs/SECURITY.md): never written to a file

  Hashing hashing() const { return {seed, key}; }

  uint64_t bytes() const { return blocks * kBlockBytes; }
};

struct BloomStats {
  double fill_ratio;
  double approx_items;
  double predicted_fpr;
};

class Bloom {
 public:
  // `key`, if given, makes the filter keyed: its keys hash with SipHash-1-3 under it.
  static Bloom Create(uint64_t expected_items, double fpr, uint64_t seed,
                      std::optional<SecretKey> key = std::nullopt);
  // A byte budget, with the k that is best for expected_items.
  static Bloom CreateBytes(uint64_t expected_items, uint64_t bytes, uint64_t seed,
                           std::optional<SecretKey> key = std::nullopt);

  // Takes memory that already holds params.bytes() bytes of blocks (a copy, file or view).
  Bloom(const BloomParams& params, Region region);

  // A writable, privately owned copy (e.g. of a read-only mapped file).
  Bloom Copy() const;

  void AddU64(const uint64_t* ids, size_t n);
  void ContainsU64(const uint64_t* ids, size_t n, uint8_t* out) const;
  // Key i is data[offsets[i] .. offsets[i+1]); throws kInvalidArgument if offsets decrease.
  void AddKeys(const uint8_t* data, const uint64_t* offsets, size_t n);
  void ContainsKeys(const uint8_t* data, const uint64_t* offsets, size_t n, uint8_t* out) const;

  // Adds are thread-safe by default: blocks form up to 64 stripes, each with a lock, and a
  // batch is written a chunk of 16,384 keys at a time with plain SIMD stores, under every
  // stripe's lock when no other writer holds one, else sorted by stripe, each stripe under
  // its lock (busy stripes after the others); a batch of fewer keys than stripes takes each
  // key's stripe lock alone. So concurrent adds never lose a bit (single puts
  // and OrBlocks take the same locks). Exclusive adds: the caller promises that adds never
  // run concurrently on this filter (one writer, or its own lock); adds then skip the
  // sorting and the locks. Queries never lock, in either mode. Off by default.
  void set_exclusive_adds(bool exclusive) { exclusive_adds_ = exclusive; }
  bool exclusive_adds() const { return exclusive_adds_; }

  // Single keys. Put returns whether every bit was already set (test-and-add).
  bool PutU64(uint64_t id);
  bool PutKey(const void* key, size_t len);
  bool TestU64(uint64_t id) const { return kernels_.probe(blocks_, HashU64(id, params_.hashing())); }
  bool TestKey(const void* key, size_t len) const {
    return kernels_.probe(blocks_, HashBytes(key, len, params_.hashing()));
  }

  // Block-range slices, to build one big filter in pieces (blocks are independent): the
  // block each key maps to, and an OR of `count` blocks into this filter's blocks from
  // `first` on (throws kInvalidArgument for a range outside the filter).
  void BlocksOfU64(const uint64_t* ids, size_t n, uint64_t* out) const;
  void BlocksOfKeys(const uint8_t* data, const uint64_t* offsets, size_t n, uint64_t* out) const;
  void OrBlocks(uint64_t first, uint64_t count, const uint8_t* blocks);

  // this |= other; throws kIncompatible naming the first parameter that differs.
  void Merge(const Bloom& other);
  // this &= other, word by word: the bits both have. A key added to both still looks present;
  // keys of either alone may too (the result is approximate upward). Merge's shape rules.
  void Intersect(const Bloom& other);
  // Whether every bit of other is set here, so every key other holds looks present here.
  // Merge's shape rules.
  bool Covers(const Bloom& other) const;
  void Clear();
  BloomStats Stats() const;
  void Sync() const { region_.Sync(); }

  const BloomParams& params() const { return params_; }
  bool read_only() const { return !region_.writable(); }
  const uint8_t* bytes() const { return region_.data(); }

 private:
  void RequireWritable() const;
  // Throws kIncompatible ("cannot <action>: ...") unless other has this filter's size, k,
  // seed and key: only then do their bits mean the same keys.
  void RequireSameShape(const Bloom& other, const char* action) const;
  // The stripe (lock) of the block a hash maps to; stripes are contiguous block ranges.
  uint64_t StripeOf(uint64_t hash) const;
  // Thread-safe batch add: a batch of fewer keys than stripes key by key, each under its
  // stripe's lock; a larger one a chunk at a time, as the only batch writer under every
  // stripe's lock at once, else sorted by stripe, each stripe under its lock.
  void AddLocked(const KeySource& keys);
  // Adds hashes sorted by stripe (stripe s's are [start[s], start[s + 1])), each under its
  // stripe's lock, from stripe `first` on, a run of free stripes at a time. A stripe another
  // writer holds is passed over and done after the others, so concurrent writers work side by
  // side on different stripes instead of queueing behind each other on the same order of locks.
  void AddByStripe(const uint64_t* sorted, const size_t* start, uint64_t first);
  uint64_t StripesInUse() const;
  bool TryLockAllStripes();
  void UnlockAllStripes();
  bool PutHash(uint64_t hash);
  // Keys by hash, as single puts (each under its stripe's lock unless adds are exclusive),
  // their blocks fetched all at once first: for a few keys, no batch pipeline to set up.
  void PutFew(const uint64_t* hashes, size_t n);

  BloomParams params_;
  Region region_;
  Blocks blocks_;
  Kernels kernels_;
  bool exclusive_adds_ = false;
  std::unique_ptr<std::mutex[]> stripes_;
  std::unique_ptr<std::atomic<uint32_t>> batch_writers_;  // batch adds running (AddLocked)
  unsigned stripe_shift_;  // a stripe is 2^stripe_shift_ consecutive blocks
};

}  // namespace seen
