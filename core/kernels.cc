// SIMD kernels: batch XXH3 (or keyed SipHash-1-3) of u64 ids, block pattern building, probe
// and set. Highway compiles this file once per target (foreach_target) and
// HWY_DYNAMIC_DISPATCH picks the best target at run time: for the filter kernels once, when
// a filter is made (ChosenKernels), and not on each call. Every target computes exactly the scalar reference of block.h
// and hash.h, which tests/test_simd_targets.cc checks target by target.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "core/kernels.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include <hwy/cache_control.h>

#include "core/simd_mul-inl.h"

#include <utility>

#include "core/block.h"
#include "core/hash.h"
#include "core/kernels.h"

HWY_BEFORE_NAMESPACE();
namespace seen {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// At most 8 lanes of u64: one block is then a whole number of vectors on every target.
using D64 = hn::CappedTag<uint64_t, kBlockWords>;
using V64 = hn::Vec<D64>;

template <int kBits>
HWY_INLINE V64 Rotl64(V64 v) {
  return hn::RotateRight<64 - kBits>(v);  // one instruction where the target has it (AVX-512)
}

// XXH3_64bits_withSeed for exactly 8 input bytes (XXH3_len_4to8_64b), lane-parallel.
void HashU64BatchImpl(const uint64_t* HWY_RESTRICT ids, size_t n, uint64_t seed,
                      uint64_t* HWY_RESTRICT hashes) {
  const D64 d;
  const size_t lanes = hn::Lanes(d);
  const uint64_t folded_seed = seed ^ (uint64_t{__builtin_bswap32(static_cast<uint32_t>(seed))} << 32);
  uint64_t secret8, secret16;
  memcpy(&secret8, XXH3_kSecret + 8, 8);
  memcpy(&secret16, XXH3_kSecret + 16, 8);
  const V64 bitflip = hn::Set(d, (secret8 ^ secret16) - folded_seed);
  const V64 prime = hn::Set(d, 0x9FB21C651E98DF25ULL);
  const V64 len = hn::Set(d, 8);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    // input64 = high half + (low half << 32): the id rotated by 32.
    V64 h = hn::Xor(Rotl64<32>(hn::LoadU(d, ids + i)), bitflip);
    h = hn::Xor(h, hn::Xor(Rotl64<49>(h), Rotl64<24>(h)));
    h = Mul64(h, prime);
    h = hn::Xor(h, hn::Add(hn::ShiftRight<35>(h), len));
    h = Mul64(h, prime);
    h = hn::Xor(h, hn::ShiftRight<28>(h));
    hn::StoreU(h, d, hashes + i);
  }
  for (; i < n; ++i) hashes[i] = HashU64(ids[i], seed);
}

// One SipRound on every lane (core/siphash.h).
HWY_INLINE void SipRound(V64& v0, V64& v1, V64& v2, V64& v3) {
  v0 = hn::Add(v0, v1), v1 = hn::Xor(Rotl64<13>(v1), v0), v0 = Rotl64<32>(v0);
  v2 = hn::Add(v2, v3), v3 = hn::Xor(Rotl64<16>(v3), v2);
  v0 = hn::Add(v0, v3), v3 = hn::Xor(Rotl64<21>(v3), v0);
  v2 = hn::Add(v2, v1), v1 = hn::Xor(Rotl64<17>(v1), v2), v2 = Rotl64<32>(v2);
}

// One word m into the state, with one round (SipHash-1-x).
HWY_INLINE void SipAbsorb(V64& v0, V64& v1, V64& v2, V64& v3, V64 m) {
  v3 = hn::Xor(v3, m);
  SipRound(v0, v1, v2, v3);
  v0 = hn::Xor(v0, m);
}

// SipHash13U64 (core/siphash.h), lane-parallel: an id is one word, then the length word.
void SipHashU64BatchImpl(const uint64_t* HWY_RESTRICT ids, size_t n, uint64_t k0, uint64_t k1,
                         uint64_t* HWY_RESTRICT hashes) {
  const D64 d;
  const size_t lanes = hn::Lanes(d);
  const SipState init(k0, k1);
  const V64 length_word = hn::Set(d, uint64_t{8} << 56);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    V64 v0 = hn::Set(d, init.v0), v1 = hn::Set(d, init.v1), v2 = hn::Set(d, init.v2), v3 = hn::Set(d, init.v3);
    SipAbsorb(v0, v1, v2, v3, hn::LoadU(d, ids + i));
    SipAbsorb(v0, v1, v2, v3, length_word);
    v2 = hn::Xor(v2, hn::Set(d, 0xff));
    for (int r = 0; r < 3; ++r) SipRound(v0, v1, v2, v3);
    hn::StoreU(hn::Xor(hn::Xor(v0, v1), hn::Xor(v2, v3)), d, hashes + i);
  }
  for (; i < n; ++i) hashes[i] = SipHash13U64(k0, k1, ids[i]);
}

// Which words belong to a key's run, for every k and start: kRunMask[k][i] is all ones when
// (i mod 8) < k, so the mask of the run that starts at word s is kRunMask[k] + 8 - s.
struct RunMasks {
  alignas(64) uint64_t mask[kMaxK + 1][2 * kBlockWords];
  constexpr RunMasks() : mask() {
    for (uint32_t k = 0; k <= kMaxK; ++k) {
      for (unsigned i = 0; i < 2 * kBlockWords; ++i) mask[k][i] = (i % kBlockWords) < k ? ~uint64_t{0} : 0;
    }
  }
};
constexpr RunMasks kRunMasks;

// The key's bit pattern for the words [first, first + lanes) of its block.
HWY_INLINE V64 PatternPart(D64 d, size_t first, uint32_t h32, const uint64_t* run_mask) {
  const V64 salts = hn::LoadU(d, kWordSalt64 + first);
  // (h32 * salt) mod 2^32 sits in the low half of the 64-bit product; its top 6 bits pick
  // the bit within the word.
  const V64 product = MulLow32(hn::Set(d, h32), salts);
  const V64 bit_index = hn::And(hn::ShiftRight<26>(product), hn::Set(d, 63));
  const V64 bits = hn::Shl(hn::Set(d, 1), bit_index);
  return hn::And(bits, hn::LoadU(d, run_mask + first));
}

HWY_INLINE const uint64_t* RunMask(uint32_t h32, uint32_t k) {
  return kRunMasks.mask[k] + kBlockWords - StartWord(h32);
}

HWY_INLINE bool Probe(const uint64_t* HWY_RESTRICT block, uint32_t h32, uint32_t k) {
  const D64 d;
  const size_t lanes = hn::Lanes(d);
  const uint64_t* run_mask = RunMask(h32, k);
  V64 missing = hn::Zero(d);
  for (size_t first = 0; first < kBlockWords; first += lanes) {
    const V64 pattern = PatternPart(d, first, h32, run_mask);
    missing = hn::Or(missing, hn::AndNot(hn::LoadU(d, block + first), pattern));
  }
  return hn::AllTrue(d, hn::Eq(missing, hn::Zero(d)));
}

HWY_INLINE void SetExclusive(uint64_t* HWY_RESTRICT block, uint32_t h32, uint32_t k) {
  const D64 d;
  const size_t lanes = hn::Lanes(d);
  const uint64_t* run_mask = RunMask(h32, k);
  for (size_t first = 0; first < kBlockWords; first += lanes) {
    const V64 pattern = PatternPart(d, first, h32, run_mask);
    hn::StoreU(hn::Or(hn::LoadU(d, block + first), pattern), d, block + first);
  }
}

// How many keys ahead a batch prefetches: enough to cover DRAM latency with the line fill
// buffers a core has (measured in bench/).
constexpr size_t kPrefetchAhead = 32;
// Keys are hashed kHashStep at a time, 2 steps ahead of the probe, so hashing overlaps the
// memory reads in flight instead of stalling them.
constexpr size_t kHashStep = 16;
constexpr size_t kRing = 128;  // >= kPrefetchAhead + 3 steps: no slot is reused while live

struct Slot {
  uint64_t* block;
  uint32_t h32;
};

void Fill(const Blocks& b, const KeySource& keys, size_t begin, Slot* ring) {
  if (begin >= keys.size) return;
  const size_t count = HWY_MIN(kHashStep, keys.size - begin);
  uint64_t hashes[kHashStep];
  keys.hash(keys.context, begin, count, hashes);
  for (size_t j = 0; j < count; ++j) {
    ring[(begin + j) % kRing] = {BlockAt(b, hashes[j]), static_cast<uint32_t>(hashes[j])};
  }
}

// Visits every key with its block: hash two steps ahead, prefetch kPrefetchAhead keys ahead,
// probe. The pipeline never drains until the batch ends.
template <class Visit>
HWY_INLINE void Pipeline(const Blocks& b, const KeySource& keys, const Visit& visit) {
  Slot ring[kRing];
  Fill(b, keys, 0, ring);
  Fill(b, keys, kHashStep, ring);
  const size_t n = keys.size;
  for (size_t i = 0; i < n && i < kPrefetchAhead; ++i) hwy::Prefetch(ring[i].block);
  for (size_t i = 0; i < n; ++i) {
    if (i % kHashStep == 0) Fill(b, keys, i + 2 * kHashStep, ring);
    if (i + kPrefetchAhead < n) hwy::Prefetch(ring[(i + kPrefetchAhead) % kRing].block);
    const Slot& slot = ring[i % kRing];
    visit(i, slot.block, slot.h32);
  }
}

void ContainsImpl(const Blocks& b, const KeySource& keys, uint8_t* HWY_RESTRICT out) {
  Pipeline(b, keys, [&](size_t i, const uint64_t* block, uint32_t h32) {
    out[i] = Probe(block, h32, b.k) ? 1 : 0;
  });
}

void AddImpl(const Blocks& b, const KeySource& keys) {
  Pipeline(b, keys, [&](size_t, uint64_t* block, uint32_t h32) { SetExclusive(block, h32, b.k); });
}

void ContainsFewImpl(const Blocks& b, const uint64_t* HWY_RESTRICT hashes, size_t n,
                     uint8_t* HWY_RESTRICT out) {
  const uint64_t* blocks[kFewKeys];
  for (size_t i = 0; i < n; ++i) {
    blocks[i] = BlockAt(b, hashes[i]);
    hwy::Prefetch(blocks[i]);
  }
  for (size_t i = 0; i < n; ++i) out[i] = Probe(blocks[i], static_cast<uint32_t>(hashes[i]), b.k) ? 1 : 0;
}

bool ProbeOneImpl(const Blocks& b, uint64_t hash) {
  return Probe(BlockAt(b, hash), static_cast<uint32_t>(hash), b.k);
}

// Reads the block once and writes it once, as vectors: k scalar stores per key filled the
// store buffer, so a loop of single adds kept fewer block misses in flight.
bool PutOneImpl(const Blocks& b, uint64_t hash) {
  const D64 d;
  const size_t lanes = hn::Lanes(d);
  uint64_t* HWY_RESTRICT block = BlockAt(b, hash);
  const auto h32 = static_cast<uint32_t>(hash);
  const uint64_t* run_mask = RunMask(h32, b.k);
  V64 missing = hn::Zero(d);
  for (size_t first = 0; first < kBlockWords; first += lanes) {
    const V64 pattern = PatternPart(d, first, h32, run_mask);
    const V64 old = hn::LoadU(d, block + first);
    missing = hn::Or(missing, hn::AndNot(old, pattern));
    hn::StoreU(hn::Or(old, pattern), d, block + first);
  }
  return hn::AllTrue(d, hn::Eq(missing, hn::Zero(d)));
}

Kernels KernelsImpl() { return {&ContainsImpl, &ContainsFewImpl, &ProbeOneImpl, &AddImpl, &PutOneImpl}; }

}  // namespace HWY_NAMESPACE
}  // namespace seen
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace seen {

HWY_EXPORT(HashU64BatchImpl);
HWY_EXPORT(SipHashU64BatchImpl);
HWY_EXPORT(KernelsImpl);

void HashU64Batch(const uint64_t* ids, size_t n, const Hashing& h, uint64_t* hashes) {
  if (h.key) HWY_DYNAMIC_DISPATCH(SipHashU64BatchImpl)(ids, n, h.key->k0 ^ h.seed, h.key->k1, hashes);
  else HWY_DYNAMIC_DISPATCH(HashU64BatchImpl)(ids, n, h.seed, hashes);
}

Kernels ChosenKernels() { return HWY_DYNAMIC_DISPATCH(KernelsImpl)(); }

const char* ChosenTargetName() {
  // The dispatcher takes the best (lowest-bit) target that is both supported and compiled.
  const int64_t usable = hwy::SupportedTargets() & HWY_TARGETS;
  return hwy::TargetName(usable & -usable);
}

}  // namespace seen
#endif  // HWY_ONCE
