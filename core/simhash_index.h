// The near-duplicate index: every (id, fingerprint) within Hamming distance k of a query,
// exactly (never a miss against brute force), for k up to the index's max_k.
//
// Pigeonhole: the 64 bits are cut into B = max(max_k + 1, 4) blocks. Two fingerprints within
// max_k bits agree exactly on at least one block, so looking each block up in its own table
// finds every match. Table 0 is the primary array of fingerprints (their ids beside it),
// bucketed by their top P bits; table t >= 1 holds, bucketed by block t, a 32-bit signature
// per fingerprint (the 32 bits after block t), which rules out almost every candidate without
// touching the primary array. Layout and costs: docs/FORMAT.md (kind 6) and docs/simhash.md.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "core/region.h"

namespace seen {

// A pair as added (staged until the next build).
struct SimhashEntry {
  uint64_t fingerprint;
  uint64_t id;
};

struct SimhashMatch {
  uint64_t id;
  uint64_t fingerprint;
  uint32_t distance;
};

constexpr uint32_t kSimhashMaxK = 7;
// Table offsets are 32-bit.
constexpr uint64_t kSimhashMaxEntries = 0xFFFFFFFFull;

// Where each table lies in the payload, from (count, max_k, primary_bits) alone.
struct SimhashLayout {
  uint64_t count = 0;
  uint32_t max_k = 0;
  uint32_t blocks = 0;
  uint32_t primary_bits = 0;
  // Up to 8 blocks (max_k 7); 16 leaves room without changing the struct.
  uint32_t width[16] = {};  // block widths, block 0 the top bits
  uint32_t shift[16] = {};  // block b is (fp >> shift[b]) & (2^width[b] - 1)
  // Payload offsets: count u64 fingerprints at 0, then
  uint64_t ids = 0;                 // count u64 ids,
  uint64_t primary_offsets = 0;     // (2^P + 1) u32 bucket offsets,
  uint64_t table_offsets[16] = {};  // and per table t >= 1: (2^width[t] + 1) u32 offsets
  uint64_t table_sigs[16] = {};     // and count u32 signatures.
  uint64_t bytes = 0;

  static SimhashLayout For(uint64_t count, uint32_t max_k, uint32_t primary_bits);
  static uint32_t PrimaryBitsFor(uint64_t count, uint32_t max_k);
  uint32_t Key(uint32_t table, uint64_t fp) const {
    return static_cast<uint32_t>((fp >> shift[table]) & ((uint64_t{1} << width[table]) - 1));
  }
  uint32_t Sig(uint32_t table, uint64_t fp) const;
  // The fingerprint bits a bucket key and signature of table t pin down, and their mask.
  uint64_t Partial(uint32_t table, uint32_t key, uint32_t sig) const;
  uint64_t KnownMask(uint32_t table) const { return Partial(table, ~0u, ~0u); }
};

class SimhashIndex {
 public:
  // An empty, writable index answering queries up to max_k (0..7).
  explicit SimhashIndex(uint32_t max_k);
  // Over a built payload (a copy, a file mapping or a borrowed buffer), already validated.
  SimhashIndex(const SimhashLayout& layout, Region payload);
  SimhashIndex(SimhashIndex&& other) noexcept;
  SimhashIndex(const SimhashIndex&) = delete;
  SimhashIndex& operator=(const SimhashIndex&) = delete;

  // Adds n pairs. The index is a multiset: adding an id again adds another pair. Pairs are
  // staged and the tables rebuilt (O(n)) by the next query or Build.
  void Add(const uint64_t* fingerprints, const uint64_t* ids, size_t n);
  // Removes every pair whose id is among ids; returns how many pairs went. O(size + n).
  uint64_t Remove(const uint64_t* ids, size_t n);

  // Every pair within k (k <= max_k) of fp, in no particular order, appended to out.
  void Query(uint64_t fp, uint32_t k, std::vector<SimhashMatch>& out) const;
  // Query's matches in the one order every caller sees: by distance, then id, then
  // fingerprint.
  std::vector<SimhashMatch> QueryOrdered(uint64_t fp, uint32_t k) const;
  // QueryOrdered of each of n fingerprints, one after another: fingerprint i's matches are
  // [offsets[i], offsets[i + 1]) of the result (offsets holds n + 1).
  std::vector<SimhashMatch> QueryOrderedMany(const uint64_t* fps, size_t n, uint32_t k, uint64_t* offsets) const;
  // Whether any pair lies within k; stops at the first.
  bool Any(uint64_t fp, uint32_t k) const;
  // out[i] = Any(fps[i], k), 1 or 0, for each of n fingerprints.
  void AnyMany(const uint64_t* fps, size_t n, uint32_t k, uint8_t* out) const;
  // Groups whose every two members are within k (a diameter of at most k), never chained:
  // the pair with the smallest id (the first in table order among equal ids) not yet in a
  // group leads a new one, which takes, in id order, each pair within k of it not yet in a
  // group that is within k of every member taken so far; and so on in id order. group[i] is
  // the group of pair i of Fingerprints() and Ids(), numbered in the order of their first
  // pair; a pair with no neighbour is a group of one. Runs its queries on every core.
  std::vector<uint32_t> Clusters(uint32_t k) const;

  // Rebuilds the tables if pairs were added or removed since. Queries call it; it is
  // thread-safe against concurrent queries.
  void Build() const;

  // The pairs in table order (after Build): fingerprints and ids, size() of each.
  const uint64_t* Fingerprints() const;
  const uint64_t* Ids() const;
  uint64_t size() const;
  uint32_t max_k() const { return max_k_; }
  bool read_only() const { return !writable_; }
  // The built payload and its layout, as docs/FORMAT.md lays it out (after Build).
  const SimhashLayout& layout() const;
  const uint8_t* payload() const;
  // Memory the built tables use.
  uint64_t bytes() const;

 private:
  void RequireWritable() const;
  void RequireK(uint32_t k) const;
  void Rebuild() const;
  // Calls visit(position) for every entry within k of fp, possibly more than once each;
  // stops when visit returns false.
  template <class Visitor>
  void Visit(uint64_t fp, uint32_t k, Visitor&& visit) const;

  uint32_t max_k_;
  bool writable_;
  mutable std::mutex build_mutex_;
  mutable std::atomic<bool> dirty_{false};
  mutable std::vector<SimhashEntry> staged_;  // pairs not yet in the tables
  mutable SimhashLayout layout_;
  mutable Region payload_;
};

}  // namespace seen
