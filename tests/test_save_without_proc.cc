// Saves where /proc is missing (a chroot, a minimal container): an unnamed O_TMPFILE
// temporary is named with linkat(AT_EMPTY_PATH) where the process may (root, or
// CAP_DAC_READ_SEARCH), through /proc/self/fd where that is mounted, and otherwise the save
// starts again on a named temporary. Each case runs in a forked child that hides /proc under
// an empty tmpfs in a private mount namespace; where no namespace can be made (no
// CAP_SYS_ADMIN and no user namespaces) the test is skipped, saying so.
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <string>

#include "core/bloom.h"
#include "core/bloom_codec.h"
#include "core/fault.h"
#include "tests/support.h"

namespace seen {
namespace {

constexpr int kNoNamespace = 77;

// As a kernel answers a process without CAP_DAC_READ_SEARCH (Linux 6.18 included).
int RefuseEmptyPath(const char* call) { return std::string(call) == "linkat" ? ENOENT : 0; }

// Hides /proc in a private mount namespace of this (single-threaded, forked) process.
bool HideProc() {
  if (unshare(CLONE_NEWNS) != 0) {
    // Without CAP_SYS_ADMIN a user namespace gives it, where the kernel allows them.
    const uid_t uid = getuid();
    const gid_t gid = getgid();
    if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) return false;
    auto write = [](const char* file, const std::string& text) {
      FILE* f = std::fopen(file, "w");
      if (f == nullptr) return false;
      const bool ok = std::fputs(text.c_str(), f) >= 0;
      return std::fclose(f) == 0 && ok;
    };
    if (!write("/proc/self/setgroups", "deny") || !write("/proc/self/uid_map", "0 " + std::to_string(uid) + " 1") ||
        !write("/proc/self/gid_map", "0 " + std::to_string(gid) + " 1")) {
      return false;
    }
  }
  return mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0 &&
         mount("none", "/proc", "tmpfs", 0, nullptr) == 0;
}

// Exit status of a child that hid /proc and then saved a new file and over an old one:
// 0 when both reopened, kNoNamespace when /proc could not be hidden, 1 otherwise.
int SaveWithoutProc(const std::string& path, fault::Hook hook) {
  const pid_t child = fork();
  if (child == 0) {
    if (!HideProc()) _exit(kNoNamespace);
    struct stat st;
    if (stat("/proc/self", &st) == 0) _exit(1);  // still there: the test would prove nothing
    fault::SetHook(hook);
    try {
      const Bloom filter = Bloom::Create(1000, 0.01, 7);
      Save(filter, path);
      Save(filter, path);
      Open(path, false, true);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "save without /proc: %s\n", e.what());
      _exit(1);
    }
    _exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

TEST(SaveWithoutProc, NamesTheTemporaryWithAtEmptyPathOrANamedOne) {
  for (const fault::Hook hook : {fault::Hook{nullptr}, fault::Hook{RefuseEmptyPath}}) {
    test::ScratchDir dir;
    const int status = SaveWithoutProc(dir.File("f.seen"), hook);
    if (status == kNoNamespace) GTEST_SKIP() << "no private mount namespace here (unshare refused): /proc stays";
    EXPECT_EQ(status, 0) << (hook == nullptr ? "AT_EMPTY_PATH permitted" : "AT_EMPTY_PATH refused");
  }
}

// The named path's restart, on any machine: neither way of naming the unnamed temporary works.
int RefuseBothNamings(const char* call) {
  const std::string name = call;
  return name == "linkat" || name == "linkat_proc" ? ENOENT : 0;
}

TEST(SaveWithoutProc, StartsAgainOnANamedTemporaryWhenNoNamingWorks) {
  test::ScratchDir dir;
  const std::string path = dir.File("f.seen");
  const Bloom filter = Bloom::Create(1000, 0.01, 7);
  fault::SetHook(RefuseBothNamings);
  EXPECT_NO_THROW(Save(filter, path));
  EXPECT_NO_THROW(Save(filter, path));
  fault::SetHook(nullptr);
  EXPECT_NO_THROW(Open(path, false, true));
}

}  // namespace
}  // namespace seen
