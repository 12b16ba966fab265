// Contract 4 of DESIGN: every SIMD target compiled in gives the same bytes and answers. Each
// target the CPU supports is forced in turn and compared with a plain scalar implementation
// of docs/FORMAT.md (tests/reference_filter.h) and with the shared vectors; each target is
// its own test case (SimdTargets/Target.*/AVX2), so the counts say which targets ran.
#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <set>
#include <vector>

#include "core/ascii_masks.h"
#include "core/bloom.h"
#include "core/hash.h"
#include "core/kernels.h"
#include "core/simhash_unicode.h"
#include "core/window.h"
#include "core/window_kernels.h"
#include "core/window_ring_kernels.h"
#include "core/window_table_kernels.h"
#include "core/window_table_slots.h"
#include "seen_inline.h"
#include "tests/bloom_vectors.h"
#include "tests/reference_filter.h"
#include "tests/support.h"

namespace seen {
namespace {

struct Outcome {
  std::vector<uint8_t> payload;
  std::vector<uint8_t> answers;
  std::vector<uint64_t> hashes;
  std::vector<uint64_t> keyed_hashes;
};

const auto kIn = test::Keys(100000, 0);
const auto kProbe = test::Keys(100000, 1);
constexpr uint64_t kSeed = 123;
const Hashing kKeyed(77, SecretKey{0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL});

Outcome RunEveryPath() {
  Outcome o;
  Bloom filter = Bloom::Create(kIn.size(), 0.02, kSeed);
  // A quarter of the keys through each add path: atomic batch, exclusive batch, small batches
  // (1 to past kFewKeys keys, atomic and exclusive in turn), single puts.
  const size_t quarter = kIn.size() / 4;
  filter.AddU64(kIn.data(), quarter);
  filter.set_exclusive_adds(true);
  filter.AddU64(kIn.data() + quarter, quarter);
  for (size_t i = 2 * quarter, n = 1; i < 3 * quarter; i += n, n = n % (kFewKeys + 2) + 1) {
    filter.set_exclusive_adds(n % 2 == 0);
    filter.AddU64(kIn.data() + i, std::min(n, 3 * quarter - i));
  }
  for (size_t i = 3 * quarter; i < kIn.size(); ++i) {
    // A put answers whether the key was there before it, as a probe would have.
    const bool before = filter.TestU64(kIn[i]);
    EXPECT_EQ(filter.PutU64(kIn[i]), before) << "put and probe disagree";
    EXPECT_TRUE(filter.PutU64(kIn[i])) << "a key just put is not there";
  }
  o.payload.assign(filter.bytes(), filter.bytes() + filter.params().bytes());
  o.answers.resize(kProbe.size());
  filter.ContainsU64(kProbe.data(), kProbe.size(), o.answers.data());
  for (size_t i = 0; i < kProbe.size(); i += 7) {
    EXPECT_EQ(o.answers[i], filter.TestU64(kProbe[i]) ? 1 : 0) << "single and batch disagree";
  }
  // Batches of every size from 1 to past kFewKeys: the few-keys path and the pipeline agree.
  std::vector<uint8_t> small(kProbe.size());
  for (size_t i = 0, n = 1; i < small.size(); i += n, n = n % (kFewKeys + 2) + 1) {
    n = std::min(n, small.size() - i);
    filter.ContainsU64(kProbe.data() + i, n, small.data() + i);
  }
  EXPECT_TRUE(small == o.answers) << "small batches and one big batch disagree";
  o.hashes.resize(kProbe.size());
  HashU64Batch(kProbe.data(), kProbe.size(), 987, o.hashes.data());
  o.keyed_hashes.resize(kProbe.size());
  HashU64Batch(kProbe.data(), kProbe.size(), kKeyed, o.keyed_hashes.data());
  return o;
}

Outcome Reference() {
  const Bloom sized = Bloom::Create(kIn.size(), 0.02, kSeed);
  test::ReferenceFilter reference(sized.params().blocks, sized.params().k, kSeed);
  for (uint64_t id : kIn) reference.Add(id);
  Outcome o;
  o.payload = reference.Payload();
  for (uint64_t id : kProbe) o.answers.push_back(reference.Contains(id) ? 1 : 0);
  for (uint64_t id : kProbe) o.hashes.push_back(XXH3_64bits_withSeed(&id, 8, 987));
  // SipHash-1-3 of the id's bytes, byte-wise: the reference of the keyed batch.
  for (uint64_t id : kProbe) {
    o.keyed_hashes.push_back(SipHash13(kKeyed.key->k0 ^ kKeyed.seed, kKeyed.key->k1, &id, 8));
  }
  return o;
}

// The targets compiled in (this file is built with the core's HWY_COMPILE_ALL_ATTAINABLE, so
// HWY_TARGETS is the core's set) that this CPU runs; the scalar fallback runs on any CPU.
std::vector<int64_t> TargetsToCompare() {
  std::vector<int64_t> targets;
  const int64_t runnable = hwy::SupportedTargets() | HWY_SCALAR | HWY_EMU128;
  for (int64_t left = runnable & HWY_TARGETS; left != 0; left &= left - 1) {
    targets.push_back(left & -left);
  }
  return targets;
}

// Forces one target for the length of a test.
class Target : public testing::TestWithParam<int64_t> {
 protected:
  void SetUp() override { hwy::SetSupportedTargetsForTest(GetParam()); }
  void TearDown() override { hwy::SetSupportedTargetsForTest(0); }
};

TEST_P(Target, MatchesTheFormatSpecification) {
  static const Outcome reference = Reference();
  const Outcome o = RunEveryPath();
  EXPECT_TRUE(o.payload == reference.payload);
  EXPECT_TRUE(o.answers == reference.answers);
  EXPECT_TRUE(o.hashes == reference.hashes);
  EXPECT_TRUE(o.keyed_hashes == reference.keyed_hashes);
}

TEST_P(Target, BuildsTheSharedVectors) { EXPECT_GT(test::CheckBloomVectors(), 800); }

// seen_inline.h's probe, plain C, gives libseen's answers on a filter its kernels built under
// this target (Highway is one shared library, so the forced target is libseen's too): every
// key added is found, and every query answers as the library's batch call does.
TEST_P(Target, InlineProbeAnswersAsTheLibrary) {
  seen_bloom* f = nullptr;
  ASSERT_EQ(seen_bloom_create(kIn.size(), 0.02, kSeed, &f, nullptr), SEEN_OK);
  const size_t half = kIn.size() / 2;
  seen_bloom_add_u64(f, kIn.data(), half);
  for (size_t i = half; i < kIn.size(); ++i) seen_bloom_add_one_u64(f, kIn[i], nullptr);
  seen_bloom_probe probe{};
  ASSERT_EQ(seen_bloom_probe_init(f, &probe), SEEN_OK);
  size_t missed = 0, differ = 0;
  for (const uint64_t id : kIn) missed += seen_bloom_probe_contains_u64(&probe, id) != 1;
  std::vector<uint8_t> answers(kProbe.size());
  seen_bloom_contains_u64(f, kProbe.data(), kProbe.size(), answers.data());
  for (size_t i = 0; i < kProbe.size(); ++i) differ += seen_bloom_probe_contains_u64(&probe, kProbe[i]) != answers[i];
  EXPECT_EQ(missed, 0u);
  EXPECT_EQ(differ, 0u);
  seen_bloom_free(f);
}

// The batch kernels place keys with 32x32-bit products where a filter has fewer than 2^32
// blocks: the block of every hash is still step 2 of block scheme 1 (the high 64 bits of
// the 128-bit product), at the edges of the hash and of the block count, and past 2^32.
TEST_P(Target, PlacesKeysAsTheBlockScheme) {
  std::mt19937_64 rng(20261127);
  std::vector<uint64_t> hashes = {0, 1, 0xFFFFFFFFu, uint64_t{1} << 32, ~uint64_t{0}, uint64_t{1} << 63,
                                  ~uint64_t{0} << 32, 0x00000000FFFFFFFFull, 0xFFFFFFFF00000001ull};
  while (hashes.size() < 1003) hashes.push_back(rng());
  const uint64_t counts[] = {1, 2, 3, 7, 1000003, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFE, 0xFFFFFFFF,
                             uint64_t{1} << 32, (uint64_t{1} << 40) + 7, rng() >> 33, rng() >> 20};
  for (const uint64_t blocks : counts) {
    for (size_t n : {size_t{0}, size_t{1}, size_t{5}, hashes.size()}) {
      std::vector<uint64_t> out(n, 0);
      BlockIndexBatch(hashes.data(), n, blocks, out.data());
      for (size_t i = 0; i < n; ++i) {
        const auto expected = static_cast<uint64_t>((static_cast<unsigned __int128>(hashes[i]) * blocks) >> 64);
        ASSERT_EQ(out[i], expected) << "blocks " << blocks << ", hash " << hashes[i];
      }
    }
  }
}

// Byte-key batches whose keys all have one length (9 to 128 bytes) are hashed inside the
// kernels' pipeline, a step at a time, with no per-key dispatch: every key still hashes as
// XXH3_64bits_withSeed of its bytes. Batches of each length from 0 to 140, with random and
// edge bytes (all zeros, all ones), at unaligned starts, under edge seeds, are added by the
// batch kernels (exclusive and under stripe locks) and compared with a filter built by single
// puts of xxhash's own hashes; queries of absent keys answer as single tests do. A filter past
// 32 MiB, which takes them 16 a step, not 64, agrees too. Batches that mix lengths (one key of
// another length in a step, or lengths alternating) take the general path and agree too, and a
// decreasing offset is still refused.
TEST_P(Target, HashesSameLengthKeysAsXxh3) {
  std::mt19937_64 rng(20261127);
  constexpr size_t kKeys = 200;  // several 64-key steps and a tail
  for (const uint64_t seed : {uint64_t{0}, ~uint64_t{0}, uint64_t{1} << 63, rng()}) {
    // Made once a seed and cleared for each batch: sizing a filter is a fraction of a
    // millisecond of floating point, which under qemu cost this test 40 s when each batch
    // made its own.
    Bloom batch = Bloom::Create(kKeys, 0.01, seed), single = Bloom::Create(kKeys, 0.01, seed);
    for (size_t len = 0; len <= 140; ++len) {
      for (const int fill : {0, 1, 2}) {  // random bytes, zeros, ones
        std::vector<uint8_t> data(3 + 2 * kKeys * len);
        for (auto& b : data) b = fill == 0 ? static_cast<uint8_t>(rng()) : fill == 1 ? 0 : 0xFF;
        std::vector<uint64_t> offsets(2 * kKeys + 1);
        for (size_t i = 0; i < offsets.size(); ++i) offsets[i] = 3 + i * len;  // unaligned
        const uint64_t* in = offsets.data();
        const uint64_t* absent = offsets.data() + kKeys;
        batch.Clear(), single.Clear();
        batch.set_exclusive_adds(len % 2 == 0);
        batch.AddKeys(data.data(), in, kKeys);
        for (size_t i = 0; i < kKeys; ++i) {
          single.PutKey(len == 0 ? nullptr : data.data() + in[i], len);
          ASSERT_EQ(HashBytes(data.data() + in[i], len, seed), XXH3_64bits_withSeed(data.data() + in[i], len, seed));
        }
        ASSERT_EQ(0, std::memcmp(batch.bytes(), single.bytes(), batch.params().bytes()))
            << "length " << len << ", seed " << seed << ", fill " << fill;
        std::vector<uint8_t> answers(kKeys);
        batch.ContainsKeys(data.data(), absent, kKeys, answers.data());
        for (size_t i = 0; i < kKeys; ++i) {
          ASSERT_EQ(answers[i], single.TestKey(data.data() + absent[i], len) ? 1 : 0) << "length " << len;
        }
      }
    }
  }
  // A filter past 32 MiB (in DRAM) takes same-length keys 16 a step: the same hashes.
  for (const size_t len : {9, 16, 26, 128}) {
    std::vector<uint8_t> data(len * kKeys);
    for (auto& b : data) b = static_cast<uint8_t>(rng());
    std::vector<uint64_t> offsets(kKeys + 1);
    for (size_t i = 0; i <= kKeys; ++i) offsets[i] = i * len;
    Bloom batch = Bloom::Create(40000000, 0.01, kSeed), single = Bloom::Create(40000000, 0.01, kSeed);
    ASSERT_GT(batch.params().bytes(), uint64_t{32} << 20);
    batch.AddKeys(data.data(), offsets.data(), kKeys);
    for (size_t i = 0; i < kKeys; ++i) single.PutKey(data.data() + offsets[i], len);
    ASSERT_EQ(0, std::memcmp(batch.bytes(), single.bytes(), batch.params().bytes())) << "big filter, length " << len;
  }
  // Mixed lengths: 16-byte keys with one 17-byte key at each place of a step, and 16 and 26
  // bytes alternating.
  {
    Bloom batch = Bloom::Create(130, 0.01, kSeed), single = Bloom::Create(130, 0.01, kSeed);
    for (size_t odd = 0; odd < 70; ++odd) {
      batch.Clear(), single.Clear();
      std::vector<uint64_t> offsets{0};
      for (size_t i = 0; i < 130; ++i) offsets.push_back(offsets.back() + (i == odd ? 17 : odd == 69 ? 16 + 10 * (i % 2) : 16));
      std::vector<uint8_t> data(offsets.back());
      for (auto& b : data) b = static_cast<uint8_t>(rng());
      batch.AddKeys(data.data(), offsets.data(), 130);
      for (size_t i = 0; i < 130; ++i) single.PutKey(data.data() + offsets[i], offsets[i + 1] - offsets[i]);
      ASSERT_EQ(0, std::memcmp(batch.bytes(), single.bytes(), batch.params().bytes())) << "odd key " << odd;
    }
  }
  // A keyed filter hashes same-length keys with SipHash, not XXH3.
  {
    std::vector<uint8_t> data(16 * 200);
    for (auto& b : data) b = static_cast<uint8_t>(rng());
    std::vector<uint64_t> offsets(201);
    for (size_t i = 0; i <= 200; ++i) offsets[i] = 16 * i;
    Bloom batch = Bloom::Create(200, 0.01, 77, kKeyed.key), single = Bloom::Create(200, 0.01, 77, kKeyed.key);
    batch.AddKeys(data.data(), offsets.data(), 200);
    for (size_t i = 0; i < 200; ++i) single.PutKey(data.data() + offsets[i], 16);
    ASSERT_EQ(0, std::memcmp(batch.bytes(), single.bytes(), batch.params().bytes())) << "keyed";
  }
  // A decreasing offset after a run of equal lengths is refused, not read past.
  {
    std::vector<uint8_t> data(16 * 100);
    std::vector<uint64_t> offsets(101);
    for (size_t i = 0; i <= 100; ++i) offsets[i] = 16 * i;
    offsets[80] = 0;
    Bloom f = Bloom::Create(100, 0.01, kSeed);
    std::vector<uint8_t> answers(100);
    EXPECT_THROW(f.ContainsKeys(data.data(), offsets.data(), 100, answers.data()), Error);
    EXPECT_THROW(f.AddKeys(data.data(), offsets.data(), 100), Error);
  }
}

// The window kernel answers exactly as the scalar definition of docs/FORMAT.md
// (window_cells::SegmentsHolding, for any of several arrays), for shapes from one position to
// 2^17, every segment count, k and live mask (none live too), at cell densities from sparse
// to full, and batches with tails, past one chunk. Cells are held at exactly their size, so a
// read past them shows under ASan.
TEST_P(Target, WindowCellsAnswerAsTheirDefinition) {
  std::mt19937_64 rng(20261125);
  for (int round = 0; round < 200; ++round) {
    const size_t count = 1 + rng() % 3;
    std::vector<std::vector<uint8_t>> cells(count);
    std::vector<LiveCells> arrays(count);
    for (size_t a = 0; a < count; ++a) {
      const window_cells::CellShape shape{
          static_cast<uint32_t>(1 + rng() % (round % 3 == 0 ? 8 : (1u << 17))),
          static_cast<uint32_t>(2 + rng() % (kMaxWindowSegments - 1)),
          static_cast<uint32_t>(1 + rng() % kMaxWindowK)};
      cells[a].resize(window_cells::CellBytes(shape.bits, shape.segments));
      const uint64_t density = rng() % 4;  // each byte ORs density + 1 random bytes
      for (uint8_t& c : cells[a]) {
        for (uint64_t j = 0; j <= density; ++j) c |= static_cast<uint8_t>(rng());
      }
      arrays[a] = {shape, cells[a].data(), static_cast<uint32_t>(rng() & ((1u << shape.segments) - 1))};
    }
    const size_t n = 1 + rng() % 700;
    std::vector<uint64_t> hashes(n);
    for (uint64_t& h : hashes) h = rng();
    std::vector<uint8_t> out(n, 7);
    MarkHeld(arrays.data(), count, hashes.data(), n, out.data());
    for (size_t i = 0; i < n; ++i) {
      bool held = false;
      for (const LiveCells& a : arrays) held |= window_cells::SegmentsHolding(a.shape, a.cells, a.live, hashes[i]) != 0;
      ASSERT_EQ(out[i], held ? 1 : 0) << "round " << round << ", candidate " << i;
    }
  }
}

// The table query answers as its definition, table_slots::TableHolds, on tables of every size
// whose slots are random entries, overflow and saturation markers, with many of the
// candidates' own entries (in their home, in the other bucket, displaced in the buddy line
// under a marker; live or not), under every kind of live mask.
TEST_P(Target, WindowTablesAnswerAsTheirDefinition) {
  using namespace table_slots;
  std::mt19937_64 rng(20261126);
  for (int round = 0; round < 200; ++round) {
    const uint32_t b = 1 + static_cast<uint32_t>(rng() % 12);
    const uint32_t segments = 2 + static_cast<uint32_t>(rng() % 15);
    const size_t count = size_t{kSlotsPerBucket} << b;
    std::vector<uint32_t> slots(count + 3);  // + 3: an unaligned start
    uint32_t* table = slots.data() + rng() % 4;
    const auto fingerprint_mask = (1u << (kKeyBits - b)) - 1;
    const uint32_t flags[4] = {0, kAway, kDisplaced, kDisplaced | kAway};
    for (size_t i = 0; i < count; ++i) {
      const uint32_t segment = static_cast<uint32_t>(rng() % (segments + 1));  // 0: empty
      table[i] = segment == 0 ? 0 : SlotOf(segment - 1, flags[rng() % 4], static_cast<uint32_t>(rng()) & fingerprint_mask);
      if (b >= 2 && i % kSlotsPerLine == 0 && rng() % 4 == 0) table[i] = kOverflowMarker;
      if (segment != 0 && rng() % 64 == 0) table[i] = SlotOf(segment - 1, kSaturated, 0);
    }
    const size_t n = rng() % 3000;
    std::vector<uint64_t> hashes(n);
    for (uint64_t& h : hashes) h = rng();
    for (size_t i = 0; i < n / 2; ++i) {  // half the candidates' own entries
      const Placement at = Place(hashes[i], b);
      const uint32_t segment = static_cast<uint32_t>(rng() % segments);
      const size_t line = at.home >> 1;
      if (b >= 2 && rng() % 3 == 0) {
        table[((line ^ 1) * kSlotsPerLine) + rng() % kSlotsPerLine] = SlotOf(segment, DisplacedFlags(at.home), at.fingerprint);
        if (rng() % 4 != 0) table[line * kSlotsPerLine] = kOverflowMarker;
      } else {
        const uint32_t bucket = static_cast<uint32_t>(rng() % 2);
        table[line * kSlotsPerLine + bucket * kSlotsPerBucket + rng() % kSlotsPerBucket] =
            SlotOf(segment, NativeFlags(at.home, bucket), at.fingerprint);
      }
    }
    const uint32_t all = (1u << segments) - 1;
    const uint32_t live = round % 3 == 0 ? all : static_cast<uint32_t>(rng()) & all;
    std::vector<uint8_t> out(n);
    TableHeld({table, b, live}, hashes.data(), n, out.data());
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(out[i], TableHolds(table, b, live, hashes[i]) ? 1 : 0) << "round " << round << ", candidate " << i;
    }
  }
}

// The windows themselves, through WindowContains, where the kernel drops candidates once it
// has rejected most: items added and still in the span are all found, and every answer is the
// scalar target's (the plain definition), for sliced count windows, growing time windows
// (grown up to several levels) and table time windows (doubled several times), in batches of
// fresh candidates with the held ones among them, past one chunk.
TEST_P(Target, WindowsKeepEveryCandidateTheyHold) {
  std::mt19937_64 rng(20261126);
  const uint32_t day = 86400;
  for (int round = 0; round < 150; ++round) {
    const bool growing = round % 3 != 0;
    const uint32_t expected = static_cast<uint32_t>(10 + rng() % 1000);
    const double fpr = 0.001 + (rng() % 50) / 1000.0;
    const WindowParams p =
        round % 3 == 1   ? SizeGrowingTimeWindow(30 * day, expected, fpr, 0.25, rng(), 0)
        : round % 3 == 2 ? SizeTimeWindow(30 * day, expected, 0.01 + fpr, 0.25, rng(), 0)
                         : SizeCountWindow(static_cast<uint32_t>(1 + rng() % 6000), fpr, 0.1 + (rng() % 5) / 10.0, rng());
    std::vector<uint8_t> state(p.state_bytes());
    WindowGrowth growth;
    WindowReset(p, state.data(), 0);
    // A time window takes up to 60x its expected items over its span, so it grows.
    const size_t items = growing ? rng() % (60 * (p.segment_items * (p.segments - 1) + 1)) : rng() % (2 * p.span);
    std::vector<uint64_t> added(items);
    for (size_t i = 0; i < items; ++i) {
      added[i] = rng();
      WindowAdd(p, state.data(), &growth, &added[i], 1, growing ? static_cast<uint32_t>(i * p.span / (items + 1)) : 0);
    }
    const uint32_t now = growing ? p.span : 0;
    // Some of the items still in the span (the last `span` in a count window, all in a time
    // window that gave no time up) among up to 2,500 fresh ones.
    const size_t in_span = WindowEffectiveSpan(p, state.data(), now) < p.span ? 0 : std::min<size_t>(items, growing ? items : p.span);
    const size_t shown = std::min<size_t>(in_span, rng() % 300);
    const size_t fresh = rng() % 2500;
    std::vector<uint64_t> batch;
    for (size_t i = 0; i < shown; ++i) batch.push_back(added[items - 1 - rng() % in_span]);
    const std::set<uint64_t> in_window(batch.begin(), batch.end());
    for (size_t i = 0; i < fresh; ++i) batch.push_back(rng());
    std::shuffle(batch.begin(), batch.end(), rng);
    std::vector<uint8_t> out(batch.size()), scalar(batch.size());
    WindowContains(p, state.data(), &growth, batch.data(), batch.size(), now, out.data());
    hwy::SetSupportedTargetsForTest(HWY_SCALAR);
    WindowContains(p, state.data(), &growth, batch.data(), batch.size(), now, scalar.data());
    hwy::SetSupportedTargetsForTest(GetParam());
    ASSERT_TRUE(out == scalar) << "round " << round;
    for (size_t i = 0; i < batch.size(); ++i) {
      if (in_window.count(batch[i]) != 0) {
        ASSERT_EQ(out[i], 1) << "round " << round << ": an item in the span is missed";
      }
    }
  }
}

// A ring window's scan finds the first entry equal to the fingerprint, as a plain loop does,
// at every length (whole vectors and a tail) and wherever the entry is, or is not.
TEST_P(Target, RingScansFindTheFirstEntry) {
  std::mt19937_64 rng(20261127);
  for (uint32_t span = 1; span <= 300; ++span) {
    std::vector<uint8_t> entries(2 * span);
    for (int round = 0; round < 8; ++round) {
      // Few distinct values, so that most scans meet repeats and many find none.
      for (uint8_t& b : entries) b = static_cast<uint8_t>(rng() % 4);
      const auto fp = static_cast<uint16_t>(rng() % 4 | (rng() % 4) << 8);
      uint32_t first = span;
      for (uint32_t e = 0; e < span && first == span; ++e) {
        if ((entries[2 * e] | entries[2 * e + 1] << 8) == fp) first = e;
      }
      ASSERT_EQ(RingFind(entries.data(), span, fp), first) << "span " << span << ", fp " << fp;
    }
  }
}

// The MinHash tokenizer's block classifier answers as the byte table it stands in for, on
// blocks of any bytes and of mostly ASCII text.
TEST_P(Target, AsciiMasksAnswerAsTheByteTable) {
  std::mt19937_64 rng(20261126);
  for (int round = 0; round < 2000; ++round) {
    uint8_t block[64], folded[64];
    for (uint8_t& b : block) b = static_cast<uint8_t>(round % 2 ? rng() : rng() % (rng() % 8 ? 128 : 256));
    const text::AsciiMasks m = text::ClassifyAscii64(block, folded);
    for (int i = 0; i < 64; ++i) {
      const uint8_t b = block[i];
      ASSERT_EQ((m.word >> i) & 1, text::kAsciiWordByte[b] != 0 ? 1u : 0u) << "byte " << int{b};
      ASSERT_EQ((m.non_ascii >> i) & 1, b >= 0x80 ? 1u : 0u) << "byte " << int{b};
      ASSERT_EQ(folded[i], b >= 'A' && b <= 'Z' ? b + 32 : b) << "byte " << int{b};
    }
  }
}

INSTANTIATE_TEST_SUITE_P(SimdTargets, Target, testing::ValuesIn(TargetsToCompare()),
                         [](const testing::TestParamInfo<int64_t>& info) {
                           return std::string(hwy::TargetName(info.param));
                         });

// A filter takes the kernels of the target chosen when it is made, so forcing a target must
// change what ChosenKernels returns: else every Target case above would test one target.
TEST(SimdTargets, EachTargetHasItsOwnKernels) {
  std::set<bool (*)(const Blocks&, uint64_t)> probes;
  for (int64_t target : TargetsToCompare()) {
    hwy::SetSupportedTargetsForTest(target);
    probes.insert(ChosenKernels().probe);
  }
  hwy::SetSupportedTargetsForTest(0);
  EXPECT_EQ(probes.size(), TargetsToCompare().size());
}

TEST(SimdTargets, SeveralTargetsAreCompiledAndCompared) {
  EXPECT_GE(TargetsToCompare().size(), 2u) << "the build should compile several targets";
  EXPECT_NE(HWY_TARGETS & (HWY_SCALAR | HWY_EMU128), 0) << "the scalar fallback is compiled";
}

}  // namespace
}  // namespace seen
