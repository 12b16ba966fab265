#include "core/bloom.h"

#include <algorithm>
#include <array>
#include <bitset>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/hash.h"
#include "core/kernels.h"
#include "core/sizing.h"

namespace seen {
namespace {

constexpr uint64_t kStripes = 64;
constexpr size_t kStripeChunk = 16384;
// The most stripes a writer adds under one kernel call (AddByStripe).
constexpr uint64_t kRunStripes = 16;

// Hashes already computed, as a KeySource: context points at the first.
void CopyHashes(const void* context, size_t begin, size_t count, uint64_t* hashes) {
  std::memcpy(hashes, static_cast<const uint64_t*>(context) + begin, count * sizeof(uint64_t));
}

// A range [offset, offset + size) of another KeySource, as a KeySource.
struct KeyRange {
  const KeySource* keys;
  size_t offset;
  // The range's first n keys as a source of their own, ids and hashes kept where the whole
  // had them, so that the kernel still hashes ids itself; the range must outlive it.
  KeySource source(size_t n) const {
    KeySource slice{&Hash, this, n};
    if (keys->ids) slice.ids = keys->ids + offset, slice.seed = keys->seed;
    if (keys->hashes) slice.hashes = keys->hashes + offset;
    if (keys->offsets) {
      slice.data = keys->data, slice.offsets = keys->offsets + offset, slice.seed = keys->seed;
    }
    return slice;
  }
  static void Hash(const void* context, size_t begin, size_t count, uint64_t* hashes) {
    const auto* range = static_cast<const KeyRange*>(context);
    range->keys->hash(range->keys->context, range->offset + begin, count, hashes);
  }
};

// Stripes are runs of 2^shift blocks, the smallest power of two that makes at most kStripes
// of them: a shift, not a division, on the path of every key.
unsigned StripeShift(uint64_t blocks) {
  unsigned shift = 0;
  while ((blocks - 1) >> shift >= kStripes) ++shift;
  return shift;
}

// Counting sort of n hashes by stripe into sorted, stripe s's at [start[s], start[s + 1]).
// Three plain passes: one pass that placed, counted and stored each key ran at about 8.5 ns
// a key on Zen 3, these at about 6, and two writers by stripe then beat one writer.
void SortByStripe(const uint64_t* hashes, size_t n, uint64_t blocks, unsigned shift, uint8_t* stripe_of,
                  uint64_t* sorted, size_t* start) {
  for (size_t i = 0; i < n; ++i) stripe_of[i] = static_cast<uint8_t>(BlockIndex(hashes[i], blocks) >> shift);
  uint32_t counts[kStripes] = {};
  for (size_t i = 0; i < n; ++i) ++counts[stripe_of[i]];
  start[0] = 0;
  for (uint64_t s = 0; s < kStripes; ++s) start[s + 1] = start[s] + counts[s];
  uint64_t* next[kStripes];
  for (uint64_t s = 0; s < kStripes; ++s) next[s] = sorted + start[s];
  for (size_t i = 0; i < n; ++i) *next[stripe_of[i]]++ = hashes[i];
}

}  // namespace

Bloom Bloom::Create(uint64_t expected_items, double fpr, uint64_t seed,
                    std::optional<SecretKey> key) {
  const Sizing sizing = SizeFor(expected_items, fpr);
  BloomParams params{sizing.blocks, sizing.k, seed, expected_items, fpr, key};
  return Bloom(params, Region::Allocate(params.bytes()));
}

Bloom Bloom::CreateBytes(uint64_t expected_items, uint64_t bytes, uint64_t seed,
                         std::optional<SecretKey> key) {
  const uint64_t blocks = BlocksForBytes(bytes);
  const uint32_t k = BestK(expected_items, blocks);
  const double fpr = PredictFpr(static_cast<double>(expected_items), blocks, k);
  BloomParams params{blocks, k, seed, expected_items, fpr, key};
  return Bloom(params, Region::Allocate(params.bytes()));
}

Bloom::Bloom(const BloomParams& params, Region region)
    : params_(params),
      region_(std::move(region)),
      blocks_{reinterpret_cast<uint64_t*>(region_.data()), params.blocks, params.k},
      kernels_(ChosenKernels()),
      stripes_(std::make_unique<std::mutex[]>(kStripes)),
      batch_writers_(std::make_unique<std::atomic<uint32_t>>(0)),
      stripe_shift_(StripeShift(params.blocks)) {}

Bloom Bloom::Copy() const {
  Region region = Region::Allocate(params_.bytes());
  std::memcpy(region.data(), bytes(), params_.bytes());
  return Bloom(params_, std::move(region));
}

uint64_t Bloom::StripeOf(uint64_t hash) const { return BlockIndex(hash, params_.blocks) >> stripe_shift_; }

uint64_t Bloom::StripesInUse() const { return ((params_.blocks - 1) >> stripe_shift_) + 1; }

bool Bloom::TryLockAllStripes() {
  for (uint64_t s = 0; s < StripesInUse(); ++s) {
    if (!stripes_[s].try_lock()) {
      while (s-- > 0) stripes_[s].unlock();
      return false;
    }
  }
  return true;
}

void Bloom::UnlockAllStripes() {
  for (uint64_t s = 0; s < StripesInUse(); ++s) stripes_[s].unlock();
}

void Bloom::AddLocked(const KeySource& keys) {
  // Fewer keys than stripes: each key under its own stripe's lock, as single puts are, takes
  // fewer locks than every stripe's (64 lock pairs made one key cost 30x an exclusive add).
  if (keys.size < StripesInUse()) {
    uint64_t hashes[kStripes];
    keys.hash(keys.context, 0, keys.size, hashes);
    PutFew(hashes, keys.size);
    return;
  }
  thread_local std::vector<uint64_t> hashes(kStripeChunk), sorted(kStripeChunk);
  thread_local std::vector<uint8_t> stripe_of(kStripeChunk);
  batch_writers_->fetch_add(1, std::memory_order_relaxed);
  const std::unique_ptr<Bloom, void (*)(Bloom*)> leave(
      this, [](Bloom* f) { f->batch_writers_->fetch_sub(1, std::memory_order_relaxed); });
  for (size_t begin = 0; begin < keys.size; begin += kStripeChunk) {
    const size_t n = std::min(kStripeChunk, keys.size - begin);
    // The only batch writer (the common case): the chunk goes in as exclusive adds do, hashed
    // inside the kernel's prefetch pipeline, under every stripe's lock. With another one
    // running, both go by stripe, side by side: taking every lock in turn made two writers
    // no faster than one.
    if (batch_writers_->load(std::memory_order_relaxed) == 1 && TryLockAllStripes()) {
      // Unlocked on every way out: hashing byte keys throws on decreasing offsets.
      const std::unique_ptr<Bloom, void (*)(Bloom*)> unlock(this, [](Bloom* f) { f->UnlockAllStripes(); });
      const KeyRange range{&keys, begin};
      kernels_.add(blocks_, range.source(n));
      continue;
    }
    keys.hash(keys.context, begin, n, hashes.data());
    std::array<size_t, kStripes + 1> start;
    SortByStripe(hashes.data(), n, params_.blocks, stripe_shift_, stripe_of.data(), sorted.data(), start.data());
    AddByStripe(sorted.data(), start.data(), stripe_of[0]);
  }
}

void Bloom::AddByStripe(const uint64_t* sorted, const size_t* start, uint64_t first) {
  std::bitset<kStripes> done;
  for (const bool wait : {false, true}) {
    for (uint64_t j = 0; j < kStripes; ++j) {
      const uint64_t s = (first + j) % kStripes;
      if (start[s + 1] == start[s] || done[s]) continue;
      if (wait) {
        stripes_[s].lock();
      } else if (!stripes_[s].try_lock()) {
        continue;
      }
      // The stripes after s that are free join its run, up to kRunStripes, and their keys go
      // in with one call: the kernel's prefetches ramp up at each call's start, and a stripe
      // of a 4,096-key batch holds about 64 keys. Stripes without keys join unlocked.
      uint64_t end = s + 1;
      while (end < kStripes && end - s < kRunStripes && !done[end] &&
             (start[end + 1] == start[end] || stripes_[end].try_lock())) {
        ++end;
      }
      KeySource hashes{&CopyHashes, sorted + start[s], start[end] - start[s]};
      hashes.hashes = sorted + start[s];
      kernels_.add(blocks_, hashes);  // hashes already computed: nothing to throw
      for (uint64_t t = s; t < end; ++t) {
        if (start[t + 1] != start[t]) stripes_[t].unlock();
        done[t] = true;
      }
    }
  }
}

bool Bloom::PutHash(uint64_t hash) {
  RequireWritable();
  if (exclusive_adds_) return kernels_.put(blocks_, hash);
  std::lock_guard<std::mutex> lock(stripes_[StripeOf(hash)]);
  return kernels_.put(blocks_, hash);
}

void Bloom::PutFew(const uint64_t* hashes, size_t n) {
  for (size_t i = 0; i < n; ++i) __builtin_prefetch(BlockAt(blocks_, hashes[i]));
  for (size_t i = 0; i < n; ++i) PutHash(hashes[i]);
}

void Bloom::RequireWritable() const {
  if (read_only()) throw Error(Code::kReadOnly, "this filter was opened read-only");
}

void Bloom::AddU64(const uint64_t* ids, size_t n) {
  RequireWritable();
  if (n <= kFewKeys) {
    uint64_t hashes[kFewKeys];
    for (size_t i = 0; i < n; ++i) hashes[i] = HashU64(ids[i], params_.hashing());
    return PutFew(hashes, n);
  }
  const U64Keys keys{ids, params_.hashing()};
  if (exclusive_adds_) {
    kernels_.add(blocks_, keys.source(n));
  } else {
    AddLocked(keys.source(n));
  }
}

void Bloom::ContainsU64(const uint64_t* ids, size_t n, uint8_t* out) const {
  seen::ContainsU64(kernels_, blocks_, params_.hashing(), ids, n, out);
}

void Bloom::AddKeys(const uint8_t* data, const uint64_t* offsets, size_t n) {
  RequireWritable();
  if (n <= kFewKeys) {
    uint64_t hashes[kFewKeys];
    HashKeysBatch(data, offsets, 0, n, params_.hashing(), hashes);
    return PutFew(hashes, n);
  }
  const ByteKeys keys{data, offsets, params_.hashing()};
  if (exclusive_adds_) {
    kernels_.add(blocks_, keys.source(n));
  } else {
    AddLocked(keys.source(n));
  }
}

void Bloom::ContainsKeys(const uint8_t* data, const uint64_t* offsets, size_t n,
                         uint8_t* out) const {
  seen::ContainsKeys(kernels_, blocks_, params_.hashing(), data, offsets, n, out);
}

bool Bloom::PutU64(uint64_t id) { return PutHash(HashU64(id, params_.hashing())); }

bool Bloom::PutKey(const void* key, size_t len) { return PutHash(HashBytes(key, len, params_.hashing())); }

void Bloom::BlocksOfU64(const uint64_t* ids, size_t n, uint64_t* out) const {
  HashU64Batch(ids, n, params_.hashing(), out);
  BlockIndexBatch(out, n, params_.blocks, out);
}

void Bloom::BlocksOfKeys(const uint8_t* data, const uint64_t* offsets, size_t n,
                         uint64_t* out) const {
  HashKeysBatch(data, offsets, 0, n, params_.hashing(), out);
  BlockIndexBatch(out, n, params_.blocks, out);
}

void Bloom::OrBlocks(uint64_t first, uint64_t count, const uint8_t* blocks) {
  RequireWritable();
  if (first > params_.blocks || count > params_.blocks - first) {
    throw Error(Code::kInvalidArgument, "blocks [" + std::to_string(first) + ", " +
                                            std::to_string(first) + " + " +
                                            std::to_string(count) + ") are outside the " +
                                            std::to_string(params_.blocks) + " blocks");
  }
  // Stripe by stripe under their locks, as batch adds write with plain stores.
  for (uint64_t b = first; b < first + count;) {
    const uint64_t stripe = b >> stripe_shift_;
    const uint64_t end = std::min(first + count, (stripe + 1) << stripe_shift_);
    std::lock_guard<std::mutex> lock(stripes_[stripe]);
    for (uint64_t i = b * kBlockWords; i < end * kBlockWords; ++i) {
      uint64_t word;
      std::memcpy(&word, blocks + 8 * (i - first * kBlockWords), sizeof word);  // may be unaligned
      __atomic_fetch_or(&blocks_.words[i], word, __ATOMIC_RELAXED);
    }
    b = end;
  }
}

void Bloom::RequireSameShape(const Bloom& other, const char* action) const {
  const BloomParams& a = params_;
  const BloomParams& b = other.params_;
  auto mismatch = [&](const char* field, uint64_t mine, uint64_t theirs) {
    throw Error(Code::kIncompatible, std::string("cannot ") + action + ": " + field + " differs (" +
                                         std::to_string(mine) + " vs " + std::to_string(theirs) + ")");
  };
  if (a.blocks != b.blocks) mismatch("block count", a.blocks, b.blocks);
  if (a.k != b.k) mismatch("k", a.k, b.k);
  if (a.seed != b.seed) mismatch("seed", a.seed, b.seed);
  if (a.key != b.key) {
    throw Error(Code::kIncompatible,
                std::string("cannot ") + action + ": one filter is keyed and the other is not, or their keys differ");
  }
}

void Bloom::Merge(const Bloom& other) {
  RequireWritable();
  RequireSameShape(other, "merge");
  const auto* src = reinterpret_cast<const uint64_t*>(other.bytes());
  const uint64_t words = params_.blocks * kBlockWords;
  for (uint64_t i = 0; i < words; ++i) {
    __atomic_fetch_or(&blocks_.words[i], src[i], __ATOMIC_RELAXED);
  }
}

void Bloom::Intersect(const Bloom& other) {
  RequireWritable();
  RequireSameShape(other, "intersect");
  const auto* src = reinterpret_cast<const uint64_t*>(other.bytes());
  const uint64_t words = params_.blocks * kBlockWords;
  for (uint64_t i = 0; i < words; ++i) {
    __atomic_fetch_and(&blocks_.words[i], src[i], __ATOMIC_RELAXED);
  }
}

bool Bloom::Covers(const Bloom& other) const {
  RequireSameShape(other, "compare");
  const auto* mine = reinterpret_cast<const uint64_t*>(bytes());
  const auto* theirs = reinterpret_cast<const uint64_t*>(other.bytes());
  const uint64_t words = params_.blocks * kBlockWords;
  for (uint64_t i = 0; i < words; ++i) {
    if ((theirs[i] & ~mine[i]) != 0) return false;
  }
  return true;
}

void Bloom::Clear() {
  RequireWritable();
  std::memset(region_.data(), 0, params_.bytes());
}

BloomStats Bloom::Stats() const {
  // Exact for the filter as it is: the chance that a random absent key finds its k bits set,
  // averaged over blocks and start words, from each word's popcount.
  const uint32_t k = params_.k;
  uint64_t set_bits = 0;
  double fpr_sum = 0.0;
  for (uint64_t b = 0; b < params_.blocks; ++b) {
    const uint64_t* block = blocks_.words + b * kBlockWords;
    double fill[kBlockWords];
    for (unsigned w = 0; w < kBlockWords; ++w) {
      const int ones = __builtin_popcountll(block[w]);
      set_bits += static_cast<uint64_t>(ones);
      fill[w] = ones / 64.0;
    }
    for (unsigned start = 0; start < kBlockWords; ++start) {
      double p = 1.0;
      for (uint32_t j = 0; j < k; ++j) p *= fill[(start + j) & (kBlockWords - 1)];
      fpr_sum += p;
    }
  }
  const double total_bits = static_cast<double>(params_.blocks) * kBlockBits;
  const double fill_ratio = static_cast<double>(set_bits) / total_bits;
  // Each key sets each bit of the filter with probability k / bits, so the zero fraction is
  // exp(-items * k / bits) in expectation.
  const double approx_items =
      fill_ratio >= 1.0 ? INFINITY : -std::log1p(-fill_ratio) * total_bits / k;
  return {fill_ratio, approx_items, fpr_sum / (static_cast<double>(params_.blocks) * kBlockWords)};
}

}  // namespace seen
