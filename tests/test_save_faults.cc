// Fault injection into every system call of a save (the seam of core/fault.h), on both paths:
// the unnamed O_TMPFILE temporary, and the named one used where O_TMPFILE is missing. After a
// failed call the previous file or the new one is intact and no temporary remains; after a
// crash at any call (a forked child that ends there) the file is intact and the next save
// removes whatever the dead writer left; a live writer's temporary is never removed.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <dirent.h>

#include <atomic>
#include <cerrno>
#include <string>
#include <thread>
#include <vector>

#include "core/bloom.h"
#include "core/bloom_codec.h"
#include "core/error.h"
#include "core/fault.h"
#include "tests/format_support.h"
#include "tests/support.h"

namespace seen {
namespace {

using test::CodeOf;

// The seam's script: which call (counted from 0) fails, with what, and whether O_TMPFILE is
// reported missing. Calls are counted across the whole save.
std::atomic<int> calls{0};
std::atomic<int> fail_at{-1};
std::atomic<int> fail_errno{EIO};
std::atomic<bool> no_tmpfile{false};
std::atomic<bool> crash{false};

int Script(const char* call) {
  if (no_tmpfile && std::string(call) == "open_tmpfile") return EOPNOTSUPP;
  const int index = calls++;
  if (index != fail_at) return 0;
  if (crash) _exit(3);
  return fail_errno;
}

struct Seam {
  explicit Seam(bool without_tmpfile) {
    calls = 0;
    fail_at = -1;
    crash = false;
    no_tmpfile = without_tmpfile;
    fault::SetHook(Script);
  }
  ~Seam() { fault::SetHook(nullptr); }
};

std::vector<uint8_t> Bytes(const Bloom& filter) {
  std::vector<uint8_t> out(SerializedSize(filter));
  Serialize(filter, out.data());
  return out;
}

// Two filters whose files differ and span several write chunks.
Bloom Filter(uint64_t seed) {
  Bloom f = Bloom::Create(2'000'000, 0.01, seed);
  const auto keys = test::Keys(1000, seed);
  f.AddU64(keys.data(), keys.size());
  return f;
}

std::vector<std::string> Entries(const std::string& dir) {
  std::vector<std::string> names;
  DIR* d = opendir(dir.c_str());
  while (dirent* e = readdir(d)) {
    if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") names.push_back(e->d_name);
  }
  closedir(d);
  return names;
}

// The file at path, verified, equals old or new; says which (0 or 1).
int WhichIsIntact(const std::string& path, const std::vector<uint8_t>& old_bytes,
                  const std::vector<uint8_t>& new_bytes) {
  const std::vector<uint8_t> now = Bytes(Open(path, false, true));
  if (now == old_bytes) return 0;
  if (now == new_bytes) return 1;
  return -1;
}

// How many seam calls one save over an existing file makes on this path (it gives the
// temporary the old file's mode, which a first save does not).
int CallsPerSave(bool without_tmpfile, const Bloom& f, const std::string& path) {
  Save(f, path);
  Seam seam(without_tmpfile);
  Save(f, path);
  return calls;
}

// A previous file (old) and the save that a fault meets (new), on the path GetParam() picks:
// true is the named temporary, as where O_TMPFILE is missing.
class SaveFaults : public testing::TestWithParam<bool> {
 protected:
  void SetUp() override { calls_per_save = CallsPerSave(without_tmpfile, new_filter, path); }

  const bool without_tmpfile = GetParam();
  test::ScratchDir dir;
  const std::string path = dir.File("f.seen");
  const Bloom old_filter = Filter(1), new_filter = Filter(2);
  const std::vector<uint8_t> old_bytes = Bytes(old_filter), new_bytes = Bytes(new_filter);
  int calls_per_save = 0;
};

TEST_P(SaveFaults, EachFailedCallLeavesOldOrNewFileAndNoTemporary) {
  const int n = calls_per_save;
  ASSERT_GE(n, 9) << "open, flock, fchmod, pwrite x >= 2, fsync, [linkat], rename, open_dir, fsync_dir";
  int new_survived = 0;
  for (int i = 0; i < n; ++i) {
    Save(old_filter, path);
    Seam seam(without_tmpfile);
    fail_at = i;
    EXPECT_EQ(CodeOf([&] { Save(new_filter, path); }), Code::kIo) << "call " << i;
    const int which = WhichIsIntact(path, old_bytes, new_bytes);
    EXPECT_NE(which, -1) << "call " << i << " left neither file";
    new_survived += which;
    EXPECT_EQ(Entries(dir.path()), std::vector<std::string>{"f.seen"}) << "call " << i << " left a temporary";
  }
  // Only the directory's open and fsync come after the rename.
  EXPECT_EQ(new_survived, 2);
}

TEST_P(SaveFaults, ACrashAtAnyCallLeavesAFileAndTheNextSaveRemovesTheRest) {
  const int n = calls_per_save;
  int left_behind = 0;
  for (int i = 0; i < n; ++i) {
    Save(old_filter, path);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      Seam seam(without_tmpfile);
      fail_at = i;
      crash = true;
      Save(new_filter, path);
      _exit(0);
    }
    int status = 0;
    waitpid(child, &status, 0);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 3) << "the child did not crash at call " << i;
    EXPECT_NE(WhichIsIntact(path, old_bytes, new_bytes), -1) << "crash at call " << i;
    left_behind += Entries(dir.path()).size() > 1;
    Save(old_filter, path);
    EXPECT_EQ(Entries(dir.path()), std::vector<std::string>{"f.seen"}) << "crash at call " << i;
  }
  // A named temporary exists from its creation (no O_TMPFILE) or its linkat up to the rename.
  EXPECT_GT(left_behind, 0) << "no crash left a temporary: the removal was not exercised";
}

// A writer stopped before its rename (its temporary named) while another save of the same
// path runs: the other save must leave the live writer's temporary alone.
std::atomic<bool> release{false};
thread_local bool paused_writer = false;

int PauseAtRename(const char* call) {
  if (no_tmpfile && std::string(call) == "open_tmpfile") return EOPNOTSUPP;
  if (paused_writer && std::string(call) == "rename") {
    while (!release) std::this_thread::yield();
  }
  return 0;
}

TEST_P(SaveFaults, ALiveWritersTemporaryIsKept) {
  Save(old_filter, path);
  no_tmpfile = without_tmpfile;
  release = false;
  fault::SetHook(PauseAtRename);
  std::thread writer([&] {
    paused_writer = true;
    Save(new_filter, path);
  });
  while (Entries(dir.path()).size() < 2) std::this_thread::yield();
  Save(old_filter, path);
  EXPECT_EQ(Entries(dir.path()).size(), 2u) << "a live writer's temporary was removed";
  release = true;
  writer.join();
  fault::SetHook(nullptr);
  EXPECT_EQ(Bytes(Open(path, false, true)), new_bytes);
  EXPECT_EQ(Entries(dir.path()), std::vector<std::string>{"f.seen"});
}

INSTANTIATE_TEST_SUITE_P(Paths, SaveFaults, testing::Values(false, true),
                         [](const testing::TestParamInfo<bool>& info) {
                           return info.param ? "NamedTemporary" : "Tmpfile";
                         });

}  // namespace
}  // namespace seen
