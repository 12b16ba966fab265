// Where a window's bytes live: the C++ heap by default, or memory the caller supplies (a
// WindowMemory, the way zstd takes ZSTD_customMem), so that a host that accounts for memory
// sees every byte of a window's state and growth. The Redis module passes RedisModule_Alloc,
// so that used_memory, maxmemory and eviction count windows.
//
// A window's byte buffers (WindowBytes, core/window_bytes.h) carry their allocator, and it
// carries the WindowMemory it came from. Buffers an add makes for a moment and then swaps in
// (a growing window's new levels, a table's rehash) are made without one: they take the
// WindowMemory of the innermost WindowMemoryScope on their thread, which each add of a Window
// opens with its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>

namespace seen {

struct WindowMemory {
  void* (*alloc)(void* opaque, size_t bytes);  // aligned as malloc's; null when out of memory
  void (*free)(void* opaque, void* ptr);       // never given null
  void* opaque;
};

// The memory that allocators made on this thread without one take: null (the C++ heap)
// outside any scope.
inline const WindowMemory*& CurrentWindowMemory() {
  thread_local const WindowMemory* current = nullptr;
  return current;
}

class WindowMemoryScope {
 public:
  explicit WindowMemoryScope(const WindowMemory* memory) : outer_(CurrentWindowMemory()) {
    CurrentWindowMemory() = memory;
  }
  ~WindowMemoryScope() { CurrentWindowMemory() = outer_; }
  WindowMemoryScope(const WindowMemoryScope&) = delete;
  WindowMemoryScope& operator=(const WindowMemoryScope&) = delete;

 private:
  const WindowMemory* outer_;
};

// Allocates blocks of 4 KiB and more on cache lines, so that each line of a table window's
// table is one cache line where it matters, in memory. Smaller blocks come as they are:
// aligning every one would leave a gap beside each, and a store holds millions.
template <class T>
class CacheLineAllocator {
 public:
  using value_type = T;
  // A buffer's memory and the allocator that can free it travel together (WindowBytes
  // propagates it so; these say the same to a standard container).
  using propagate_on_container_copy_assignment = std::true_type;
  using propagate_on_container_move_assignment = std::true_type;
  using propagate_on_container_swap = std::true_type;
  static constexpr size_t kAlignedFrom = 4096;
  static constexpr size_t kLine = 64;

  CacheLineAllocator() : memory_(CurrentWindowMemory()) {}
  explicit CacheLineAllocator(const WindowMemory* memory) : memory_(memory) {}
  template <class U>
  CacheLineAllocator(const CacheLineAllocator<U>& other) : memory_(other.memory()) {}  // NOLINT

  const WindowMemory* memory() const { return memory_; }

  T* allocate(size_t n) {
    const size_t bytes = n * sizeof(T);
    if (memory_ == nullptr) {
      if (bytes < kAlignedFrom) return static_cast<T*>(::operator new(bytes));
      return static_cast<T*>(::operator new(bytes, std::align_val_t{kLine}));
    }
    if (bytes < kAlignedFrom) return static_cast<T*>(Take(bytes));
    // A line more than asked, aligned within it; the block's start sits just before.
    auto* raw = static_cast<uint8_t*>(Take(bytes + kLine));
    uint8_t* aligned = raw + kLine - reinterpret_cast<uintptr_t>(raw) % kLine;
    reinterpret_cast<void**>(aligned)[-1] = raw;
    return reinterpret_cast<T*>(aligned);
  }

  void deallocate(T* p, size_t n) {
    const size_t bytes = n * sizeof(T);
    if (memory_ == nullptr) {
      if (bytes < kAlignedFrom) return ::operator delete(p);
      return ::operator delete(p, std::align_val_t{kLine});
    }
    memory_->free(memory_->opaque, bytes < kAlignedFrom ? p : reinterpret_cast<void**>(p)[-1]);
  }

  bool operator==(const CacheLineAllocator& other) const { return memory_ == other.memory_; }
  bool operator!=(const CacheLineAllocator& other) const { return memory_ != other.memory_; }

 private:
  void* Take(size_t bytes) const {
    void* p = memory_->alloc(memory_->opaque, bytes);
    if (p == nullptr) throw std::bad_alloc();
    return p;
  }

  const WindowMemory* memory_;
};

}  // namespace seen
