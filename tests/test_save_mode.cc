// A save replaces the file at its path, and the replacement keeps what the old file had: its
// mode (a chmod 600 file stays 0600) and, where the process may give it, its owner. On both
// paths: the unnamed O_TMPFILE temporary and the named one used where O_TMPFILE is missing.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "core/bloom.h"
#include "core/bloom_codec.h"
#include "core/fault.h"
#include "tests/support.h"

namespace seen {
namespace {

int NoTmpfile(const char* call) { return std::string(call) == "open_tmpfile" ? EOPNOTSUPP : 0; }

struct StatOf {
  explicit StatOf(const std::string& path) { EXPECT_EQ(stat(path.c_str(), &st), 0) << path; }
  mode_t mode() const { return st.st_mode & 07777; }
  struct stat st {};
};

class SaveMode : public testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    if (GetParam()) fault::SetHook(NoTmpfile);
    old_umask = umask(022);
  }
  void TearDown() override {
    fault::SetHook(nullptr);
    umask(old_umask);
  }

  test::ScratchDir dir;
  const std::string path = dir.File("f.seen");
  const Bloom filter = Bloom::Create(1000, 0.01, 7);
  mode_t old_umask = 0;
};

TEST_P(SaveMode, ANewFileTakesTheUmask) {
  Save(filter, path);
  EXPECT_EQ(StatOf(path).mode(), 0644u);
}

TEST_P(SaveMode, AReplacedFileKeepsItsMode) {
  for (const mode_t mode : {0600, 0640, 0604, 0660, 0400, 0755}) {
    Save(filter, path);
    ASSERT_EQ(chmod(path.c_str(), mode), 0);
    Save(filter, path);
    EXPECT_EQ(StatOf(path).mode(), mode) << std::oct << "mode 0" << mode;
    EXPECT_NO_THROW(Open(path, false, true));
  }
}

// Only root may give a file to another user; elsewhere the mode is what is kept.
TEST_P(SaveMode, AReplacedFileKeepsItsOwnerWherePermitted) {
  if (geteuid() != 0) GTEST_SKIP() << "only root may give a file to another user";
  Save(filter, path);
  ASSERT_EQ(chown(path.c_str(), 4321, 8765), 0);
  ASSERT_EQ(chmod(path.c_str(), 0600), 0);
  Save(filter, path);
  const StatOf after(path);
  EXPECT_EQ(after.st.st_uid, 4321u);
  EXPECT_EQ(after.st.st_gid, 8765u);
  EXPECT_EQ(after.mode(), 0600u);
}

INSTANTIATE_TEST_SUITE_P(Paths, SaveMode, testing::Values(false, true),
                         [](const testing::TestParamInfo<bool>& info) {
                           return info.param ? "NamedTemporary" : "Tmpfile";
                         });

}  // namespace
}  // namespace seen
