// Saves and serializes racing writers (capi/seen.h, "Snapshots"): every file and buffer must
// reopen with verified checksums and hold every add completed before the save began. The
// saves per kind come from SEEN_SNAPSHOT_SAVES (tests/snapshot_race.h).
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "seen.h"
#include "tests/flat_kinds.h"
#include "tests/format_support.h"
#include "tests/snapshot_race.h"
#include "tests/support.h"

namespace seen::test {
namespace {

// 256 keys that save i adds, completed, just before it starts.
std::vector<uint64_t> Markers(int i) {
  std::vector<uint64_t> keys = Keys(256 * (i + 1), 1);
  return {keys.end() - 256, keys.end()};
}

// Keys the writers add, disjoint from the markers.
std::vector<uint64_t> Noise(int thread, uint64_t round) {
  std::vector<uint64_t> keys(512);
  for (size_t j = 0; j < keys.size(); ++j) keys[j] = Mix(2 * ((round * 8 + thread) * 512 + j));
  return keys;
}

// Saves and serializes f while `writers` threads run write(); before each, the markers go in.
// Each file and buffer must reopen, verified, with every marker in it.
template <class Api>
void SnapshotsRacing(typename Api::Handle* f, int writers, const std::function<void(int, uint64_t)>& write) {
  ScratchDir dir;
  const std::string path = dir.File("racing.seen");
  size_t bytes = 0;
  ASSERT_EQ(Api::serialize(f, nullptr, 0, &bytes), SEEN_OK);
  std::vector<uint8_t> buf(bytes);
  Race(writers, write, [&](int i) {
    const std::vector<uint64_t> markers = Markers(i);
    ASSERT_EQ(Api::add(f, markers.data(), markers.size()), SEEN_OK);
    ASSERT_EQ(Api::save(f, path.c_str()), SEEN_OK) << seen_last_error();
    size_t written = 0;
    ASSERT_EQ(Api::serialize(f, buf.data(), buf.size(), &written), SEEN_OK);
    typename Api::Handle* from_file = nullptr;
    typename Api::Handle* from_buf = nullptr;
    ASSERT_EQ(Api::open(path.c_str(), SEEN_OPEN_READ_ONLY, &from_file, nullptr), SEEN_OK)
        << "save " << i << ": " << seen_last_error();
    ASSERT_EQ(Api::deserialize(buf.data(), written, &from_buf, nullptr), SEEN_OK)
        << "serialize " << i << ": " << seen_last_error();
    for (typename Api::Handle* g : {from_file, from_buf}) {
      std::vector<uint8_t> out(markers.size());
      ASSERT_EQ(Api::contains(g, markers.data(), markers.size(), out.data()), SEEN_OK);
      EXPECT_EQ(CountYes(out), markers.size()) << "snapshot " << i << " lost completed adds";
      Api::free(g);
    }
  });
}

TEST(Snapshot, BloomSaveAndSerializeRacingTwoAdders) {
  seen_bloom* f = nullptr;
  ASSERT_EQ(seen_bloom_create(4'000'000, 0.01, 7, &f, nullptr), SEEN_OK);  // ~4.8 MB: several chunks
  SnapshotsRacing<BloomApi>(f, 2, [&](int t, uint64_t round) {
    const std::vector<uint64_t> keys = Noise(t, round);
    seen_bloom_add_u64(f, keys.data(), keys.size());
  });
  seen_bloom_free(f);
}

TEST(Snapshot, StoreSaveRacingTwoMarkers) {
  ScratchDir dir;
  const std::string path = dir.File("store.seen");
  seen_window_options window = {};
  window.size = sizeof window;
  window.mode = SEEN_WINDOW_COUNT;
  window.span = 1000;
  window.fpr = 0.01;
  seen_store_options opts = {};
  opts.size = sizeof opts;
  opts.window = &window;
  seen_store* s = nullptr;
  ASSERT_EQ(seen_store_create(&opts, &s, nullptr), SEEN_OK);
  Race(2, [&](int t, uint64_t round) {
    const std::vector<uint64_t> items = Noise(t, round);
    seen_store_mark(s, 1000 + round % 500, items.data(), 8, 100);
  }, [&](int i) {
    const std::vector<uint64_t> markers = Markers(i);
    ASSERT_EQ(seen_store_mark(s, static_cast<uint64_t>(i), markers.data(), 16, 100), SEEN_OK);
    ASSERT_EQ(seen_store_save(s, path.c_str()), SEEN_OK) << seen_last_error();
    seen_store* g = nullptr;
    ASSERT_EQ(seen_store_open(path.c_str(), SEEN_OPEN_READ_ONLY, &g, nullptr), SEEN_OK)
        << "save " << i << ": " << seen_last_error();
    std::vector<uint8_t> unseen(16);
    ASSERT_EQ(seen_store_filter(g, static_cast<uint64_t>(i), markers.data(), 16, 100, unseen.data()), SEEN_OK);
    EXPECT_EQ(CountYes(unseen), 0u) << "snapshot " << i << " lost completed marks";
    seen_store_free(g);
  });
  seen_store_free(s);
}

}  // namespace
}  // namespace seen::test
