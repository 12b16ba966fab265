// MarkHeld on every SIMD target (Highway foreach_target, dispatched per batch). Each array
// takes a chunk of candidates probe by probe, one candidate per 32-bit lane, computing each
// position exactly as window_cells::PositionOf does and gathering its cell. Most fresh
// candidates are out after a few probes, so once few are left the survivors are packed
// together and only they go on: about half the gathers of probing every candidate k times,
// and no branch per candidate. A probe's mixing (three of its five multiplies) is done once
// per chunk for the base and every level, for all candidates as far as some array probes
// them all, and past that for the survivors alone. The scalar reference is
// window_cells::SegmentsHolding; tests/test_simd_targets.cc holds every target to it.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "core/window_kernels.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/aligned_allocator.h>
#include <hwy/cache_control.h>
#include <hwy/highway.h>

#include "core/simd_mul-inl.h"

#include <algorithm>
#include <cstring>
#include <new>

#include "core/window_cells.h"
#include "core/window_kernels.h"

#ifndef SEEN_CORE_WINDOW_KERNELS_CONSTANTS
#define SEEN_CORE_WINDOW_KERNELS_CONSTANTS
namespace seen {
// Candidates go through in chunks of at most this many: enough that the survivors of a
// chunk fill several vectors (so their probes overlap), and their mixed rows fit in L1/L2.
constexpr size_t kMixChunk = 1024;
// Each probe's row of mixed positions is padded to whole vectors of the widest target.
constexpr size_t kRowPad = 16;
// Candidates are packed once at most 1 in this many is left: packing costs about a probe of
// the whole chunk, and each probe after it a second gather per survivor.
constexpr size_t kPackShare = 3;
// The unit in which cells are fetched ahead (MarkHeld).
constexpr uint64_t kCacheLine = 64;

// A chunk's mixed positions, probe-major, mixed for every candidate only as far as some
// array probes them all (MixRows): most candidates are out before the last probes, and
// those left mix their own (MixedAt).
struct MixedRows {
  const uint64_t* hashes;
  size_t n;
  size_t stride;    // n padded to whole vectors: row j is at mixed + j * stride
  uint32_t* mixed;
  uint32_t ready;   // rows mixed so far
};
}  // namespace seen
#endif

HWY_BEFORE_NAMESPACE();
namespace seen {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET != HWY_SCALAR  // one-lane vectors have no 32-bit halves

using D64 = hn::CappedTag<uint64_t, 8>;
using D32 = hn::CappedTag<uint32_t, kRowPad>;
using V32 = hn::Vec<D32>;

// Bits 32..63 of h * salt (mod 2^64), in the low half of each lane: the high half of the low
// product, plus the low halves of the cross products.
template <class V>
HWY_INLINE V Mix(V h, uint64_t salt) {
  const hn::DFromV<V> d;
  return hn::Add(hn::ShiftRight<32>(MulLow32(h, hn::Set(d, salt))),
                 hn::Add(MulLow32(hn::ShiftRight<32>(h), hn::Set(d, salt)), MulLow32(h, hn::Set(d, salt >> 32))));
}

// Mixes rows up to `until` for every candidate (0 past n, up to the row's end).
void MixRows(MixedRows& rows, uint32_t until) {
  for (uint32_t j = rows.ready; j < until; ++j) {
    uint32_t* row = rows.mixed + j * rows.stride;
    size_t i = 0;
    const D64 d;
    const hn::Rebind<uint32_t, D64> d32;
    for (; i + hn::Lanes(d) <= rows.n; i += hn::Lanes(d)) {
      hn::StoreU(hn::TruncateTo(d32, Mix(hn::LoadU(d, rows.hashes + i), window_cells::kPositionSalt[j])), d32, row + i);
    }
    for (; i < rows.n; ++i) row[i] = window_cells::MixOf(rows.hashes[i], j);
    std::fill(row + rows.n, row + rows.stride, 0);
  }
  rows.ready = std::max(rows.ready, until);
}

// The high halves of the 32x32-bit products of each lane with c's.
HWY_INLINE V32 MulHigh32(V32 a, V32 c) {
  const D32 d;
  const hn::Repartition<uint64_t, D32> d64;
  const auto even = hn::MulEven(a, c);
  const auto odd = hn::MulEven(hn::BitCast(d, hn::ShiftRight<32>(hn::BitCast(d64, a))), c);
  return hn::OddEven(hn::BitCast(d, odd), hn::BitCast(d, hn::ShiftRight<32>(even)));
}

// One array's cells. (Its constants are broadcast where they are used: SVE vectors cannot be
// members; the compiler keeps them in registers across the loops.)
struct Cells {
  const uint32_t* words;  // read 4 bytes at any byte offset, as CellAt does
  uint32_t bits, segments;
};

// The cells of each lane's mixed position, shifted down to their first segment: exactly
// CellAt(ScaledPosition(bits, mixed)) in the low S bits. A cell's bit index fits 32 bits (at
// most 2^28 positions of at most 16 bits).
HWY_INLINE V32 CellsAt(const Cells& c, V32 mixed) {
  const D32 d;
  const hn::RebindToSigned<D32> di;
  const V32 bit = hn::Mul(MulHigh32(mixed, hn::Set(d, c.bits)), hn::Set(d, c.segments));
  const V32 cell_bits = hn::GatherOffset(d, c.words, hn::BitCast(di, hn::ShiftRight<3>(bit)));
  return hn::Shr(cell_bits, hn::And(bit, hn::Set(d, 7)));
}

// Probe j's mixed positions of the candidates in `at`: from its row if mixed, else from their
// hashes.
HWY_INLINE V32 MixedAt(const MixedRows& rows, uint32_t j, V32 at) {
  const D32 d;
  const hn::RebindToSigned<D32> di;
  if (j < rows.ready) return hn::GatherIndex(d, rows.mixed + j * rows.stride, hn::BitCast(di, at));
  const hn::Half<D32> dh;
  const hn::Rebind<uint64_t, decltype(dh)> d64;
  const hn::Rebind<int64_t, decltype(dh)> di64;
  const auto mixed_of = [&](hn::Vec<decltype(dh)> half) {
    const auto hashes = hn::GatherIndex(d64, rows.hashes, hn::PromoteTo(di64, hn::BitCast(hn::RebindToSigned<decltype(dh)>(), half)));
    return hn::TruncateTo(dh, Mix(hashes, window_cells::kPositionSalt[j]));
  };
  return hn::Combine(d, mixed_of(hn::UpperHalf(dh, at)), mixed_of(hn::LowerHalf(dh, at)));
}

// Probes j of the candidates in `index` (the first `left` of it, with their `held` segments),
// packing those still held to the front of both. Returns how many.
size_t ProbePacked(const Cells& c, const MixedRows& rows, uint32_t j, uint32_t* index, uint32_t* held, size_t left) {
  const D32 d;
  const size_t lanes = hn::Lanes(d);
  // The last vector's spare lanes probe candidate 0 for no segment: their reads stay in the
  // cells, and they are not kept.
  hn::StoreU(hn::Zero(d), d, index + left);
  hn::StoreU(hn::Zero(d), d, held + left);
  size_t kept = 0;
  for (size_t s = 0; s < left; s += lanes) {
    const V32 at = hn::LoadU(d, index + s);
    const V32 still = hn::And(hn::LoadU(d, held + s), CellsAt(c, MixedAt(rows, j, at)));
    const auto keep = hn::Ne(still, hn::Zero(d));
    // Writes stay behind the reads: kept <= s.
    hn::StoreU(hn::Compress(still, keep), d, held + kept);
    hn::StoreU(hn::Compress(at, keep), d, index + kept);
    kept += hn::CountTrue(d, keep);
  }
  return kept;
}

#endif

// held and index: scratch of at least n + kRowPad each.
void MarkHeldImpl(const window_cells::CellShape& a, const uint8_t* cells, uint32_t live, MixedRows& rows,
                  uint32_t* HWY_RESTRICT held, uint32_t* HWY_RESTRICT index, uint8_t* HWY_RESTRICT out) {
  const size_t n = rows.n;
#if HWY_TARGET != HWY_SCALAR
  const D32 d;
  const size_t lanes = hn::Lanes(d);
  const Cells c{reinterpret_cast<const uint32_t*>(cells), a.bits, a.segments};
  // Every candidate, probe by probe, while many are left: held[i] is the segments still
  // holding candidate i (0 past n, where the rows are padded).
  const size_t padded = (n + lanes - 1) / lanes * lanes;
  std::fill(held, held + n, live);
  std::fill(held + n, held + padded, 0);
  size_t left = n;
  uint32_t j = 0;
  for (; j < a.k && left * kPackShare > n; ++j) {
    MixRows(rows, j + 1);
    const uint32_t* row = rows.mixed + j * rows.stride;
    left = 0;
    for (size_t i = 0; i < padded; i += lanes) {
      const V32 still = hn::And(hn::LoadU(d, held + i), CellsAt(c, hn::LoadU(d, row + i)));
      hn::StoreU(still, d, held + i);
      left += hn::CountTrue(d, hn::Ne(still, hn::Zero(d)));
    }
  }
  if (j == a.k) {
    for (size_t i = 0; i < n; ++i) out[i] |= held[i] != 0;
    return;
  }
  // The next probe packs those still held: index[s] is the candidate whose segments are
  // held[s]. Then only they go on.
  MixRows(rows, j + 1);
  const uint32_t* row = rows.mixed + j * rows.stride;
  left = 0;
  V32 candidates = hn::Iota(d, 0);
  for (size_t i = 0; i < padded; i += lanes, candidates = hn::Add(candidates, hn::Set(d, static_cast<uint32_t>(lanes)))) {
    const V32 still = hn::And(hn::LoadU(d, held + i), CellsAt(c, hn::LoadU(d, row + i)));
    const auto keep = hn::Ne(still, hn::Zero(d));
    hn::StoreU(hn::Compress(still, keep), d, held + left);
    hn::StoreU(hn::Compress(candidates, keep), d, index + left);
    left += hn::CountTrue(d, keep);
  }
  for (++j; j < a.k && left > 0; ++j) left = ProbePacked(c, rows, j, index, held, left);
  for (size_t s = 0; s < left; ++s) out[index[s]] = 1;
#else
  (void)held, (void)index;
  for (size_t i = 0; i < n; ++i) out[i] |= window_cells::SegmentsHolding(a, cells, live, rows.hashes[i]) != 0;
#endif
}

}  // namespace HWY_NAMESPACE
}  // namespace seen
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace seen {

HWY_EXPORT(MarkHeldImpl);

void MarkHeld(const LiveCells* arrays, size_t count, const uint64_t* hashes, size_t n, uint8_t* out) {
  std::memset(out, 0, n);
  // Mixed positions, probe-major, for one chunk of candidates, then each array's scratch: on
  // the heap, as 72 KiB would not fit every thread's stack (musl gives 128 KiB).
  thread_local const hwy::AlignedFreeUniquePtr<uint32_t[]> scratch =
      hwy::AllocateAligned<uint32_t>(kMaxWindowK * kMixChunk + 2 * (kMixChunk + kRowPad));
  if (!scratch) throw std::bad_alloc();
  uint32_t* mixed = scratch.get();
  uint32_t* held = mixed + kMaxWindowK * kMixChunk;
  uint32_t* index = held + kMixChunk + kRowPad;
  // A user's cells are often cold when their batch comes (a store holds millions of users),
  // and a batch with more candidates than an array has cache lines touches nearly all of
  // them: asking for them all at once overlaps their misses, which the probes would
  // otherwise wait on a few at a time.
  for (size_t a = 0; a < count; ++a) {
    const uint64_t bytes = window_cells::CellBytes(arrays[a].shape.bits, arrays[a].shape.segments);
    if (arrays[a].live == 0 || bytes / kCacheLine > n) continue;
    for (uint64_t at = 0; at < bytes; at += kCacheLine) hwy::Prefetch(arrays[a].cells + at);
  }
  for (size_t i = 0; i < n; i += kMixChunk) {
    const size_t m = std::min(kMixChunk, n - i);
    MixedRows rows{hashes + i, m, (m + kRowPad - 1) / kRowPad * kRowPad, mixed, 0};
    for (size_t a = 0; a < count; ++a) {
      if (arrays[a].live == 0) continue;
      HWY_DYNAMIC_DISPATCH(MarkHeldImpl)(arrays[a].shape, arrays[a].cells, arrays[a].live, rows, held, index, out + i);
    }
  }
}

}  // namespace seen
#endif
