#include "integrations/redis/window_memory.h"

#include <atomic>

#include "integrations/redis/redis_api.h"

namespace seen::redis {

namespace {

// Blocks may be freed off the main thread (FLUSHALL ASYNC frees values in the background).
std::atomic<uint64_t> held{0};

// Redis stops with an out-of-memory error rather than return null, as for its own values.
void* Alloc(void*, size_t bytes) {
  void* block = RedisModule_Alloc(bytes);
  held.fetch_add(RedisModule_MallocSize(block), std::memory_order_relaxed);
  return block;
}

void Free(void*, void* block) {
  held.fetch_sub(RedisModule_MallocSize(block), std::memory_order_relaxed);
  RedisModule_Free(block);
}

const seen_allocator redis_memory{Alloc, Free, nullptr};

}  // namespace

const seen_allocator* RedisMemory() { return &redis_memory; }

uint64_t WindowBytesHeld() { return held.load(std::memory_order_relaxed); }

}  // namespace seen::redis
