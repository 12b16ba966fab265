// How a batch of fingerprints meets the 16-bit fingerprints a window holds (a ring's entries,
// a packed window's decoded segments), through this thread's sets, built from the smaller
// side: from the window, each held item costs one bit written; from the batch, one pass over
// the window keeps the fingerprints both hold, asking the batch's small filter before its
// set, so most held items cost a read of the filter's 8 cache lines. Either way `held` ends
// up a superset of the batch's fingerprints that the window holds, and EraseHeld leaves every
// set empty again.
//
// EachHeld is a callable taking a visitor, which it calls with every fingerprint the window
// holds; ToFingerprint maps a batch item's hash to its fingerprint, as the window does.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/fingerprint_set.h"

namespace seen {

struct MeetScratch {
  FingerprintFilter near;
  FingerprintSet batch;
  FingerprintSet held;
};

// This thread's sets, empty between calls. Out of line: in a shared library each use of a
// thread_local is a call to __tls_get_addr, and GCC, seeing the variable, repeated the call
// in every iteration of the loops over it (half of a ring query's time in the Redis module).
// Behind a call it is a plain reference.
MeetScratch& ThreadMeetScratch();

template <class EachHeld, class ToFingerprint>
void InsertHeld(MeetScratch& s, EachHeld&& each_held, const uint64_t* hashes, size_t n, bool from_window,
                ToFingerprint fingerprint) {
  if (from_window) {
    each_held([&](uint16_t fp) { s.held.Insert(fp); });
    return;
  }
  for (size_t i = 0; i < n; ++i) {
    const uint16_t fp = fingerprint(hashes[i]);
    s.near.Insert(fp);
    s.batch.Insert(fp);
  }
  each_held([&](uint16_t fp) {
    if (s.near.Has(fp) && s.batch.Has(fp)) s.held.Insert(fp);
  });
}

// After InsertHeld, and any Insert into `held` of the batch's own fingerprints, with the
// window as InsertHeld read it and `held_items` the number of items it visited.
template <class EachHeld, class ToFingerprint>
void EraseHeld(MeetScratch& s, EachHeld&& each_held, size_t held_items, const uint64_t* hashes, size_t n,
               bool from_window, ToFingerprint fingerprint) {
  if (from_window && held_items + n > kEraseEachUpTo) return s.held.EraseAll();
  if (from_window) each_held([&](uint16_t fp) { s.held.EraseWordOf(fp); });
  // From the window, `near` and `batch` were never written: only `held` holds batch items.
  for (size_t i = 0; i < n; ++i) {
    const uint16_t fp = fingerprint(hashes[i]);
    if (!from_window) s.near.EraseWordOf(fp), s.batch.EraseWordOf(fp);
    s.held.EraseWordOf(fp);
  }
}

}  // namespace seen
