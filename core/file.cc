#include "core/file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "core/error.h"
#include "core/format.h"

namespace seen {
void IoFail(const std::string& path, const std::string& step) {
  throw Error(Code::kIo, path + ": " + step + " failed: " + std::strerror(errno));
}

Region MapFile(const std::string& path, bool writable, bool populate) {
  const int fd = open(path.c_str(), writable ? O_RDWR : O_RDONLY);
  if (fd < 0) IoFail(path, "open");
  struct stat st;
  if (fstat(fd, &st) != 0) {
    close(fd);
    IoFail(path, "fstat");
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    throw Error(Code::kIo, path + ": not a regular file");
  }
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  if (size < kHeaderBytes) {
    close(fd);
    throw Error(Code::kTruncated, path + ": has " + std::to_string(size) +
                                      " bytes, the header alone needs " + std::to_string(kHeaderBytes));
  }
  const int prot = writable ? PROT_READ | PROT_WRITE : PROT_READ;
  const int flags = populate ? MAP_SHARED | MAP_POPULATE : MAP_SHARED;
  void* raw = MapHugeAligned(size, prot, flags, fd);
  const int saved = errno;
  close(fd);
  if (raw == MAP_FAILED) {
    errno = saved;
    IoFail(path, "mmap");
  }
  auto* data = static_cast<uint8_t*>(raw);
  return Region(data, size, writable, [data, size] { munmap(data, size); });
}

void ResealOnSync(Region& file, const std::string& path) {
  uint8_t* data = file.data();
  const uint64_t size = file.size();
  file.set_sync([data, size, path] {
    ResealContainer(data, size);
    if (msync(data, size, MS_SYNC) != 0) IoFail(path, "msync");
  });
}

}  // namespace seen
