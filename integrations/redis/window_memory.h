// Every byte of a window the module keeps comes from Redis's allocator (RedisModule_Alloc),
// its handle, state and growth alike, as RedisBloom's do: INFO memory's used_memory counts
// windows, so maxmemory and eviction see them.
#pragma once

#include <cstdint>

#include "capi/seen.h"  // seen_allocator: experimental, which meson.build turns on here

namespace seen::redis {

const seen_allocator* RedisMemory();

// The bytes of every block windows hold from it, as Redis's allocator sized them.
uint64_t WindowBytesHeld();

}  // namespace seen::redis
