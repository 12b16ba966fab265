// SIMD kernels: batch XXH3 (or keyed SipHash-1-3) of u64 ids, XXH3 of 16-byte keys, block
// pattern building, probe and set. Highway compiles this file once per target (foreach_target) and
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

// The little-endian word of XXH3's default secret at a byte offset.
HWY_INLINE uint64_t SecretWord(size_t offset) {
  uint64_t word;
  memcpy(&word, XXH3_kSecret + offset, 8);
  return word;
}

// XXH3_64bits_withSeed for exactly 8 input bytes (XXH3_len_4to8_64b), lane-parallel. The
// seed enters only through bitflip (Xxh3Bitflip).
HWY_INLINE V64 Xxh3Bitflip(D64 d, uint64_t seed) {
  const uint64_t folded_seed = seed ^ (uint64_t{__builtin_bswap32(static_cast<uint32_t>(seed))} << 32);
  return hn::Set(d, (SecretWord(8) ^ SecretWord(16)) - folded_seed);
}

HWY_INLINE V64 Xxh3Lanes(D64 d, V64 ids, V64 bitflip) {
  const V64 prime = hn::Set(d, 0x9FB21C651E98DF25ULL);
  // input64 = high half + (low half << 32): the id rotated by 32.
  V64 h = hn::Xor(Rotl64<32>(ids), bitflip);
  h = hn::Xor(h, hn::Xor(Rotl64<49>(h), Rotl64<24>(h)));
  h = Mul64(h, prime);
  h = hn::Xor(h, hn::Add(hn::ShiftRight<35>(h), hn::Set(d, 8)));
  h = Mul64(h, prime);
  return hn::Xor(h, hn::ShiftRight<28>(h));
}

// The bytes of every lane in reverse order (XXH_swap64).
HWY_INLINE V64 ByteSwap64(D64 d, V64 v) {
#if HWY_TARGET == HWY_SCALAR
  return hn::Set(d, __builtin_bswap64(hn::GetLane(v)));
#else
  // Indices within each 16-byte block, as TableLookupBytes takes them on every target.
  static constexpr struct Swap {
    alignas(64) uint8_t index[8 * kBlockWords];
    constexpr Swap() : index() {
      for (unsigned i = 0; i < 8 * kBlockWords; ++i) index[i] = static_cast<uint8_t>((i & 8) + 7 - (i & 7));
    }
  } kSwap;
  const hn::Repartition<uint8_t, D64> d8;
  return hn::BitCast(d, hn::TableLookupBytes(hn::BitCast(d8, v), hn::Load(d8, kSwap.index)));
#endif
}

// XXH3_64bits_withSeed for exactly 16 input bytes (XXH3_len_9to16_64b), lane-parallel: each
// key's first and second 8 bytes in `first` and `second`; the seed enters only through the
// bitflips, (secret[24..32) ^ secret[32..40)) + seed and (secret[40..48) ^ secret[48..56)) - seed.
HWY_INLINE V64 Xxh3Lanes16(D64 d, V64 first, V64 second, V64 bitflip1, V64 bitflip2) {
  const V64 lo = hn::Xor(first, bitflip1);
  const V64 hi = hn::Xor(second, bitflip2);
  V64 h = hn::Add(hn::Add(hn::Set(d, 16), ByteSwap64(d, lo)), hn::Add(hi, MulFold64(lo, hi)));
  h = hn::Xor(h, hn::ShiftRight<37>(h));  // XXH3_avalanche
  h = Mul64(h, hn::Set(d, 0x165667919E3779F9ULL));
  return hn::Xor(h, hn::ShiftRight<32>(h));
}

void HashU64BatchImpl(const uint64_t* HWY_RESTRICT ids, size_t n, uint64_t seed,
                      uint64_t* HWY_RESTRICT hashes) {
  const D64 d;
  const size_t lanes = hn::Lanes(d);
  const V64 bitflip = Xxh3Bitflip(d, seed);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) hn::StoreU(Xxh3Lanes(d, hn::LoadU(d, ids + i), bitflip), d, hashes + i);
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
// Keys are hashed and placed kStageAhead keys ahead of the probe, a step at a time, into a
// ring of kRing slots (a key's block address and hash), from which the probe prefetches.
constexpr size_t kStageAhead = 64;
constexpr size_t kRing = 128;
static_assert(sizeof(uintptr_t) == sizeof(uint64_t), "block addresses are held in u64 lanes");

// BlockIndex lane by lane, exactly, for fewer than 2^32 blocks: the high 64 bits of
// hash * blocks, from two 32x32->64-bit products. With hash = hi * 2^32 + lo, the product is
// hi * blocks * 2^32 + lo * blocks, and hi * blocks + (lo * blocks >> 32) < 2^64.
HWY_INLINE V64 BlockIndexLanes(V64 hash, V64 blocks) {
  const V64 low = MulLow32(hash, blocks);
  const V64 high = MulLow32(hn::ShiftRight<32>(hash), blocks);
  return hn::ShiftRight<32>(hn::Add(high, hn::ShiftRight<32>(low)));
}

HWY_INLINE V64 BlockAddresses(V64 hash, V64 blocks, V64 base) {
  return hn::Add(base, hn::ShiftLeft<6>(BlockIndexLanes(hash, blocks)));
}

void BlockIndexBatchImpl(const uint64_t* hashes, size_t n, uint64_t blocks,
                         uint64_t* out) {  // out may be hashes
  const D64 d;
  const size_t lanes = hn::Lanes(d);
  size_t i = 0;
  if (blocks <= 0xFFFFFFFFu) {
    const V64 count = hn::Set(d, blocks);
    for (; i + lanes <= n; i += lanes) hn::StoreU(BlockIndexLanes(hn::LoadU(d, hashes + i), count), d, out + i);
  }
  for (; i < n; ++i) out[i] = BlockIndex(hashes[i], blocks);
}

// The length every byte key of [begin, begin + count) has (count >= 1), or ~0 where their
// lengths differ or an offset decreases: one pass over the offsets, without a branch.
HWY_INLINE uint64_t SameLength(const uint64_t* HWY_RESTRICT offsets, size_t count) {
  const uint64_t len = offsets[1] - offsets[0];
  uint64_t differ = 0;
  for (size_t i = 1; i < count; ++i) differ |= (offsets[i + 1] - offsets[i]) ^ len;
  return differ == 0 ? len : ~uint64_t{0};
}

// XXH3_64bits_withSeed of byte keys [begin, begin + count) into hash[0, count) where they all
// have one length of 9 to 128 bytes, with no call or dispatch per key: 16-byte keys in
// vectors, other lengths by xxhash's own code for their length, inlined; false (nothing
// written) for any other run, which the KeySource's call then hashes (and checks). Not
// inlined into the pipeline, where its registers spilled; called once a step.
HWY_NOINLINE bool HashSameLength(const KeySource& keys, size_t begin, size_t count, uint64_t* HWY_RESTRICT hash) {
  const uint64_t* offsets = keys.offsets + begin;
  const uint64_t len = SameLength(offsets, count);
  const uint8_t* key = keys.data + offsets[0];
  if (len >= 9 && len <= 128) {
    // The keys and offsets of the step after next, if they follow (a prefetch past the
    // buffer's end is harmless, and its address is computed as an integer, since a pointer
    // may not point past its buffer): with the hardware's stream prefetch alone, the hash
    // waited on these loads (bench_split_block, 10^6 keys).
    const uintptr_t later_keys = reinterpret_cast<uintptr_t>(key) + 2 * count * len;
    const uintptr_t later_offsets = reinterpret_cast<uintptr_t>(offsets) + 2 * count * sizeof(uint64_t);
    for (size_t line = 0; line < count * len; line += 64) hwy::Prefetch(reinterpret_cast<const uint8_t*>(later_keys + line));
    for (size_t line = 0; line < count * sizeof(uint64_t); line += 64) {
      hwy::Prefetch(reinterpret_cast<const uint8_t*>(later_offsets + line));
    }
  }
  // Highway's emulated targets read LoadInterleaved2's input as u64s where it lies, and keys
  // need not be 8-byte aligned (undefined behaviour, which UBSan caught): there, 16-byte keys
  // go one at a time like the other lengths.
  constexpr bool kVectors = HWY_TARGET != HWY_EMU128 && HWY_TARGET != HWY_SCALAR;
  if (len == 16 && kVectors) {  // the commonest fixed length (two ids, a UUID): in vectors
    const D64 d;
    const size_t lanes = hn::Lanes(d);
    size_t i = 0;
    const V64 bitflip1 = hn::Set(d, (SecretWord(24) ^ SecretWord(32)) + keys.seed);
    const V64 bitflip2 = hn::Set(d, (SecretWord(40) ^ SecretWord(48)) - keys.seed);
    for (; i + lanes <= count; i += lanes) {
      V64 first, second;
      hn::LoadInterleaved2(d, reinterpret_cast<const uint64_t*>(key + 16 * i), first, second);
      hn::StoreU(Xxh3Lanes16(d, first, second, bitflip1, bitflip2), d, hash + i);
    }
    for (; i < count; ++i) hash[i] = XXH3_len_9to16_64b(key + 16 * i, 16, XXH3_kSecret, keys.seed);
  } else if (len >= 9 && len <= 16) {
    for (size_t i = 0; i < count; ++i) hash[i] = XXH3_len_9to16_64b(key + len * i, len, XXH3_kSecret, keys.seed);
  } else if (len > 16 && len <= 128) {
    for (size_t i = 0; i < count; ++i) {
      hash[i] = XXH3_len_17to128_64b(key + len * i, len, XXH3_kSecret, sizeof XXH3_kSecret, keys.seed);
    }
  } else {
    return false;
  }
  return true;
}

// Hashes keys [begin, begin + count), count <= kStep, into hash[0, count) and their blocks'
// addresses into address[0, count); the addresses past count, up to kStep, are the first
// block's, so that prefetching them is harmless.
template <size_t kStep>
HWY_INLINE void Stage(const Blocks& b, const KeySource& keys, size_t begin, size_t count,
                      uint64_t* HWY_RESTRICT address, uint64_t* HWY_RESTRICT hash) {
  const D64 d;
  const size_t lanes = hn::Lanes(d);
  const uint64_t* hashes = keys.hashes ? keys.hashes + begin : hash;
  if (count > 0 && !keys.ids && !keys.hashes && !(keys.offsets && HashSameLength(keys, begin, count, hash))) {
    keys.hash(keys.context, begin, count, hash);
  }
  size_t i = 0;
  if (b.count <= 0xFFFFFFFFu) {
    const V64 blocks = hn::Set(d, b.count);
    const V64 base = hn::Set(d, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(b.words)));
    if (keys.ids) {
      const V64 bitflip = Xxh3Bitflip(d, keys.seed);
      for (; i + lanes <= count; i += lanes) {
        const V64 h = Xxh3Lanes(d, hn::LoadU(d, keys.ids + begin + i), bitflip);
        hn::StoreU(h, d, hash + i);
        hn::StoreU(BlockAddresses(h, blocks, base), d, address + i);
      }
    } else {
      for (; i + lanes <= count; i += lanes) {
        const V64 h = hn::LoadU(d, hashes + i);
        hn::StoreU(h, d, hash + i);
        hn::StoreU(BlockAddresses(h, blocks, base), d, address + i);
      }
    }
  }
  for (; i < count; ++i) {
    const uint64_t h = keys.ids ? HashU64(keys.ids[begin + i], keys.seed) : hashes[i];
    hash[i] = h;
    address[i] = reinterpret_cast<uintptr_t>(BlockAt(b, h));
  }
  for (; i < kStep; ++i) address[i] = reinterpret_cast<uintptr_t>(b.words);
}

// Visits every key with its block: hash and place kStageAhead keys ahead, kStep keys at a
// time; prefetch kPrefetchAhead keys ahead; probe. The pipeline never drains until the batch
// ends, and the probe loop has no branch but its end.
template <size_t kStep, class Visit>
HWY_INLINE void Pipeline(const Blocks& b, const KeySource& keys, const Visit& visit) {
  static_assert(kRing % kStep == 0 && kStageAhead % kStep == 0, "a step fills whole ring slots");
  static_assert(kStageAhead >= kPrefetchAhead, "a key is placed before it is prefetched");
  static_assert(kRing >= kStageAhead + kStep, "no slot is reused while live");
  alignas(64) uint64_t address[kRing];
  alignas(64) uint64_t hash[kRing];
  const size_t n = keys.size;
  for (size_t begin = 0; begin < kStageAhead; begin += kStep) {
    Stage<kStep>(b, keys, begin, begin < n ? HWY_MIN(n - begin, kStep) : 0, address + begin, hash + begin);
  }
  for (size_t i = 0; i < kPrefetchAhead; ++i) hwy::Prefetch(reinterpret_cast<const uint64_t*>(address[i]));
  for (size_t begin = 0; begin < n; begin += kStep) {
    const size_t ahead = begin + kStageAhead;
    const size_t slot = ahead % kRing;
    Stage<kStep>(b, keys, ahead, ahead < n ? HWY_MIN(n - ahead, kStep) : 0, address + slot, hash + slot);
    const size_t first = begin % kRing;
    const size_t count = HWY_MIN(n - begin, kStep);
    for (size_t j = first; j < first + count; ++j) {
      hwy::Prefetch(reinterpret_cast<const uint64_t*>(address[(j + kPrefetchAhead) % kRing]));
      visit(begin + j - first, reinterpret_cast<uint64_t*>(address[j]), static_cast<uint32_t>(hash[j]));
    }
  }
}

// 32 MiB of blocks: a last-level cache (one Zen 3 CCX's L3).
constexpr uint64_t kCachedBlocks = uint64_t{1} << 19;

// Whether a batch of byte keys looks like one length throughout, from its ends: each step
// still checks its own keys (HashSameLength). Batches that do not go as they went before
// byte keys of one length were hashed in the kernels.
HWY_INLINE bool LooksSameLength(const KeySource& keys) {
  const uint64_t* offsets = keys.offsets;
  return keys.size > 0 && offsets[keys.size] - offsets[0] == keys.size * (offsets[1] - offsets[0]);
}

// Ids and hashes already computed are placed a vector at a time, 64 keys a step, so that the
// vector iterations overlap; keys hashed by a call go 16 a step, so that the call's scalar
// hashing is spread among the probes instead of stalling the prefetches.
template <class Visit>
HWY_INLINE void Pipeline(const Blocks& b, const KeySource& keys, const Visit& visit) {
  if (keys.ids || keys.hashes) return Pipeline<64>(b, keys, visit);
  if (keys.offsets && LooksSameLength(keys)) {
    // 64 a step where the filter fits in a last-level cache; 16 where its blocks come from
    // DRAM, whose prefetches a 64-key burst of hashing delayed (bench_split_block, 16-byte
    // keys / u64 ids, insert: at 10^6 keys 1.17x at 64, 1.23x at 16; at 10^8 1.14x at 64, 1.06x at 16).
    if (b.count <= kCachedBlocks) return Pipeline<64>(b, keys, visit);
    return Pipeline<16>(b, keys, visit);
  }
  KeySource called = keys;  // mixed lengths: every step by the call, with no check of its own
  called.offsets = nullptr;
  Pipeline<16>(b, called, visit);
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
HWY_EXPORT(BlockIndexBatchImpl);

void BlockIndexBatch(const uint64_t* hashes, size_t n, uint64_t blocks, uint64_t* out) {
  HWY_DYNAMIC_DISPATCH(BlockIndexBatchImpl)(hashes, n, blocks, out);
}

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
