#include "core/window_ring.h"

#include <cmath>
#include <cstring>
#include <vector>

#include "core/fingerprint_meet.h"
#include "core/format.h"
#include "core/window_ring_kernels.h"

namespace seen {

namespace {

uint16_t Fingerprint(uint64_t hash) {
  const auto fp = static_cast<uint16_t>(hash >> 48);
  return fp == 0 ? 1 : fp;
}

uint16_t EntryAt(const uint8_t* entries, uint64_t e) { return LoadLe16(entries + 2 * e); }

// Up to this many items, scanning the ring for each (RingFind) beats building a set, on
// AVX2 at a ring of 500 (bench_window_query).
constexpr size_t kRingScanLimit = 24;

// Entry `at` becomes the newest, the entries after it up to `newest` one step back: at most
// two moves of contiguous entries and one across the ring's end.
void MoveToNewest(uint8_t* entries, uint32_t span, uint32_t at, uint32_t newest) {
  const uint16_t fp = EntryAt(entries, at);
  uint8_t* from = entries + 2 * static_cast<uint64_t>(at);
  if (at > newest) {
    std::memmove(from, from + 2, 2 * static_cast<uint64_t>(span - 1 - at));
    std::memcpy(entries + 2 * static_cast<uint64_t>(span - 1), entries, 2);
    at = 0;
    from = entries;
  }
  std::memmove(from, from + 2, 2 * static_cast<uint64_t>(newest - at));
  StoreLe16(entries + 2 * static_cast<uint64_t>(newest), fp);
}

// A batch meets the ring through this thread's sets, built from the smaller side: from the
// ring, each entry costs one bit written; from the batch, one pass over the ring keeps the
// fingerprints both hold, asking the batch's small filter before its set, so most entries
// cost a read of the filter's 8 cache lines. Either way `held` ends up a superset of the
// batch's fingerprints that the ring holds, and EraseHeld leaves every set empty again.
void InsertHeld(MeetScratch& s, const uint8_t* entries, uint32_t span, const uint64_t* hashes,
                size_t n, bool from_ring) {
  if (from_ring) {
    for (uint32_t e = 0; e < span; ++e) s.held.Insert(EntryAt(entries, e));
    return;
  }
  for (size_t i = 0; i < n; ++i) {
    const uint16_t fp = Fingerprint(hashes[i]);
    s.near.Insert(fp);
    s.batch.Insert(fp);
  }
  for (uint32_t e = 0; e < span; ++e) {
    const uint16_t entry = EntryAt(entries, e);
    if (s.near.Has(entry) && s.batch.Has(entry)) s.held.Insert(entry);
  }
}

// After InsertHeld, and any Insert into `held` of the batch's own fingerprints, with the
// ring as InsertHeld read it.
void EraseHeld(MeetScratch& s, const uint8_t* entries, uint32_t span, const uint64_t* hashes,
               size_t n, bool from_ring) {
  if (from_ring && span + n > kEraseEachUpTo) return s.held.EraseAll();
  if (from_ring) {
    for (uint32_t e = 0; e < span; ++e) s.held.EraseWordOf(EntryAt(entries, e));
  }
  // From the ring, `near` and `batch` were never written: only `held` holds batch items.
  for (size_t i = 0; i < n; ++i) {
    const uint16_t fp = Fingerprint(hashes[i]);
    if (!from_ring) s.near.EraseWordOf(fp), s.batch.EraseWordOf(fp);
    s.held.EraseWordOf(fp);
  }
}

}  // namespace

WindowSaturation RingSaturation(const WindowParams& p, const uint8_t* state) {
  const uint8_t* entries = state + kRingHeaderBytes;
  uint32_t used = 0;
  for (uint32_t e = 0; e < p.span; ++e) used += EntryAt(entries, e) != 0;
  return {static_cast<double>(used) / p.span,
          1 - std::pow(1 - 1.0 / (kFingerprintSpace - 1), static_cast<double>(used))};
}

// An item whose fingerprint the ring holds moves to its newest entry, the entries after it
// one step back, rather than taking a new one: a replayed mark (clients retry) then pushes
// nothing out, and every item among the last `span` marks is still found, since each mark
// puts at most one entry ahead of an older one. Batches filter through the set first (a
// superset of what the ring holds as the batch goes), so most items skip the scan.
void RingAdd(const WindowParams& p, uint8_t* state, const uint64_t* hashes, size_t n) {
  uint8_t* entries = state + kRingHeaderBytes;
  uint32_t next = LoadLe32(state);
  MeetScratch& s = ThreadMeetScratch();
  const bool filtered = n > kRingScanLimit;
  const bool from_ring = n >= p.span;
  if (filtered) InsertHeld(s, entries, p.span, hashes, n, from_ring);
  for (size_t i = 0; i < n; ++i) {
    const uint16_t fp = Fingerprint(hashes[i]);
    uint32_t at = !filtered || s.held.Has(fp) ? RingFind(entries, p.span, fp) : p.span;
    if (at == p.span) {
      StoreLe16(entries + 2 * static_cast<uint64_t>(next), fp);
      next = next + 1 == p.span ? 0 : next + 1;
      if (filtered) s.held.Insert(fp);
      continue;
    }
    MoveToNewest(entries, p.span, at, next == 0 ? p.span - 1 : next - 1);
  }
  StoreLe32(state, next);
  // Built from the ring, `held` also has entries the batch pushed out: all of it goes.
  if (filtered && from_ring) s.held.EraseAll();
  if (filtered && !from_ring) EraseHeld(s, entries, p.span, hashes, n, false);
}

void RingContains(const WindowParams& p, const uint8_t* state, const uint64_t* hashes,
                  size_t n, uint8_t* out) {
  const uint8_t* entries = state + kRingHeaderBytes;
  if (n <= kRingScanLimit) {
    for (size_t i = 0; i < n; ++i) out[i] = RingFind(entries, p.span, Fingerprint(hashes[i])) != p.span;
    return;
  }
  MeetScratch& s = ThreadMeetScratch();
  const bool from_ring = n >= p.span;
  InsertHeld(s, entries, p.span, hashes, n, from_ring);
  for (size_t i = 0; i < n; ++i) out[i] = s.held.Has(Fingerprint(hashes[i]));
  EraseHeld(s, entries, p.span, hashes, n, from_ring);
}

}  // namespace seen
