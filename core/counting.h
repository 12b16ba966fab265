// A blocked counting filter: the blocks, k and hashing of the blocked Bloom filter, with a
// 4-bit saturating counter per bit position (counting_block.h), so keys can be removed. It
// keeps the Bloom filter of its non-zero counters beside them and answers queries from it,
// so it answers exactly like a Bloom filter of the same parameters holding the keys added
// and not removed (plus those saturation keeps), at the same speed and false-positive rate,
// in 5x the memory (1x presence + 4x counters).
//
// The remove rule (docs/counting.md): remove only keys that were added. Removing a key
// whose counters include a 0 is refused (it was certainly never added) and changes
// nothing. Removing a never-added key that looks present (a false positive) decrements
// counters that other keys set, and can make one of them a false negative: that is the
// hazard every counting Bloom filter has, and the caller's rule to avoid. A saturated
// counter (15) never changes again, so no sequence of adds and removes of added keys ever
// makes a false negative.
//
// Concurrency: adds, removes and clear need exclusive access (one writer, or the caller's
// lock). Queries read only the presence blocks and may run concurrently with each other and
// with that one writer; a query racing a write sees it or not, and never misses a key whose
// add completed earlier. Stats, Copy and serializing read the counters: not during a write.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "core/block.h"
#include "core/hash.h"
#include "core/counting_block.h"
#include "core/kernels.h"
#include "core/region.h"

namespace seen {

// Filters past 16 TiB in all are refused as absurd (as kMaxFilterBytes for Bloom filters).
constexpr uint64_t kMaxCountingBlocks = (uint64_t{1} << 44) / (kBlockBytes + kCounterBlockBytes);

struct CountingParams {
  uint64_t blocks = 0;
  uint32_t k = 0;
  uint64_t seed = 0;
  uint64_t expected_items = 0;
  double target_fpr = 0.0;
  std::optional<SecretKey> key = std::nullopt;  // keyed mode (docs/SECURITY.md): never written to a file

  Hashing hashing() const { return {seed, key}; }

  // The payload: the presence blocks, then the counter blocks.
  uint64_t presence_bytes() const { return blocks * kBlockBytes; }
  uint64_t bytes() const { return blocks * (kBlockBytes + kCounterBlockBytes); }
};

struct CountingStats {
  double approx_items;      // sum of counters / k: exact while nothing saturated
  uint64_t saturated;       // counters stuck at 15
  double fill_ratio;        // non-zero counters / all counters
  double predicted_fpr;     // false-positive rate of the filter as it is now
};

class Counting {
 public:
  // Sized like Bloom::Create (the same blocks and k), so the same false-positive rate.
  static Counting Create(uint64_t expected_items, double fpr, uint64_t seed,
                         std::optional<SecretKey> key = std::nullopt);

  // Takes memory that already holds params.bytes() bytes of presence and counter blocks.
  Counting(const CountingParams& params, Region region);

  // A writable, privately owned copy.
  Counting Copy() const;

  void AddU64(const uint64_t* ids, size_t n);
  void AddKeys(const uint8_t* data, const uint64_t* offsets, size_t n);
  // Removes keys in order. removed[i] (removed may be NULL) is 1 if key i was removed, 0 if
  // it was certainly absent (some counter 0) and nothing changed. Returns how many were not.
  uint64_t RemoveU64(const uint64_t* ids, size_t n, uint8_t* removed);
  uint64_t RemoveKeys(const uint8_t* data, const uint64_t* offsets, size_t n, uint8_t* removed);
  void ContainsU64(const uint64_t* ids, size_t n, uint8_t* out) const;
  void ContainsKeys(const uint8_t* data, const uint64_t* offsets, size_t n, uint8_t* out) const;

  // Single keys. Delete returns false (and changes nothing) if the key was certainly absent.
  void PutU64(uint64_t id) { PutHash(HashOf(id)); }
  void PutKey(const void* key, size_t len) { PutHash(HashOf(key, len)); }
  bool DeleteU64(uint64_t id) { return DeleteHash(HashOf(id)); }
  bool DeleteKey(const void* key, size_t len) { return DeleteHash(HashOf(key, len)); }
  bool TestU64(uint64_t id) const { return kernels_.probe(presence_, HashOf(id)); }
  bool TestKey(const void* key, size_t len) const { return kernels_.probe(presence_, HashOf(key, len)); }

  void Clear();
  CountingStats Stats() const;
  void Sync() const { region_.Sync(); }

  const CountingParams& params() const { return params_; }
  bool read_only() const { return !region_.writable(); }
  const uint8_t* bytes() const { return region_.data(); }
  const uint8_t* presence() const { return reinterpret_cast<const uint8_t*>(presence_.words); }

 private:
  uint64_t HashOf(uint64_t id) const { return HashU64(id, params_.hashing()); }
  uint64_t HashOf(const void* key, size_t len) const { return HashBytes(key, len, params_.hashing()); }
  void PutHash(uint64_t hash);
  bool DeleteHash(uint64_t hash);
  void RequireWritable() const;

  CountingParams params_;
  Region region_;
  CounterBlocks blocks_;
  Blocks presence_;  // the same memory as blocks_.presence, for the kernels of kernels.h
  Kernels kernels_;
};

}  // namespace seen
