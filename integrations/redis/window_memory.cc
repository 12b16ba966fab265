#include "integrations/redis/window_memory.h"

#include "integrations/redis/redis_api.h"

namespace seen::redis {

namespace {

// Redis stops with an out-of-memory error rather than return null, as for its own values.
void* Alloc(void*, size_t bytes) { return RedisModule_Alloc(bytes); }
void Free(void*, void* ptr) { RedisModule_Free(ptr); }

const seen_allocator redis_memory{Alloc, Free, nullptr};

}  // namespace

const seen_allocator* RedisMemory() { return &redis_memory; }

}  // namespace seen::redis
