// A span of filter memory and how to let it go: memory we allocate, a file mapping (made by
// core/file.cc), or a caller's buffer we only borrow.
#pragma once

#include <cstdint>
#include <functional>
#include <utility>

namespace seen {

// Maps like mmap(2) (flags without MAP_FIXED), but from 2 MiB up at a 2 MiB aligned address
// with MADV_HUGEPAGE, so the kernel can back it with huge pages: anonymous memory, or a file
// whose page cache holds 2 MiB folios (core/save.cc writes files so). A random read then walks
// no 4 KiB page table. Returns MAP_FAILED and sets errno as mmap does.
void* MapHugeAligned(uint64_t bytes, int prot, int flags, int fd);

class Region {
 public:
  using Release = std::function<void()>;

  // Zeroed memory, lazily committed. From 2 MiB up it is 2 MiB aligned with MADV_HUGEPAGE.
  // Throws Error(kNoMemory) when the kernel refuses the mapping.
  static Region Allocate(uint64_t bytes);

  // The caller's bytes, read-only, never freed here.
  static Region Borrow(const uint8_t* data, uint64_t bytes);

  Region() = default;
  Region(uint8_t* data, uint64_t bytes, bool writable, Release release, Release sync = nullptr);
  Region(Region&& other) noexcept;
  Region& operator=(Region&& other) noexcept;
  Region(const Region&) = delete;
  Region& operator=(const Region&) = delete;
  ~Region();

  // The same memory and ownership, seen from `offset` for `bytes` bytes (e.g. the payload of
  // a mapped file). The whole original span is still what gets released.
  Region Narrow(uint64_t offset, uint64_t bytes) &&;

  uint8_t* data() const { return data_; }
  uint64_t size() const { return size_; }
  bool writable() const { return writable_; }

  // What Sync (and release) must do first, e.g. reseal and msync a writable file mapping.
  void set_sync(Release sync) { sync_ = std::move(sync); }

  // Makes the bytes durable where they belong (a file mapping); a no-op elsewhere.
  void Sync() const {
    if (sync_) sync_();
  }

 private:
  void Reset();

  uint8_t* data_ = nullptr;
  uint64_t size_ = 0;
  bool writable_ = false;
  Release release_;
  Release sync_;
};

}  // namespace seen
