// Packed count windows (layout 5, core/window_packed.h): their size, one-by-one lookups that
// answer as the batch's set does, and states whose code does not hold together refused with
// their checksums valid.
#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/format.h"
#include "core/window.h"
#include "core/window_codec.h"
#include "core/window_packed.h"
#include "tests/support.h"

namespace seen {
namespace {

Window Packed(uint32_t items, uint64_t seed) {
  Window w = Window::Create(SizeCountWindow(items, 0.01, 0.25, seed), 0);
  EXPECT_EQ(w.params.layout, WindowLayout::kPacked);
  return w;
}

TEST(PackedWindow, TheLast500At1PercentFitAn896ByteBlock) {
  const Window w = Packed(500, 1);
  EXPECT_EQ(w.params.segments, 6u);
  EXPECT_EQ(w.params.segment_span, 100u);
  EXPECT_EQ(w.params.span, 500u);
  // 6 segments of ceil((100 + 128 + 100 * 9) / 8) = 141 bytes, a 4-byte header, 6 counts and
  // 2 zeros, 8 bytes of padding; a window's 16-byte handle beside it makes 884.
  EXPECT_EQ(w.params.state_bytes(), 868u);
  EXPECT_LE(PredictWindowFpr(w.params), 0.01);
}

// The layouts docs/exposure.md says sizing picks at 1%: a ring for small windows, packed
// segments from about 190 items, a ring again from 616 to 658 items (a packed window's S * s
// fingerprints are too many for 1% there, a ring's N are not), bit-sliced segments beyond.
TEST(PackedWindow, SizingPicksTheLayoutsTheDocsName) {
  const std::pair<uint32_t, WindowLayout> picks[] = {
      {100, WindowLayout::kRing},    {180, WindowLayout::kRing},   {191, WindowLayout::kPacked},
      {500, WindowLayout::kPacked},  {615, WindowLayout::kPacked}, {616, WindowLayout::kRing},
      {658, WindowLayout::kRing},    {659, WindowLayout::kSliced}, {5000, WindowLayout::kSliced}};
  for (const auto& [items, layout] : picks) {
    const WindowParams p = SizeCountWindow(items, 0.01, 0.25, 1);
    EXPECT_EQ(p.layout, layout) << items << " items";
    EXPECT_LE(PredictWindowFpr(p), 0.01) << items << " items";
  }
}

// Batches of up to 4 items look each one up in every segment's code; longer ones decode the
// segments into a set. Both answer alike, for every fill of the current segment.
TEST(PackedWindow, LookupsAnswerAsTheSetDoes) {
  for (const uint32_t items : {200u, 300u, 500u}) {
    Window w = Packed(items, items);
    const auto added = test::Keys(3 * items + 37, 3);
    const auto fresh = test::Keys(20000, 4);
    for (size_t at = 0; at < added.size(); at += 61) {
      w.AddU64(added.data() + at, std::min<size_t>(61, added.size() - at), 0);
      std::vector<uint64_t> probes(added.begin(), added.begin() + static_cast<std::ptrdiff_t>(std::min(added.size(), at + 61)));
      probes.insert(probes.end(), fresh.begin(), fresh.begin() + 2000);
      std::vector<uint8_t> batch(probes.size()), one(probes.size());
      w.ContainsU64(probes.data(), probes.size(), 0, batch.data());
      for (size_t i = 0; i < probes.size(); ++i) w.ContainsU64(&probes[i], 1, 0, &one[i]);
      ASSERT_EQ(one, batch) << items << " items, " << at << " added";
      const size_t last = std::min(added.size(), at + 61);
      for (size_t i = last - std::min<size_t>(last, items); i < last; ++i) ASSERT_EQ(batch[i], 1) << i;
    }
    std::vector<uint8_t> out(fresh.size());
    w.ContainsU64(fresh.data(), fresh.size(), 0, out.data());
    const double rate = static_cast<double>(std::count(out.begin(), out.end(), 1)) / static_cast<double>(fresh.size());
    // 20,000 fresh ids at a rate of about 0.9%: 5 standard deviations is about 0.0034.
    EXPECT_LE(rate, PredictWindowFpr(w.params) + 0.0034) << items;
  }
}

// A state whose code does not hold together, written with valid checksums, is refused: a
// current segment past the last, a count past segment_span, a count the code's ones do not
// match, and fingerprints that do not rise (an add codes the current segment again from what
// it decodes, so such a segment could lose items).
TEST(PackedWindow, StatesWhoseCodeDoesNotHoldTogetherAreRefused) {
  Window w = Packed(500, 5);
  const auto added = test::Keys(250, 6);
  w.AddU64(added.data(), added.size(), 0);
  const PackedShape shape = PackedShapeOf(w.params.segment_span);
  const uint64_t segment0 = PackedSegmentsAt(w.params.segments);
  auto refused = [&](const char* what, auto&& corrupt) {
    Window bad = w;
    corrupt(bad.state.data());
    const auto bytes = SerializeWindow(bad);
    try {
      DeserializeWindow(bytes.data(), bytes.size());
      ADD_FAILURE() << what << ": accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), Code::kInconsistent) << what;
    }
  };
  refused("current segment 6 of 6", [&](uint8_t* s) { StoreLe32(s, 6); });
  refused("a count of 101 in segments of 100", [&](uint8_t* s) { s[kPackedHeaderBytes] = 101; });
  refused("a count one short of the code's ones", [&](uint8_t* s) { --s[kPackedHeaderBytes]; });
  refused("a one the count does not know", [&](uint8_t* s) {
    uint8_t* upper = s + segment0;
    for (uint64_t bit = 0; bit < shape.upper_bits; ++bit) {
      if ((upper[bit / 8] >> (bit % 8) & 1) == 0 && bit > 8) {
        upper[bit / 8] = static_cast<uint8_t>(upper[bit / 8] | 1u << (bit % 8));
        return;
      }
    }
  });
  refused("two fingerprints of one bucket out of order", [&](uint8_t* s) {
    // Segment 0's items 0 and 1 in one bucket (ones at bits 0 and 1), the second's low bits
    // below the first's.
    uint8_t* seg = s + segment0;
    std::fill(seg, seg + shape.segment_bytes, 0);
    seg[0] = 0x3;
    const uint64_t low1 = shape.upper_bits + shape.low_bits;
    seg[shape.upper_bits / 8] = static_cast<uint8_t>(seg[shape.upper_bits / 8] | 5u << (shape.upper_bits % 8));
    seg[low1 / 8] = static_cast<uint8_t>(seg[low1 / 8] | 3u << (low1 % 8));
    s[kPackedHeaderBytes] = 2;
  });
  // The untouched state loads, and answers as it did.
  const auto bytes = SerializeWindow(w);
  const Window back = DeserializeWindow(bytes.data(), bytes.size());
  std::vector<uint8_t> out(added.size());
  back.ContainsU64(added.data(), added.size(), 0, out.data());
  EXPECT_EQ(std::count(out.begin(), out.end(), 1), static_cast<std::ptrdiff_t>(added.size()));
}

// Whether w finds each of the last `span` of the first `at` items added (all of them, while
// fewer): the window's promise.
testing::AssertionResult FindsTheLastSpan(const Window& w, const std::vector<uint64_t>& added, size_t at) {
  const size_t from = at > w.params.span ? at - w.params.span : 0;
  std::vector<uint8_t> out(at - from);
  w.ContainsU64(added.data() + from, out.size(), 0, out.data());
  const auto missed = std::count(out.begin(), out.end(), 0);
  if (missed == 0) return testing::AssertionSuccess();
  return testing::AssertionFailure() << missed << " of the last " << out.size() << " not found";
}

// The largest packed window a file may hold: 16 segments of 255 items, beyond anything sizing
// makes at 1% (fingerprints of 16 bits hold 4,080 items at about 6%). Driven through batches
// of every size from 1 to 1,000, replays of recent items, and a save and reopen, it still
// finds every one of the last 3,825 items, and a fresh item at most at its predicted rate.
TEST(PackedWindow, TheLargestAFileMayHoldKeepsTheLastSpan) {
  WindowParams p;
  p.layout = WindowLayout::kPacked;
  p.segments = 16;
  p.segment_span = kPackedMaxSegmentSpan;
  p.span = 15 * kPackedMaxSegmentSpan;
  p.seed = 7;
  p.target_fpr = 0.1;
  ASSERT_TRUE(CheckWindowParams(p, "test").ok());
  Window w = Window::Create(p, 0);
  const auto added = test::Keys(4 * p.span, 8);
  size_t at = 0;
  for (size_t batch = 1; at < added.size(); batch = batch % 1000 + 1 + batch / 3) {
    const size_t n = std::min(batch, added.size() - at);
    w.AddU64(added.data() + at, n, 0);
    at += n;
    const uint64_t replay = added[at - 1 - at % std::min<size_t>(at, 200)];  // a recent item, again
    w.AddU64(&replay, 1, 0);
    ASSERT_TRUE(FindsTheLastSpan(w, added, at)) << at << " added";
  }
  const auto bytes = SerializeWindow(w);
  const Window back = DeserializeWindow(bytes.data(), bytes.size());
  std::vector<uint8_t> out(p.span);
  back.ContainsU64(added.data() + added.size() - p.span, p.span, 0, out.data());
  EXPECT_EQ(std::count(out.begin(), out.end(), 1), static_cast<std::ptrdiff_t>(p.span));
  const auto fresh = test::Keys(20000, 9);
  std::vector<uint8_t> fresh_out(fresh.size());
  back.ContainsU64(fresh.data(), fresh.size(), 0, fresh_out.data());
  const double rate = static_cast<double>(std::count(fresh_out.begin(), fresh_out.end(), 1)) / static_cast<double>(fresh.size());
  // 20,000 fresh ids at a rate of about 6%: 5 standard deviations is about 0.0084.
  EXPECT_LE(rate, PredictWindowFpr(p) + 0.0084);
  EXPECT_GT(rate, 0.02);  // the window is full: a near-empty one would answer far less
}

// Every shape a segment can take, from 1 item (3 bytes, fingerprints' 16 bits all low bits)
// to 255: an add codes a segment a word at a time, and a word's store reaches past a small
// segment into the next one, which must keep every item. Batches of 1 to 3 segments' worth;
// after each the last span is found, and the state reads back valid.
TEST(PackedWindow, EverySegmentShapeKeepsTheLastSpan) {
  for (const uint32_t s : {1u, 2u, 3u, 5u, 7u, 8u, 9u, 15u, 16u, 17u, 31u, 33u, 63u, 64u, 65u, 100u, 127u, 128u, 129u, 200u, 255u}) {
    WindowParams p;
    p.layout = WindowLayout::kPacked;
    p.segments = 3;
    p.segment_span = s;
    p.span = 2 * s;
    p.seed = s;
    p.target_fpr = 0.1;
    ASSERT_TRUE(CheckWindowParams(p, "test").ok()) << s;
    Window w = Window::Create(p, 0);
    const auto added = test::Keys(12 * s + 40, s);
    for (size_t at = 0, batch = 1; at < added.size(); batch = (batch * 7 + 3) % (3 * s) + 1) {
      const size_t n = std::min(batch, added.size() - at);
      w.AddU64(added.data() + at, n, 0);
      at += n;
      ASSERT_TRUE(FindsTheLastSpan(w, added, at)) << "segments of " << s << ", " << at << " added";
      ASSERT_TRUE(PackedStateValid(p, w.state.data())) << "segments of " << s << ", " << at << " added";
    }
  }
}

}  // namespace
}  // namespace seen
