// The near-duplicate index against brute force (zero mismatches allowed), its multiset
// semantics, removal, clusters, and the kind-6 container: round trips and every bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <numeric>
#include <random>
#include <thread>
#include <vector>

#include "core/error.h"
#include "core/hash.h"
#include "core/simhash.h"
#include "core/simhash_codec.h"
#include "core/simhash_index.h"
#include "tests/format_support.h"
#include "tests/support.h"

namespace seen {
namespace {

using test::CodeOf;
using test::WithField;

using Pairs = std::vector<std::pair<uint64_t, uint32_t>>;  // (id, distance), sorted

uint64_t FlipBits(uint64_t fp, uint32_t bits, std::mt19937_64& rng) {
  for (uint32_t i = 0; i < bits; ++i) fp ^= uint64_t{1} << (rng() % 64);
  return fp;
}

// Fingerprints in families of near neighbours, so that queries have many true matches
// at every distance around k.
std::vector<uint64_t> Corpus(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> fps;
  while (fps.size() < n) {
    const uint64_t center = rng();
    for (int j = 0; j < 8 && fps.size() < n; ++j) fps.push_back(FlipBits(center, rng() % 6, rng));
  }
  return fps;
}

Pairs Brute(const std::vector<uint64_t>& fps, const std::vector<uint64_t>& ids, uint64_t q, uint32_t k) {
  Pairs out;
  for (size_t i = 0; i < fps.size(); ++i) {
    if (Hamming(fps[i], q) <= k) out.push_back({ids[i], Hamming(fps[i], q)});
  }
  std::sort(out.begin(), out.end());
  return out;
}

Pairs Indexed(const SimhashIndex& index, uint64_t q, uint32_t k) {
  std::vector<SimhashMatch> matches;
  index.Query(q, k, matches);
  Pairs out;
  for (const auto& m : matches) {
    EXPECT_EQ(m.distance, Hamming(m.fingerprint, q));
    out.push_back({m.id, m.distance});
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<uint64_t> Iota(size_t n, uint64_t from = 0) {
  std::vector<uint64_t> v(n);
  std::iota(v.begin(), v.end(), from);
  return v;
}

// Runs `queries` queries near stored fingerprints and far from them; counts mismatches.
int Mismatches(uint32_t max_k, uint32_t k, size_t n, size_t queries, uint64_t seed) {
  const auto fps = Corpus(n, seed);
  const auto ids = Iota(n, 1000);
  SimhashIndex index(max_k);
  index.Add(fps.data(), ids.data(), n);
  std::mt19937_64 rng(seed + 1);
  int mismatches = 0;
  size_t nonempty = 0;
  for (size_t i = 0; i < queries; ++i) {
    const uint64_t q = i % 4 == 3 ? rng() : FlipBits(fps[rng() % n], rng() % (k + 3), rng);
    const Pairs want = Brute(fps, ids, q, k);
    nonempty += !want.empty();
    if (Indexed(index, q, k) != want) ++mismatches;
    if (index.Any(q, k) != !want.empty()) ++mismatches;
  }
  EXPECT_GT(nonempty, queries / 5) << "the queries must exercise matches";
  return mismatches;
}

TEST(SimhashIndex, NoMismatchAgainstBruteForceAtK3) {
  EXPECT_EQ(Mismatches(3, 3, 4000, 100000, 1), 0);
}

TEST(SimhashIndex, NoMismatchAtSmallerKThanMaxK) {
  EXPECT_EQ(Mismatches(3, 0, 4000, 5000, 2), 0);
  EXPECT_EQ(Mismatches(3, 2, 4000, 5000, 3), 0);
}

TEST(SimhashIndex, NoMismatchUpToK7) {
  for (uint32_t k : {4u, 5u, 6u, 7u}) EXPECT_EQ(Mismatches(k, k, 3000, 3000, 10 + k), 0) << "k=" << k;
}

// The first queries after adds race to build the tables: one builds, all answer correctly.
TEST(SimhashIndex, ConcurrentFirstQueriesAgree) {
  const auto fps = Corpus(5000, 31);
  const auto ids = Iota(5000);
  SimhashIndex index(3);
  index.Add(fps.data(), ids.data(), fps.size());
  std::vector<int> mismatches(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (size_t i = t; i < fps.size(); i += 9) mismatches[t] += Indexed(index, fps[i], 3) != Brute(fps, ids, fps[i], 3);
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(mismatches, std::vector<int>(4, 0));
}

TEST(SimhashIndex, EmptyIndexFindsNothing) {
  SimhashIndex index(3);
  EXPECT_EQ(index.size(), 0u);
  EXPECT_FALSE(index.Any(123, 3));
  EXPECT_TRUE(Indexed(index, 123, 3).empty());
  EXPECT_TRUE(index.Clusters(3).empty());
}

TEST(SimhashIndex, KBeyondMaxKIsRefused) {
  SimhashIndex index(3);
  EXPECT_THROW(index.Any(1, 4), Error);
  EXPECT_THROW(SimhashIndex(8), Error);
}

TEST(SimhashIndex, DuplicateIdsAreSeparatePairs) {
  SimhashIndex index(3);
  const uint64_t fps[] = {0xF0F0, 0xF0F0, 0xF0F1, ~uint64_t{0}};
  const uint64_t ids[] = {7, 7, 7, 8};
  index.Add(fps, ids, 4);
  EXPECT_EQ(index.size(), 4u);
  EXPECT_EQ(Indexed(index, 0xF0F0, 3), (Pairs{{7, 0}, {7, 0}, {7, 1}}));
  const uint64_t gone = 7;
  EXPECT_EQ(index.Remove(&gone, 1), 3u) << "remove takes every pair of the id";
  EXPECT_EQ(index.size(), 1u);
  EXPECT_TRUE(Indexed(index, 0xF0F0, 3).empty());
  EXPECT_EQ(Indexed(index, ~uint64_t{0}, 0), (Pairs{{8, 0}}));
}

TEST(SimhashIndex, RemoveThenAddMatchesBruteForce) {
  auto fps = Corpus(3000, 5);
  auto ids = Iota(3000);
  SimhashIndex index(3);
  index.Add(fps.data(), ids.data(), fps.size());
  std::vector<uint64_t> gone;
  for (uint64_t id = 0; id < 3000; id += 3) gone.push_back(id);
  gone.push_back(999999);  // absent: ignored
  EXPECT_EQ(index.Remove(gone.data(), gone.size()), 1000u);
  std::vector<uint64_t> kept_fps, kept_ids;
  for (size_t i = 0; i < fps.size(); ++i) {
    if (ids[i] % 3 != 0) {
      kept_fps.push_back(fps[i]);
      kept_ids.push_back(ids[i]);
    }
  }
  const auto more = Corpus(500, 6);
  const auto more_ids = Iota(500, 10000);
  index.Add(more.data(), more_ids.data(), more.size());
  kept_fps.insert(kept_fps.end(), more.begin(), more.end());
  kept_ids.insert(kept_ids.end(), more_ids.begin(), more_ids.end());
  for (size_t i = 0; i < kept_fps.size(); i += 7) {
    ASSERT_EQ(Indexed(index, kept_fps[i], 3), Brute(kept_fps, kept_ids, kept_fps[i], 3));
  }
}

// Clusters against a naive leader clustering over every pair: leaders in id order, each
// taking, in id order, every pair not yet taken that is within k of every member so far. Ids
// are shuffled, so id order is not table order.
TEST(SimhashIndex, ClustersAreLeaderGroupsThatNeverChain) {
  const size_t n = 2000;
  const auto fps = Corpus(n, 8);
  std::vector<uint64_t> ids = Iota(n);
  std::shuffle(ids.begin(), ids.end(), std::mt19937_64(3));
  SimhashIndex index(3);
  index.Add(fps.data(), ids.data(), n);
  const std::vector<uint32_t> group = index.Clusters(3);
  const uint64_t* e = index.Fingerprints();
  const uint64_t* id = index.Ids();
  ASSERT_EQ(group.size(), n);
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return id[a] < id[b]; });
  std::vector<size_t> leader(n, SIZE_MAX);
  for (size_t l : order) {
    if (leader[l] != SIZE_MAX) continue;
    std::vector<size_t> taken;
    for (size_t j : order) {
      if (leader[j] != SIZE_MAX && j != l) continue;
      if (std::all_of(taken.begin(), taken.end(), [&](size_t m) { return Hamming(e[m], e[j]) <= 3; }) &&
          Hamming(e[l], e[j]) <= 3) {
        leader[j] = l;
        taken.push_back(j);
      }
    }
  }
  std::vector<size_t> members(n);
  for (uint32_t g : group) ++members[g];
  size_t clustered = 0;
  for (size_t i = 0; i < n; ++i) {
    EXPECT_LE(Hamming(e[i], e[leader[i]]), 3u);
    for (size_t j = i + 1; j < n; j += 7) {
      ASSERT_EQ(group[i] == group[j], leader[i] == leader[j]) << i << " " << j;
      if (group[i] == group[j]) {
        EXPECT_LE(Hamming(e[i], e[j]), 3u) << "a group spans at most k";
      }
    }
    clustered += members[group[i]] > 1;
  }
  EXPECT_GT(clustered, 100u) << "the corpus must have real clusters";
  EXPECT_EQ(group[0], 0u) << "groups are numbered by first entry";
}

// a ~ b ~ c with a and c 2k apart: transitive grouping would join all three.
TEST(SimhashIndex, AChainOfNearPairsDoesNotJoinFarOnes) {
  const uint64_t a = 0x0123456789ABCDEFull, b = a ^ 0b111, c = b ^ 0b111000;
  SimhashIndex index(3);
  const uint64_t fps[] = {c, b, a}, ids[] = {3, 2, 1};
  index.Add(fps, ids, 3);
  const std::vector<uint32_t> group = index.Clusters(3);
  std::vector<uint32_t> of(4);
  for (size_t i = 0; i < 3; ++i) of[index.Ids()[i]] = group[i];
  EXPECT_EQ(of[1], of[2]) << "b is within 3 of a, the representative (smallest id)";
  EXPECT_NE(of[3], of[1]) << "c is 6 from a: not chained in through b";
}

// b and c are each within k of a, on opposite sides: 6 apart, they may not share a group.
TEST(SimhashIndex, TwoNeighboursOfALeaderFarFromEachOtherStayApart) {
  const uint64_t a = 0x0123456789ABCDEFull, b = a ^ 0b111, c = a ^ 0b111000;
  SimhashIndex index(3);
  const uint64_t fps[] = {a, b, c}, ids[] = {1, 2, 3};
  index.Add(fps, ids, 3);
  const std::vector<uint32_t> group = index.Clusters(3);
  std::vector<uint32_t> of(4);
  for (size_t i = 0; i < 3; ++i) of[index.Ids()[i]] = group[i];
  EXPECT_EQ(of[1], of[2]) << "b, the smaller id, joins a";
  EXPECT_NE(of[3], of[1]) << "c is within 3 of a but 6 of b";
}

// size() may run beside a query, whose first call moves the staged pairs into the tables:
// it must never see them half moved (counted twice, or not at all).
TEST(SimhashIndex, SizeIsRightBesideAQueryThatBuilds) {
  const auto fps = Corpus(4000, 5);
  std::atomic<int> wrong{0};
  for (int round = 0; round < 30; ++round) {
    SimhashIndex index(3);
    index.Add(fps.data(), Iota(fps.size()).data(), fps.size());
    std::atomic<bool> built{false};
    std::thread query([&] {
      index.Any(fps[0], 3);
      built = true;
    });
    while (!built) wrong += index.size() != fps.size();
    query.join();
    wrong += index.size() != fps.size();
  }
  EXPECT_EQ(wrong.load(), 0);
}

std::vector<uint8_t> Bytes(const SimhashIndex& index) {
  std::vector<uint8_t> out(SerializedSize(index));
  Serialize(index, out.data());
  return out;
}

SimhashIndex Sample() {
  const auto fps = Corpus(3000, 21);
  SimhashIndex index(3);
  index.Add(fps.data(), Iota(3000, 50).data(), fps.size());
  return index;
}

TEST(SimhashFormat, RoundTripsThroughBytesAndFiles) {
  const SimhashIndex index = Sample();
  const auto bytes = Bytes(index);
  EXPECT_EQ(test::LoadU32(bytes, 12), 6u) << "kind 6";
  const SimhashIndex copy = DeserializeSimhashIndex(bytes.data(), bytes.size());
  EXPECT_EQ(Bytes(copy), bytes);
  EXPECT_FALSE(copy.read_only());
  const SimhashIndex view = ViewSimhashIndex(bytes.data(), bytes.size(), true);
  EXPECT_TRUE(view.read_only());
  EXPECT_EQ(view.payload(), bytes.data() + 128) << "a view must not copy";
  test::ScratchDir dir;
  Save(index, dir.File("i.seen"));
  const SimhashIndex mapped = OpenSimhashIndex(dir.File("i.seen"), true);
  EXPECT_TRUE(mapped.read_only());
  const uint64_t id = 1;
  const uint64_t fp = 2;
  EXPECT_THROW(const_cast<SimhashIndex&>(mapped).Add(&fp, &id, 1), Error);
  const auto fps = Corpus(3000, 21);
  for (size_t i = 0; i < fps.size(); i += 11) {
    ASSERT_EQ(Indexed(mapped, fps[i], 3), Indexed(index, fps[i], 3));
    ASSERT_EQ(Indexed(copy, fps[i], 3), Indexed(index, fps[i], 3));
  }
  SimhashIndex grown = DeserializeSimhashIndex(bytes.data(), bytes.size());
  grown.Add(&fp, &id, 1);
  EXPECT_EQ(grown.size(), 3001u);
  EXPECT_EQ(Indexed(grown, 2, 0), (Pairs{{1, 0}}));
}


TEST(SimhashFormat, EveryParamsFieldIsChecked) {
  const auto good = Bytes(Sample());
  auto parse = [](const std::vector<uint8_t>& b) {
    return CodeOf([&] { DeserializeSimhashIndex(b.data(), b.size()); });
  };
  auto view = [](const std::vector<uint8_t>& b) {
    return CodeOf([&] { ViewSimhashIndex(b.data(), b.size(), false); });
  };
  ASSERT_EQ(parse(good), Code::kOk);
  EXPECT_EQ(parse(WithField<uint32_t>(good, 12, 1)), Code::kWrongKind);
  EXPECT_EQ(parse(WithField<uint64_t>(good, 64, 3001)), Code::kInconsistent) << "count";
  EXPECT_EQ(parse(WithField<uint64_t>(good, 64, uint64_t{1} << 40)), Code::kTooLarge) << "absurd count";
  EXPECT_EQ(parse(WithField<uint32_t>(good, 72, 8)), Code::kInconsistent) << "max_k";
  EXPECT_EQ(parse(WithField<uint32_t>(good, 72, 4)), Code::kInconsistent) << "max_k disagreeing with blocks";
  EXPECT_EQ(parse(WithField<uint32_t>(good, 76, 5)), Code::kInconsistent) << "blocks";
  EXPECT_EQ(parse(WithField<uint32_t>(good, 80, 15)), Code::kInconsistent) << "primary_bits under block 0";
  EXPECT_EQ(parse(WithField<uint32_t>(good, 80, 27)), Code::kInconsistent) << "primary_bits over 26";
  EXPECT_EQ(parse(WithField<uint32_t>(good, 80, 17)), Code::kInconsistent) << "primary_bits vs payload size";
  EXPECT_EQ(parse(WithField<uint32_t>(good, 84, 2)), Code::kUnsupportedVersion) << "table scheme";
  for (size_t at = 88; at < 128; ++at) EXPECT_EQ(parse(WithField<uint8_t>(good, at, 1)), Code::kInconsistent) << at;
  // Unsigned payload damage: the checksum catches it, and without the checksum the offsets
  // check still refuses anything that would read outside a table.
  auto damaged = good;
  const uint64_t primary_offsets = 128 + 24000 + 24000;  // fingerprints, ids (multiples of 64)
  std::memset(damaged.data() + primary_offsets + 400, 0xFF, 4);
  EXPECT_EQ(parse(damaged), Code::kBadChecksum);
  EXPECT_EQ(view(damaged), Code::kInconsistent);
  auto last = good;
  std::memset(last.data() + primary_offsets + 4 * 65536, 0, 4);
  EXPECT_EQ(view(last), Code::kInconsistent) << "the offsets must end at count";
  // Truncated anywhere: refused, never read past the end.
  for (size_t len : {size_t{0}, size_t{63}, size_t{100}, size_t{128}, good.size() / 2, good.size() - 1}) {
    std::vector<uint8_t> cut(good.begin(), good.begin() + len);
    EXPECT_NE(parse(cut), Code::kOk) << len;
  }
}

// Unverified views of randomly damaged files: each is refused or answers queries without
// reading outside the buffer (the sanitizer build turns any stray read into a failure).
TEST(SimhashFormat, DamagedUnverifiedViewsStayInBounds) {
  const auto good = Bytes(Sample());
  std::mt19937_64 rng(77);
  int accepted = 0;
  for (int round = 0; round < 300; ++round) {
    auto bad = good;
    // Even rounds damage the fingerprints and ids, odd rounds anywhere (mostly bucket offsets).
    const size_t span = round % 2 ? bad.size() - 128 : 48000;
    for (int flips = 0; flips < 4; ++flips) bad[128 + rng() % span] ^= static_cast<uint8_t>(1 + rng() % 255);
    try {
      const SimhashIndex view = ViewSimhashIndex(bad.data(), bad.size(), false);
      for (int q = 0; q < 50; ++q) view.Any(rng(), 3);
      ++accepted;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), Code::kInconsistent);
    }
  }
  EXPECT_GE(accepted, 150) << "damage to fingerprints and ids is only caught by the checksum";
}

TEST(SimhashFormat, AbsurdSizesAllocateNothing) {
  auto good = Bytes(Sample());
  std::vector<uint8_t> head(good.begin(), good.begin() + 128);
  head = WithField<uint64_t>(head, 32, uint64_t{1} << 43);
  head = WithField<uint64_t>(head, 64, uint64_t{1} << 32);
  EXPECT_EQ(CodeOf([&] { DeserializeSimhashIndex(head.data(), head.size()); }), Code::kTruncated);
}

TEST(SimhashFormat, BytesDependOnlyOnThePairsInOrder) {
  EXPECT_EQ(Bytes(Sample()), Bytes(Sample()));
}

}  // namespace
}  // namespace seen
