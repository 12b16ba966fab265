// A window's state or growth: a byte buffer in the memory of a CacheLineAllocator (its
// WindowMemory, core/window_memory.h), with the part of std::vector's interface windows use
// and its exact capacities (a store and the Redis module count them).
//
// It is not a std::vector because libstdc++ fills, copies and frees a vector whose allocator
// is not std::allocator element by element, through the allocator's construct and destroy:
// a release build makes that a memset or nothing, but under ASan+UBSan each byte is a checked
// step, and a level of a growing window can be megabytes (bench/results/fuzzing.md). Here a
// fill is one memset, a copy one memcpy or memmove, and freeing is one deallocate.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "core/window_memory.h"

namespace seen {

class WindowBytes {
 public:
  using value_type = uint8_t;
  using size_type = size_t;
  using allocator_type = CacheLineAllocator<uint8_t>;
  using iterator = uint8_t*;
  using const_iterator = const uint8_t*;

  // Without an allocator: that of the innermost WindowMemoryScope (CacheLineAllocator's).
  WindowBytes() = default;
  explicit WindowBytes(const allocator_type& alloc) : alloc_(alloc) {}
  // n bytes of `value`: zeros unless asked.
  explicit WindowBytes(size_t n, uint8_t value = 0, const allocator_type& alloc = {}) : alloc_(alloc) {
    Adopt(Allocate(n), n, n);
    if (n > 0) std::memset(data_, value, n);
  }
  WindowBytes(const uint8_t* first, const uint8_t* last, const allocator_type& alloc = {}) : alloc_(alloc) {
    CopyIn(first, static_cast<size_t>(last - first));
  }
  // A copy lives in the original's memory, as std::vector's does.
  WindowBytes(const WindowBytes& other) : alloc_(other.alloc_) { CopyIn(other.data_, other.size_); }
  WindowBytes(WindowBytes&& other) noexcept
      : alloc_(other.alloc_), data_(other.data_), size_(other.size_), capacity_(other.capacity_) {
    other.Adopt(nullptr, 0, 0);
  }
  ~WindowBytes() { Release(); }

  // Assignment takes the other's memory with its bytes (the allocator propagates).
  WindowBytes& operator=(const WindowBytes& other) {
    if (this == &other) return *this;
    if (alloc_ != other.alloc_) {
      Release();
      Adopt(nullptr, 0, 0);
      alloc_ = other.alloc_;
    }
    assign(other.begin(), other.end());
    return *this;
  }
  WindowBytes& operator=(WindowBytes&& other) noexcept {
    if (this == &other) return *this;
    Release();
    alloc_ = other.alloc_;
    Adopt(other.data_, other.size_, other.capacity_);
    other.Adopt(nullptr, 0, 0);
    return *this;
  }
  void swap(WindowBytes& other) noexcept {
    std::swap(alloc_, other.alloc_);
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
  }

  allocator_type get_allocator() const { return alloc_; }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  bool empty() const { return size_ == 0; }
  uint8_t* data() { return data_; }
  const uint8_t* data() const { return data_; }
  iterator begin() { return data_; }
  iterator end() { return data_ + size_; }
  const_iterator begin() const { return data_; }
  const_iterator end() const { return data_ + size_; }
  uint8_t& operator[](size_t i) { return data_[i]; }
  const uint8_t& operator[](size_t i) const { return data_[i]; }

  // Capacity exactly n, if it was less.
  void reserve(size_t n) {
    if (n > capacity_) Reallocate(n);
  }
  // New bytes are zero.
  void resize(size_t n) {
    const size_t old = size_;
    resize_for_overwrite(Checked(n));
    if (n > old) std::memset(data_ + old, 0, n - old);
  }
  // New bytes are whatever the memory held: for a caller that writes every one of them.
  void resize_for_overwrite(size_t n) {
    if (n > capacity_) Reallocate(Grown(Checked(n)));
    size_ = n;
  }
  void clear() { size_ = 0; }

  // n bytes of `value`.
  void assign(size_t n, uint8_t value) {
    Overwrite(n);
    if (n > 0) std::memset(data_, value, n);
  }
  void assign(const uint8_t* first, const uint8_t* last) {
    const auto n = static_cast<size_t>(last - first);
    Overwrite(n);  // a range of its own fits: memmove
    if (n > 0) std::memmove(data_, first, n);
  }
  // Inserts [first, last) before pos, which may lie in this buffer.
  iterator insert(const_iterator pos, const uint8_t* first, const uint8_t* last) {
    const auto at = static_cast<size_t>(pos - data_);
    const auto n = static_cast<size_t>(last - first);
    if (n == 0) return data_ + at;
    if (n > capacity_ - size_ || (first < data_ + size_ && last > data_)) {
      // Into a new block, as std::vector does when it grows (and when the bytes are its own,
      // at the same capacity).
      const size_t capacity = n > capacity_ - size_ ? Grown(Checked(size_ + n)) : capacity_;
      uint8_t* block = Allocate(capacity);
      if (at > 0) std::memcpy(block, data_, at);
      std::memcpy(block + at, first, n);
      if (size_ > at) std::memcpy(block + at + n, data_ + at, size_ - at);
      Release();
      Adopt(block, size_ + n, capacity);
    } else {
      if (size_ > at) std::memmove(data_ + at + n, data_ + at, size_ - at);
      std::memcpy(data_ + at, first, n);
      size_ += n;
    }
    return data_ + at;
  }

  friend bool operator==(const WindowBytes& a, const WindowBytes& b) {
    return a.size_ == b.size_ && (a.size_ == 0 || std::memcmp(a.data_, b.data_, a.size_) == 0);
  }
  friend bool operator!=(const WindowBytes& a, const WindowBytes& b) { return !(a == b); }

 private:
  static constexpr size_t kMaxSize = PTRDIFF_MAX;

  // Nothing for no bytes: an empty buffer holds no block, as an empty vector. Every block
  // comes from here, so every way to a size past PTRDIFF_MAX meets the check.
  uint8_t* Allocate(size_t n) { return n == 0 ? nullptr : alloc_.allocate(Checked(n)); }
  void Release() {
    if (data_ != nullptr) alloc_.deallocate(data_, capacity_);
  }
  void Adopt(uint8_t* data, size_t size, size_t capacity) {
    data_ = data, size_ = size, capacity_ = capacity;
  }
  void CopyIn(const uint8_t* from, size_t n) {
    Adopt(Allocate(n), n, n);
    if (n > 0) std::memcpy(data_, from, n);
  }
  // Size n, its bytes to be written: a block of exactly n if n is past the capacity, as
  // std::vector's assign takes.
  void Overwrite(size_t n) {
    Checked(n);  // here too, whatever the capacity: the compiler then knows the caller's fill is bounded
    if (n > capacity_) {
      uint8_t* block = Allocate(n);
      Release();
      Adopt(block, n, n);
    }
    size_ = n;
  }
  void Reallocate(size_t capacity) {
    uint8_t* block = Allocate(capacity);
    if (size_ > 0) std::memcpy(block, data_, size_);
    Release();
    Adopt(block, size_, capacity);
  }
  static size_t Checked(size_t n) {
    if (n > kMaxSize) throw std::length_error("WindowBytes: more than PTRDIFF_MAX bytes");
    return n;
  }
  // libstdc++'s capacity for a size of n past the capacity: twice the size, or n if more.
  size_t Grown(size_t n) const { return std::min(std::max(2 * size_, n), kMaxSize); }

  allocator_type alloc_;
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace seen
