// The file that the open entry points read an input from (tests/every_kind.h). Either a named
// file, created for each input and removed after it (the address-space sweep's, in its
// scratch directory), or one anonymous in-memory file for the whole run, rewritten in place and
// opened by its /proc/self/fd path: a fuzz target's, so that an input costs no file creation,
// no directory entry and no unlink.
#pragma once

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

namespace seen::test {

class ScratchFile {
 public:
  // A file at path, written whole by each Write and removed by Remove.
  explicit ScratchFile(std::string path) : path_(std::move(path)) {}

  // A memfd for the life of the process. A host without memfd_create (Linux before 3.17) is
  // refused at once rather than fuzzed without its opens.
  static ScratchFile Anonymous() {
    const int fd = memfd_create("seen-fuzz", MFD_CLOEXEC);
    if (fd < 0) {
      std::perror("memfd_create");
      std::abort();
    }
    ScratchFile file("/proc/self/fd/" + std::to_string(fd));
    file.fd_ = fd;
    return file;
  }

  ScratchFile(ScratchFile&& other) noexcept : path_(std::move(other.path_)), fd_(std::exchange(other.fd_, -1)) {}
  ScratchFile& operator=(ScratchFile&&) = delete;
  ~ScratchFile() {
    if (fd_ >= 0) ::close(fd_);
  }

  const std::string& path() const { return path_; }

  // Makes the bytes the whole of the file, through plain syscalls (no stdio buffer to allocate
  // per input). The memfd keeps its pages: ftruncate to the new size, then one pwrite.
  bool Write(const uint8_t* data, size_t size) {
    if (fd_ >= 0) return ::ftruncate(fd_, static_cast<off_t>(size)) == 0 && WriteAll(fd_, data, size);
    const int fd = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return false;
    const bool written = WriteAll(fd, data, size);
    return ::close(fd) == 0 && written;
  }

  // Removes a named file; the memfd stays for the next input.
  void Remove() {
    if (fd_ < 0) ::unlink(path_.c_str());
  }

 private:
  static bool WriteAll(int fd, const uint8_t* data, size_t size) {
    size_t done = 0;
    while (done < size) {
      const ssize_t n = ::pwrite(fd, data + done, size - done, static_cast<off_t>(done));
      if (n <= 0) return false;
      done += static_cast<size_t>(n);
    }
    return true;
  }

  std::string path_;
  int fd_ = -1;
};

}  // namespace seen::test
