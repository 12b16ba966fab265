// Saves and serializes of the SimHash and MinHash indexes racing their writers. Their adds
// and removes need exclusive access (capi/seen.h), so the probe keeps the caller's side of
// that contract with a lock: one writer adds and removes under it exclusively, two readers
// query under it shared, and each save runs shared beside them. What races is the rest: the
// first query or save after a change settles the tables (under the index's own lock) while
// the others wait or read. Before each save a set of markers goes in; every file and buffer
// must reopen, verified, with every marker found. The saves come from SEEN_SNAPSHOT_SAVES
// (tests/snapshot_race.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <thread>
#include <vector>

#include "seen.h"
#include "tests/snapshot_race.h"
#include "tests/support.h"

namespace seen::test {
namespace {

// A readers-writer lock that lets a waiting writer in: glibc's rwlock prefers readers, and two
// readers that never pause would keep the writer out for good.
class Gate {
 public:
  std::unique_lock<std::shared_mutex> Write() {
    ++waiting_;
    std::unique_lock<std::shared_mutex> held(lock_);
    --waiting_;
    return held;
  }
  std::shared_lock<std::shared_mutex> Read() {
    while (waiting_.load() > 0) std::this_thread::yield();
    return std::shared_lock<std::shared_mutex>(lock_);
  }

 private:
  std::shared_mutex lock_;
  std::atomic<int> waiting_{0};
};

// Rounds of writes the writer keeps: it removes what it added this many rounds ago, so the
// index stays small however long the saves take.
constexpr uint64_t kRoundsKept = 4;

// Runs the probe on Index (one of the two kinds below).
template <class Index>
void SnapshotsRacing() {
  Index index;
  Gate gate;
  ScratchDir dir;
  const std::string path = dir.File("racing.seen");
  Race(3, [&](int thread, uint64_t round) {
    if (thread == 0) {
      const auto held = gate.Write();
      index.AddNoise(round);
      if (round >= kRoundsKept) index.RemoveNoise(round - kRoundsKept);
    } else {
      const auto held = gate.Read();
      index.QueryNoise(round);
    }
  }, [&](int i) {
    {
      const auto held = gate.Write();
      index.AddMarkers(i);
    }
    std::vector<uint8_t> buf;
    {
      const auto held = gate.Read();
      ASSERT_EQ(index.Save(path), SEEN_OK) << "save " << i << ": " << seen_last_error();
      buf = index.Serialize();
    }
    typename Index::Handle* from_file = nullptr;
    typename Index::Handle* from_buf = nullptr;
    ASSERT_EQ(Index::Open(path, &from_file), SEEN_OK) << "save " << i << ": " << seen_last_error();
    ASSERT_EQ(Index::Deserialize(buf, &from_buf), SEEN_OK) << "serialize " << i << ": " << seen_last_error();
    for (typename Index::Handle* opened : {from_file, from_buf}) {
      EXPECT_EQ(Index::MarkersFound(opened, i), Index::kMarkers) << "snapshot " << i << " lost completed adds";
      Index::Free(opened);
    }
  });
}

// SimHash: random fingerprints under ids that name their round; a marker is found when a
// query at distance 0 of its fingerprint returns its id.
class Simhash {
 public:
  using Handle = seen_simhash_index;
  static constexpr uint64_t kMarkers = 64;
  static constexpr uint64_t kNoise = 256;

  Simhash() { EXPECT_EQ(seen_simhash_index_create(3, &index_, nullptr), SEEN_OK); }
  ~Simhash() { seen_simhash_index_free(index_); }

  void AddNoise(uint64_t round) {
    const std::vector<uint64_t> ids = NoiseIds(round);
    std::vector<uint64_t> fingerprints(ids.size());
    for (size_t j = 0; j < ids.size(); ++j) fingerprints[j] = Mix(2 * ids[j]);
    EXPECT_EQ(seen_simhash_index_add(index_, fingerprints.data(), ids.data(), ids.size()), SEEN_OK);
  }
  void RemoveNoise(uint64_t round) {
    const std::vector<uint64_t> ids = NoiseIds(round);
    EXPECT_EQ(seen_simhash_index_remove(index_, ids.data(), ids.size(), nullptr), SEEN_OK);
  }
  void QueryNoise(uint64_t round) const {
    uint64_t ids[16];
    size_t found = 0;
    EXPECT_EQ(seen_simhash_index_query(index_, Mix(2 * round), 3, ids, nullptr, 16, &found), SEEN_OK);
  }
  void AddMarkers(int save) {
    std::vector<uint64_t> ids(kMarkers), fingerprints(kMarkers);
    for (uint64_t j = 0; j < kMarkers; ++j) ids[j] = MarkerId(save, j), fingerprints[j] = Mix(2 * ids[j] + 1);
    EXPECT_EQ(seen_simhash_index_add(index_, fingerprints.data(), ids.data(), kMarkers), SEEN_OK);
  }
  seen_status Save(const std::string& path) const { return seen_simhash_index_save(index_, path.c_str()); }
  std::vector<uint8_t> Serialize() const {
    size_t bytes = 0;
    EXPECT_EQ(seen_simhash_index_serialize(index_, nullptr, 0, &bytes), SEEN_OK);
    std::vector<uint8_t> buf(bytes);
    EXPECT_EQ(seen_simhash_index_serialize(index_, buf.data(), buf.size(), &bytes), SEEN_OK);
    return buf;
  }

  static seen_status Open(const std::string& path, Handle** out) {
    return seen_simhash_index_open(path.c_str(), SEEN_OPEN_READ_ONLY, out, nullptr);
  }
  static seen_status Deserialize(const std::vector<uint8_t>& buf, Handle** out) {
    return seen_simhash_index_deserialize(buf.data(), buf.size(), out, nullptr);
  }
  static uint64_t MarkersFound(const Handle* index, int save) {
    uint64_t found_all = 0;
    for (uint64_t j = 0; j < kMarkers; ++j) {
      const uint64_t id = MarkerId(save, j);
      uint64_t ids[8];
      size_t found = 0;
      EXPECT_EQ(seen_simhash_index_query(index, Mix(2 * id + 1), 0, ids, nullptr, 8, &found), SEEN_OK);
      for (size_t m = 0; m < std::min<size_t>(found, 8); ++m) found_all += ids[m] == id;
    }
    return found_all;
  }
  static void Free(Handle* index) { seen_simhash_index_free(index); }

 private:
  static std::vector<uint64_t> NoiseIds(uint64_t round) {
    std::vector<uint64_t> ids(kNoise);
    for (uint64_t j = 0; j < kNoise; ++j) ids[j] = round * kNoise + j;
    return ids;
  }
  // Above every noise id.
  static uint64_t MarkerId(int save, uint64_t j) { return (uint64_t{1} << 48) + save * kMarkers + j; }

  Handle* index_ = nullptr;
};

// MinHash: texts of words drawn by id; a marker is found when a query of its text returns
// its id (similarity 1, above any threshold).
class Minhash {
 public:
  using Handle = seen_minhash_index;
  static constexpr uint64_t kMarkers = 16;
  static constexpr uint64_t kNoise = 32;

  Minhash() {
    seen_minhash_options opts = {};
    opts.size = sizeof opts;
    EXPECT_EQ(seen_minhash_index_create(&opts, &index_, nullptr), SEEN_OK);
  }
  ~Minhash() { seen_minhash_index_free(index_); }

  void AddNoise(uint64_t round) {
    for (uint64_t j = 0; j < kNoise; ++j) {
      const std::string text = Text(round * kNoise + j);
      EXPECT_EQ(seen_minhash_index_add_text(index_, round * kNoise + j, text.data(), text.size()), SEEN_OK);
    }
  }
  void RemoveNoise(uint64_t round) {
    for (uint64_t j = 0; j < kNoise; ++j) {
      EXPECT_EQ(seen_minhash_index_remove(index_, round * kNoise + j, nullptr), SEEN_OK);
    }
  }
  void QueryNoise(uint64_t round) const {
    const std::string text = Text(round * kNoise);
    uint64_t ids[16];
    size_t found = 0;
    EXPECT_EQ(seen_minhash_index_query_text(index_, text.data(), text.size(), ids, nullptr, 16, &found), SEEN_OK);
  }
  void AddMarkers(int save) {
    for (uint64_t j = 0; j < kMarkers; ++j) {
      const uint64_t id = MarkerId(save, j);
      const std::string text = Text(id);
      EXPECT_EQ(seen_minhash_index_add_text(index_, id, text.data(), text.size()), SEEN_OK);
    }
  }
  seen_status Save(const std::string& path) const { return seen_minhash_index_save(index_, path.c_str()); }
  std::vector<uint8_t> Serialize() const {
    size_t bytes = 0;
    EXPECT_EQ(seen_minhash_index_serialize(index_, nullptr, 0, &bytes), SEEN_OK);
    std::vector<uint8_t> buf(bytes);
    EXPECT_EQ(seen_minhash_index_serialize(index_, buf.data(), buf.size(), &bytes), SEEN_OK);
    return buf;
  }

  static seen_status Open(const std::string& path, Handle** out) {
    return seen_minhash_index_open(path.c_str(), SEEN_OPEN_READ_ONLY, nullptr, 0, out, nullptr);
  }
  static seen_status Deserialize(const std::vector<uint8_t>& buf, Handle** out) {
    return seen_minhash_index_deserialize(buf.data(), buf.size(), nullptr, 0, out, nullptr);
  }
  static uint64_t MarkersFound(const Handle* index, int save) {
    uint64_t found_all = 0;
    for (uint64_t j = 0; j < kMarkers; ++j) {
      const uint64_t id = MarkerId(save, j);
      const std::string text = Text(id);
      uint64_t ids[8];
      size_t found = 0;
      EXPECT_EQ(seen_minhash_index_query_text(index, text.data(), text.size(), ids, nullptr, 8, &found), SEEN_OK);
      for (size_t m = 0; m < std::min<size_t>(found, 8); ++m) found_all += ids[m] == id;
    }
    return found_all;
  }
  static void Free(Handle* index) { seen_minhash_index_free(index); }

 private:
  // 24 words from a vocabulary of 5,000: two ids' texts share few shingles.
  static std::string Text(uint64_t id) {
    std::string text;
    for (uint64_t w = 0; w < 24; ++w) text += "w" + std::to_string(Mix(id * 24 + w) % 5000) + " ";
    return text;
  }
  static uint64_t MarkerId(int save, uint64_t j) { return (uint64_t{1} << 48) + save * kMarkers + j; }

  Handle* index_ = nullptr;
};

TEST(SnapshotIndexes, SimhashSaveAndSerializeRacingAWriterAndTwoReaders) { SnapshotsRacing<Simhash>(); }

TEST(SnapshotIndexes, MinhashSaveAndSerializeRacingAWriterAndTwoReaders) { SnapshotsRacing<Minhash>(); }

}  // namespace
}  // namespace seen::test
