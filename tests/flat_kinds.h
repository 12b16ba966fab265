// The C API of the two kinds whose functions have one shape (seen_bloom_* and
// seen_counting_*), as traits, so a test written once runs on both.
#pragma once

#include "seen.h"

namespace seen::test {

#define SEEN_TEST_FLAT_KIND(Name, kind)                                  \
  struct Name {                                                          \
    using Handle = seen_##kind;                                          \
    static constexpr auto add = seen_##kind##_add_u64;                   \
    static constexpr auto contains = seen_##kind##_contains_u64;         \
    static constexpr auto serialize = seen_##kind##_serialize;           \
    static constexpr auto deserialize = seen_##kind##_deserialize;       \
    static constexpr auto view = seen_##kind##_view;                     \
    static constexpr auto save = seen_##kind##_save;                     \
    static constexpr auto open = seen_##kind##_open;                     \
    static constexpr auto free = seen_##kind##_free;                     \
  };
SEEN_TEST_FLAT_KIND(BloomApi, bloom)
SEEN_TEST_FLAT_KIND(CountingApi, counting)
#undef SEEN_TEST_FLAT_KIND

}  // namespace seen::test
