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

Region Region::Allocate(uint64_t bytes) {
  if (bytes == 0) bytes = 1;
  const bool huge = bytes >= kHugePage;
  // Over-map by one huge page, then trim, to get a 2 MiB aligned start.
  const uint64_t mapped = huge ? bytes + kHugePage : bytes;
  // MAP_NORESERVE: a filter's pages are committed as keys touch them, so a 2^40-bit filter
  // can exist on a machine with far less memory as long as it stays sparse.
  void* raw = mmap(nullptr, mapped, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED) {
    throw Error(Code::kNoMemory, "cannot map " + std::to_string(bytes) +
                                     " bytes: " + std::strerror(errno));
  }
  auto* base = static_cast<uint8_t*>(raw);
  uint8_t* data = base;
  if (huge) {
    const uint64_t misalign = reinterpret_cast<uintptr_t>(base) & (kHugePage - 1);
    const uint64_t head = misalign == 0 ? 0 : kHugePage - misalign;
    data = base + head;
    if (head > 0) munmap(base, head);
    const uint64_t tail = mapped - head - bytes;
    if (tail > 0) munmap(data + bytes, tail);
    madvise(data, bytes, MADV_HUGEPAGE);
  }
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
