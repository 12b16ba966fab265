/* The TAP harness of the C API tests: check() prints one "ok N - what" line per assertion
 * (with seen_last_error() after a failure), tap_finish() prints the plan and the exit code. */
#ifndef SEEN_TESTS_TAP_H
#define SEEN_TESTS_TAP_H

#include <stdint.h>
#include <stdio.h>

#include "seen.h"

static int tap_count = 0;
static int tap_failures = 0;

static inline void check(int ok, const char* what) {
  ++tap_count;
  if (!ok) ++tap_failures;
  printf("%s %d - %s\n", ok ? "ok" : "not ok", tap_count, what);
  if (!ok) printf("# last error: %s\n", seen_last_error());
}

static inline int tap_finish(void) {
  printf("1..%d\n", tap_count);
  return tap_failures == 0 ? 0 : 1;
}

/* splitmix64: distinct, well-spread ids from a counter. */
static inline uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

#endif /* SEEN_TESTS_TAP_H */
