// Crash-safe save of a container (core/file.h). The temporary is an unnamed O_TMPFILE where
// the file system has them, so a crash while writing leaves nothing; it is named only once
// complete, just before the rename. Where O_TMPFILE is missing, or the process can name no
// unnamed file (no /proc and no CAP_DAC_READ_SEARCH), it is a named file from the start.
// Either way the writer holds an flock on it until the rename: the next save beside the same
// path removes every temporary no live writer holds, the leftovers of a crash. The
// replacement takes the replaced file's mode and, where permitted, its owner.
#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/fault.h"
#include "core/file.h"
#include "core/format.h"
#include "core/hash.h"

namespace seen {
namespace fault {
namespace {
std::atomic<Hook> hook{nullptr};
}  // namespace

void SetHook(Hook h) { hook.store(h); }

int Injected(const char* call) {
  const Hook h = hook.load(std::memory_order_relaxed);
  return h == nullptr ? 0 : h(call);
}
}  // namespace fault

namespace {

// Bytes copied from the live payload per write: the checksum covers exactly this copy. Chunks
// end at multiples of this in the file, so a write fills whole 2 MiB spans and the page cache
// can hold the file in 2 MiB folios, which a mapping of it then maps as huge pages
// (MapHugeAligned, core/region.h).
constexpr uint64_t kChunkBytes = uint64_t{4} << 20;
const char kTempInfix[] = ".tmp-";
constexpr size_t kTempSuffixChars = 12;

// Runs a system call unless the fault seam fails it.
template <class Call>
auto Sys(const char* name, Call call) -> decltype(call()) {
  if (const int err = fault::Injected(name)) {
    errno = err;
    return -1;
  }
  return call();
}

std::string DirectoryOf(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string BaseOf(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string TempName(const std::string& path) {
  static const char kChars[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  thread_local std::mt19937_64 random{std::random_device{}()};
  std::string name = path + kTempInfix;
  for (size_t i = 0; i < kTempSuffixChars; ++i) name += kChars[random() % (sizeof kChars - 1)];
  return name;
}

// Removes the temporaries of `path` that no writer holds: a live writer keeps its flock until
// its rename, so an unlocked one belongs to a writer that died. Best effort: a temporary
// that cannot be examined is left for a later save.
void RemoveStaleTemporaries(const std::string& path) {
  const std::string prefix = BaseOf(path) + kTempInfix;
  DIR* dir = opendir(DirectoryOf(path).c_str());
  if (dir == nullptr) return;
  const int dir_fd = dirfd(dir);
  while (const dirent* entry = readdir(dir)) {
    const std::string name = entry->d_name;
    if (name.size() != prefix.size() + kTempSuffixChars || name.compare(0, prefix.size(), prefix) != 0) {
      continue;
    }
    const int fd = openat(dir_fd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && flock(fd, LOCK_EX | LOCK_NB) == 0) {
      unlinkat(dir_fd, name.c_str(), 0);
    }
    close(fd);
  }
  closedir(dir);
}

// The temporary being written: its descriptor, and its name once it has one.
struct Temporary {
  int fd = -1;
  std::string name;

  ~Temporary() {
    if (!name.empty()) unlink(name.c_str());
    if (fd >= 0) close(fd);
  }
};

// Set once an unnamed temporary could not be named: this process's later saves go straight
// to named temporaries rather than write every file twice.
std::atomic<bool> unnamed_unusable{false};

// What the file being replaced had, for its replacement: a file made private (chmod 600)
// stays private across saves.
struct Ownership {
  bool replacing = false;
  mode_t mode = 0;
  uid_t owner = 0;
  gid_t group = 0;
};

Ownership OwnershipOf(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return {};
  return {true, static_cast<mode_t>(st.st_mode & 07777), st.st_uid, st.st_gid};
}

// Gives the temporary the replaced file's owner where this process may (root, or a group the
// user is in), then its mode exactly, whatever the umask. Before any byte is written, so the
// data is never readable by more people than the old file's.
void TakeOwnership(const Ownership& old, const Temporary& temp, const std::string& where) {
  if (!old.replacing) return;
  // Refused (EPERM) for another user's file when not root: the mode below still holds.
  (void)fchown(temp.fd, old.owner, old.group);
  // After the chown, which clears set-id bits.
  if (Sys("fchmod", [&] { return fchmod(temp.fd, old.mode); }) != 0) IoFail(where, "fchmod to the old file's mode");
}

// An unnamed temporary in path's directory, or a named one where O_TMPFILE is missing.
// Locked before anyone could take it for a dead writer's.
void Create(const std::string& path, const Ownership& old, Temporary& temp) {
  // A new file is as readable as any file the user creates (0666 less the umask); a
  // replacement is never more readable than the file it replaces, even before its fchmod.
  const mode_t mode = old.replacing ? old.mode & 0666 : 0666;
  if (!unnamed_unusable) {
    temp.fd = Sys("open_tmpfile", [&] {
      return open(DirectoryOf(path).c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
    });
    if (temp.fd >= 0) {
      if (Sys("flock", [&] { return flock(temp.fd, LOCK_EX); }) != 0) IoFail(path, "locking the temporary file");
      return;
    }
    if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) {
      IoFail(path, "creating a temporary file beside it");
    }
  }
  for (;;) {
    const std::string name = TempName(path);
    temp.fd = Sys("open", [&] { return open(name.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, mode); });
    if (temp.fd < 0) {
      if (errno == EEXIST) continue;
      IoFail(path, "creating a temporary file beside it");
    }
    temp.name = name;
    if (Sys("flock", [&] { return flock(temp.fd, LOCK_EX); }) != 0) IoFail(temp.name, "flock");
    // A concurrent save may have removed it between the open and the lock; start again then.
    struct stat mine, named;
    if (fstat(temp.fd, &mine) == 0 && stat(name.c_str(), &named) == 0 && mine.st_ino == named.st_ino &&
        mine.st_dev == named.st_dev) {
      return;
    }
    close(temp.fd);
    temp.fd = -1;
    temp.name.clear();
  }
}

void WriteAt(int fd, const uint8_t* data, uint64_t size, uint64_t offset, const std::string& name) {
  while (size > 0) {
    const ssize_t wrote = Sys("pwrite", [&] { return pwrite(fd, data, size, static_cast<off_t>(offset)); });
    if (wrote < 0) {
      if (errno == EINTR) continue;
      IoFail(name, "write");
    }
    data += wrote;
    offset += static_cast<uint64_t>(wrote);
    size -= static_cast<uint64_t>(wrote);
  }
}

// Writes the container: the payload chunk by chunk, each copied from the live pieces and
// checksummed as copied (XXH3-64, the payload checksum of docs/FORMAT.md), then the head
// that carries that checksum.
void WriteContents(const Parts& parts, int fd, const std::string& name) {
  const uint64_t offset = PayloadOffset(parts.params_size);
  std::vector<uint8_t> chunk;
  XXH3_state_t state;
  XXH3_64bits_reset(&state);
  uint64_t at = offset;
  for (const Piece& piece : parts.payload) {
    for (uint64_t done = 0; done < piece.size;) {
      const uint64_t n = std::min(kChunkBytes - at % kChunkBytes, piece.size - done);
      chunk.assign(piece.data + done, piece.data + done + n);
      XXH3_64bits_update(&state, chunk.data(), n);
      WriteAt(fd, chunk.data(), n, at, name);
      done += n;
      at += n;
    }
  }
  std::vector<uint8_t> head(offset);
  EncodeHead(parts.kind, parts.params, parts.params_size, at - offset, XXH3_64bits_digest(&state), parts.flags,
             head.data());
  WriteAt(fd, head.data(), head.size(), 0, name);
}

// Gives an unnamed temporary a name beside path: by its descriptor (AT_EMPTY_PATH), which the
// kernel permits only with CAP_DAC_READ_SEARCH, else through /proc/self/fd, which a chroot
// or a minimal container may lack. False when neither works.
bool Name(const std::string& path, Temporary& temp) {
  const std::string proc = "/proc/self/fd/" + std::to_string(temp.fd);
  for (;;) {
    const std::string name = TempName(path);
    int linked = Sys("linkat", [&] { return linkat(temp.fd, "", AT_FDCWD, name.c_str(), AT_EMPTY_PATH); });
    if (linked != 0 && (errno == ENOENT || errno == EPERM)) {
      linked = Sys("linkat_proc", [&] {
        return linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW);
      });
      if (linked != 0 && (errno == ENOENT || errno == EPERM)) return false;
    }
    if (linked == 0) {
      temp.name = name;
      return true;
    }
    if (errno != EEXIST) IoFail(path, "linkat of the temporary file");
  }
}

// Writes the container to a temporary beside path and renames it over path. False, with
// nothing changed, when the temporary was unnamed and could not be named.
bool Replace(const std::string& path, const Ownership& old, const Parts& parts) {
  Temporary temp;
  Create(path, old, temp);
  const std::string where = temp.name.empty() ? path + " (temporary)" : temp.name;
  TakeOwnership(old, temp, where);
  WriteContents(parts, temp.fd, where);
  if (Sys("fsync", [&] { return fsync(temp.fd); }) != 0) IoFail(where, "fsync");
  if (temp.name.empty() && !Name(path, temp)) return false;
  if (Sys("rename", [&] { return rename(temp.name.c_str(), path.c_str()); }) != 0) {
    IoFail(path, "rename of the temporary file");
  }
  temp.name.clear();  // renamed: nothing left to remove; closing drops the lock
  return true;
}

}  // namespace

void SaveContainer(const std::string& path, const Parts& parts) {
  RemoveStaleTemporaries(path);
  const Ownership old = OwnershipOf(path);
  if (!Replace(path, old, parts)) {
    unnamed_unusable = true;
    Replace(path, old, parts);
  }
  const int dir = Sys("open_dir", [&] { return open(DirectoryOf(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); });
  if (dir < 0) IoFail(path, "opening its directory to fsync it");
  const int synced = Sys("fsync_dir", [&] { return fsync(dir); });
  const int saved = errno;
  close(dir);
  errno = saved;
  if (synced != 0) IoFail(path, "fsync of its directory");
}

}  // namespace seen
