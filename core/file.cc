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
namespace {

[[noreturn]] void IoFail(const std::string& path, const std::string& step) {
  throw Error(Code::kIo, path + ": " + step + " failed: " + std::strerror(errno));
}

void WriteAll(int fd, const uint8_t* data, uint64_t size, const std::string& path) {
  while (size > 0) {
    const size_t step = static_cast<size_t>(std::min<uint64_t>(size, uint64_t{1} << 30));
    const ssize_t wrote = write(fd, data, step);
    if (wrote < 0) {
      if (errno == EINTR) continue;
      IoFail(path, "write");
    }
    data += wrote;
    size -= static_cast<uint64_t>(wrote);
  }
}

std::string DirectoryOf(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

void SaveFile(const std::string& path, const uint8_t* head, uint64_t head_size,
              const std::vector<Piece>& payload) {
  std::string temp = path + ".tmp-XXXXXX";
  std::vector<char> name(temp.begin(), temp.end());
  name.push_back('\0');
  const int fd = mkstemp(name.data());
  if (fd < 0) IoFail(path, "creating a temporary file beside it");
  temp.assign(name.data());
  try {
    // mkstemp makes 0600; a saved filter is as readable as any file the user creates.
    const mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0) IoFail(temp, "fchmod");
    WriteAll(fd, head, head_size, temp);
    for (const Piece& piece : payload) WriteAll(fd, piece.data, piece.size, temp);
    if (fsync(fd) != 0) IoFail(temp, "fsync");
    if (close(fd) != 0) {
      unlink(temp.c_str());
      IoFail(temp, "close");
    }
  } catch (...) {
    close(fd);
    unlink(temp.c_str());
    throw;
  }
  if (rename(temp.c_str(), path.c_str()) != 0) {
    const int saved = errno;
    unlink(temp.c_str());
    errno = saved;
    IoFail(path, "rename of the temporary file");
  }
  const int dir = open(DirectoryOf(path).c_str(), O_RDONLY | O_DIRECTORY);
  if (dir < 0) IoFail(path, "opening its directory to fsync it");
  const int synced = fsync(dir);
  close(dir);
  if (synced != 0) IoFail(path, "fsync of its directory");
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
  void* raw = mmap(nullptr, size, prot, flags, fd, 0);
  const int saved = errno;
  close(fd);
  if (raw == MAP_FAILED) {
    errno = saved;
    IoFail(path, "mmap");
  }
  auto* data = static_cast<uint8_t*>(raw);
  madvise(data, size, MADV_HUGEPAGE);
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
