#include "core/region.h"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

#include "core/error.h"

namespace seen {
namespace {

constexpr uint64_t kHugePage = uint64_t{2} << 20;

}  // namespace

void* MapHugeAligned(uint64_t bytes, int prot, int flags, int fd) {
  if (bytes < kHugePage) return mmap(nullptr, bytes, prot, flags, fd, 0);
  // Reserve one huge page more than asked, map over its aligned part, give back the rest.
  const uint64_t reserved = bytes + kHugePage;
  void* raw = mmap(nullptr, reserved, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED) return MAP_FAILED;
  auto* base = static_cast<uint8_t*>(raw);
  uint8_t* aligned = base + (kHugePage - reinterpret_cast<uintptr_t>(base) % kHugePage) % kHugePage;
  if (mmap(aligned, bytes, prot, flags | MAP_FIXED, fd, 0) == MAP_FAILED) {
    const int saved = errno;
    munmap(base, reserved);
    errno = saved;
    return MAP_FAILED;
  }
  if (aligned > base) munmap(base, static_cast<size_t>(aligned - base));
  uint8_t* end = aligned + bytes;
  if (end < base + reserved) munmap(end, static_cast<size_t>(base + reserved - end));
  madvise(aligned, bytes, MADV_HUGEPAGE);
  return aligned;
}

Region Region::Allocate(uint64_t bytes) {
  if (bytes == 0) bytes = 1;
  // MAP_NORESERVE: a filter's pages are committed as keys touch them, so a 2^40-bit filter
  // can exist on a machine with far less memory as long as it stays sparse.
  void* raw = MapHugeAligned(bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1);
  if (raw == MAP_FAILED) {
    throw Error(Code::kNoMemory, "cannot map " + std::to_string(bytes) +
                                     " bytes: " + std::strerror(errno));
  }
  auto* data = static_cast<uint8_t*>(raw);
  return Region(data, bytes, true, [data, bytes] { munmap(data, bytes); });
}

Region Region::Borrow(const uint8_t* data, uint64_t bytes) {
  return Region(const_cast<uint8_t*>(data), bytes, false, nullptr);
}

Region::Region(uint8_t* data, uint64_t bytes, bool writable, Release release, Release sync)
    : data_(data), size_(bytes), writable_(writable), release_(std::move(release)),
      sync_(std::move(sync)) {}

Region Region::Narrow(uint64_t offset, uint64_t bytes) && {
  Region narrowed(data_ + offset, bytes, writable_, std::move(release_), std::move(sync_));
  release_ = nullptr;
  sync_ = nullptr;
  data_ = nullptr;
  size_ = 0;
  return narrowed;
}

Region::Region(Region&& other) noexcept { *this = std::move(other); }

Region& Region::operator=(Region&& other) noexcept {
  if (this != &other) {
    Reset();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    writable_ = std::exchange(other.writable_, false);
    release_ = std::exchange(other.release_, nullptr);
    sync_ = std::exchange(other.sync_, nullptr);
  }
  return *this;
}

Region::~Region() { Reset(); }

void Region::Reset() {
  if (sync_) {
    try {
      sync_();
    } catch (const Error&) {
      // A destructor cannot report; callers who care call Sync() first.
    }
  }
  if (release_) release_();
  data_ = nullptr;
  size_ = 0;
  release_ = nullptr;
  sync_ = nullptr;
}

}  // namespace seen
