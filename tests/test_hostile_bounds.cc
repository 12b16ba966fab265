// Resources bounded by the input (docs/FORMAT.md, "Allocation bounds"): a file of every kind
// with each head and params field set to extreme values (checksums fixed, as a hostile file
// would have them) goes through every deserialize, view and open, then a query and an add,
// in a child process whose address space is capped at its size now plus 256 MiB. (Each file
// goes through its own kind's entry points: the others refuse it by its kind field.) Every call
// must answer with a status, and none may be SEEN_ERR_NO_MEMORY: a field that promises more
// than the input holds must be refused by validation, not by running out of memory.
#include <gtest/gtest.h>
#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "seen.h"
#include "tests/every_kind.h"
#include "tests/format_support.h"
#include "tests/sample_files.h"
#include "tests/support.h"

namespace seen::test {
namespace {

constexpr uint64_t kHeadroom = uint64_t{256} << 20;
const uint64_t kExtremes[] = {0, 1, uint64_t{1} << 27, UINT32_MAX, uint64_t{1} << 40, UINT64_MAX};

uint64_t AddressSpaceNow() {
  std::ifstream statm("/proc/self/statm");
  uint64_t pages = 0;
  statm >> pages;
  return pages * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

// In a child under the cap: every field of the head and params, as each aligned u32 and u64,
// at each extreme value. Exits 0, or 2 after naming the first mutation that ran out
// of memory; a crash shows as a signal.
[[noreturn]] void Sweep(Target kind, const std::vector<uint8_t>& good, const std::string& scratch) {
  // Threads the library starts must not each reserve a 64 MiB malloc arena out of the cap.
  mallopt(M_ARENA_MAX, 1);
  struct rlimit cap = {AddressSpaceNow() + kHeadroom, AddressSpaceNow() + kHeadroom};
  if (setrlimit(RLIMIT_AS, &cap) != 0) _exit(4);
  const uint64_t params_end = 64 + LoadU64(good, 16);
  for (size_t offset = 8; offset + 4 <= params_end; offset += 4) {
    if (offset >= 56 && offset < 64) continue;  // the header checksum, re-signed below
    for (uint64_t value : kExtremes) {
      for (size_t width : {4, 8}) {
        if (offset + width > params_end || offset % width != 0) continue;
        std::vector<uint8_t> bad = good;
        for (size_t b = 0; b < width; ++b) bad[offset + b] = static_cast<uint8_t>(value >> (8 * b));
        if (LoadU64(bad, 16) <= bad.size() - 64) Resign(bad);  // else params_size is itself the fault
        Exercise exercise(SEEN_ERR_NO_MEMORY);
        exercise.One(kind, bad.data(), bad.size(), scratch);
        if (exercise.seen() != SEEN_OK) {
          std::fprintf(stderr, "byte %zu = %llu (%zu bytes): %s\n", offset, static_cast<unsigned long long>(value),
                       width, exercise.message().c_str());
          _exit(2);
        }
      }
    }
  }
  _exit(0);
}

TEST(HostileBounds, EveryFieldOfEveryKindStaysWithinTheCap) {
#ifdef SEEN_ASAN
  GTEST_SKIP() << "AddressSanitizer reserves terabytes of shadow: an address-space cap cannot apply";
#endif
  ScratchDir dir;
  for (const auto& [name, kind, bytes] : SampleFiles(dir.File("store.seen"))) {
    ASSERT_GT(bytes.size(), 64u) << name;
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) Sweep(kind, bytes, dir.File("sweep.seen"));
    int status = 0;
    waitpid(child, &status, 0);
    EXPECT_TRUE(WIFEXITED(status)) << name << ": the child died of signal " << WTERMSIG(status);
    if (WIFEXITED(status)) {
      EXPECT_EQ(WEXITSTATUS(status), 0) << name << " (2: out of memory, see stderr)";
    }
  }
}

}  // namespace
}  // namespace seen::test
