// This thread's sets for meeting a batch of fingerprints with the 16-bit fingerprints a
// window holds: a ring's entries (core/window_ring.cc, which builds them from the smaller
// side) and a packed window's decoded segments (core/window_packed.cc, into `held`). Every
// set is empty between calls; one set of them per thread serves both layouts.
#pragma once

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

}  // namespace seen
