#include "capi/window_handle.h"

#include <array>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <unordered_map>

#include "core/window_codec.h"

namespace seen::capi {

namespace {

static_assert(sizeof(seen_window) == 16, "a window's handle is two pointers before its state");

// States this large start on a cache line, as CacheLineAllocator places a Window's: a table
// window's lines are then cache lines.
constexpr uint64_t kAlignedStateFrom = CacheLineAllocator<uint8_t>::kAlignedFrom;
constexpr uint64_t kLine = CacheLineAllocator<uint8_t>::kLine;

uint64_t StateOffset(const WindowParams& p, const void* block) {
  const uint64_t after = sizeof(seen_window);
  if (p.state_bytes() < kAlignedStateFrom) return after;
  const auto at = reinterpret_cast<uintptr_t>(block) + after;
  return after + (kLine - at % kLine) % kLine;
}

// The growth vector sits after the state, on its own alignment.
uint64_t GrowthOffset(const WindowParams& p, const void* block) {
  const uint64_t end = StateOffset(p, block) + p.state_bytes();
  return (end + alignof(WindowGrowth) - 1) / alignof(WindowGrowth) * alignof(WindowGrowth);
}

uint64_t BlockBytes(const WindowParams& p) {
  const uint64_t pad = p.state_bytes() < kAlignedStateFrom ? 0 : kLine;
  const uint64_t end = sizeof(seen_window) + pad + p.state_bytes();
  if (!p.grows()) return end;
  return (end + alignof(WindowGrowth) - 1) / alignof(WindowGrowth) * alignof(WindowGrowth) + sizeof(WindowGrowth);
}

// What tells windows apart: the encoded parameters, the key and the allocator.
constexpr size_t kIdBytes = kWindowParamsBytes + 4 * sizeof(uint64_t);
using Id = std::array<uint8_t, kIdBytes>;

Id IdOf(const WindowParams& p, const WindowMemory* memory) {
  Id id{};
  EncodeWindowParams(p, id.data());
  const SecretKey key = p.key.value_or(SecretKey{});
  const uint64_t extra[4] = {p.key.has_value(), key.k0, key.k1, reinterpret_cast<uintptr_t>(memory)};
  std::memcpy(id.data() + kWindowParamsBytes, extra, sizeof extra);
  return id;
}

// The shared parameters, by Id. Most windows of a process are made alike (a Redis server's
// from its module defaults, a million of them at an RDB load): the last one used is tried
// before the map, without a string or a hash.
struct Pool {
  std::mutex lock;
  std::unordered_map<std::string, std::unique_ptr<SharedWindowParams>> by_id;
  SharedWindowParams* last = nullptr;
};

Pool& ThePool() {
  static Pool* pool = new Pool;  // never destroyed: windows may be freed during exit
  return *pool;
}

const SharedWindowParams* Acquire(const WindowParams& p, const WindowMemory* memory) {
  const Id id = IdOf(p, memory);
  Pool& pool = ThePool();
  const std::lock_guard<std::mutex> hold(pool.lock);
  if (pool.last == nullptr || std::memcmp(pool.last->id.data(), id.data(), kIdBytes) != 0) {
    std::string key(reinterpret_cast<const char*>(id.data()), kIdBytes);
    auto& slot = pool.by_id[key];
    if (slot == nullptr) slot.reset(new SharedWindowParams{p, memory, std::move(key), 0});
    pool.last = slot.get();
  }
  ++pool.last->windows;
  return pool.last;
}

void Release(const SharedWindowParams* shared) {
  Pool& pool = ThePool();
  const std::lock_guard<std::mutex> hold(pool.lock);
  auto* counted = const_cast<SharedWindowParams*>(shared);
  if (--counted->windows != 0) return;
  if (pool.last == counted) pool.last = nullptr;
  pool.by_id.erase(pool.by_id.find(counted->id));
}

void* TakeBlock(const WindowMemory* memory, uint64_t bytes) {
  if (memory == nullptr) return ::operator new(bytes);
  void* block = memory->alloc(memory->opaque, bytes);
  if (block == nullptr) throw std::bad_alloc();
  return block;
}

void GiveBlock(const WindowMemory* memory, void* block) {
  if (memory == nullptr) return ::operator delete(block);
  memory->free(memory->opaque, block);
}

}  // namespace

seen_window* AllocateWindow(const WindowParams& params, const WindowMemory* memory) {
  const SharedWindowParams* shared = Acquire(params, memory);
  void* block = nullptr;
  try {
    block = TakeBlock(memory, BlockBytes(params));
  } catch (...) {
    Release(shared);
    throw;
  }
  auto* w = new (block) seen_window{shared, {}};
  std::memset(w->state(), 0, params.state_bytes());
  if (params.grows()) new (w->growth()) WindowGrowth(CacheLineAllocator<uint8_t>(memory));
  return w;
}

void DeleteWindow(seen_window* w) {
  const SharedWindowParams* shared = w->shared;
  if (WindowGrowth* growth = w->growth()) growth->~WindowGrowth();
  w->~seen_window();
  GiveBlock(shared->memory, w);
  Release(shared);
}

}  // namespace seen::capi

uint8_t* seen_window::state() {
  return reinterpret_cast<uint8_t*>(this) + seen::capi::StateOffset(params(), this);
}

const uint8_t* seen_window::state() const {
  return reinterpret_cast<const uint8_t*>(this) + seen::capi::StateOffset(params(), this);
}

seen::WindowGrowth* seen_window::growth() {
  if (!params().grows()) return nullptr;
  return reinterpret_cast<seen::WindowGrowth*>(reinterpret_cast<uint8_t*>(this) +
                                               seen::capi::GrowthOffset(params(), this));
}

const seen::WindowGrowth* seen_window::growth() const {
  return const_cast<seen_window*>(this)->growth();
}

uint64_t seen_window::bytes() const {
  const seen::WindowGrowth* g = growth();
  return params().state_bytes() + (g == nullptr ? 0 : g->size());
}
