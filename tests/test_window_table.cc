// Table time windows (layout 4, core/window_table.h) one at a time: their growth and
// shrinking, the segment an item added again takes, the cap, and files that lie about their
// table. The heavy-tailed store workload is in test_window_growing.cc, for both layouts.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <utility>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/format.h"
#include "core/window.h"
#include "core/window_codec.h"
#include "core/window_table.h"
#include "core/window_table_slots.h"
#include "tests/support.h"

namespace seen {
namespace {

constexpr uint32_t kDay = 86400;

size_t Found(const Window& w, const std::vector<uint64_t>& items, uint32_t now) {
  std::vector<uint8_t> out(items.size());
  w.ContainsU64(items.data(), items.size(), now, out.data());
  size_t found = 0;
  for (uint8_t o : out) found += o;
  return found;
}

uint64_t Bytes(const Window& w) { return w.state.size() + w.growth.size(); }

Window TableWindow(uint64_t max_bytes, uint32_t now) {
  const WindowParams p = SizeTimeWindow(30 * kDay, 1000, 0.01, 0.25, 17, max_bytes);
  EXPECT_EQ(p.layout, WindowLayout::kTable);
  return Window::Create(p, now);
}

// 200,000 items in a day: the table doubles from one line to 2^16 buckets. Every item is
// found; never-shown items are reported at under the target (3 standard deviations over
// 200,000 probes), as the saturation predicts them (within 30% plus 3 in 10^4); then, past
// the span, they are all gone and the table is back to a line.
TEST(TableWindow, GrowsHoldsEverythingAndShrinksBack) {
  Window w = TableWindow((2 << 20) + 80, 0);  // the largest table 1% allows: 2^16 buckets
  EXPECT_EQ(w.state.size(), 80u);
  EXPECT_TRUE(w.growth.empty());
  const auto items = test::Keys(200000, 1);
  w.AddU64(items.data(), items.size(), kDay);
  EXPECT_EQ(Found(w, items, kDay), items.size());
  EXPECT_GT(w.growth.size(), 200000u * 4) << "a table holds an item in 4 bytes at the most";
  EXPECT_LE(Bytes(w), w.params.max_bytes);
  const auto fresh = test::Keys(200000, 2);
  const double measured = static_cast<double>(Found(w, fresh, kDay)) / fresh.size();
  EXPECT_LE(measured, 0.01 + 3 * std::sqrt(0.01 * 0.99 / 200000));
  const WindowSaturation sat = MeasureWindowSaturation(w.params, w.state.data(), &w.growth, kDay);
  EXPECT_NEAR(sat.rate, measured, 0.3 * measured + 3e-4);
  EXPECT_EQ(sat.effective_span, w.params.span);
  // The next add past the span empties every segment, and the empty table halves to a line.
  const uint32_t later = kDay + w.params.span + 2 * w.params.segment_span;
  const uint64_t one = 7;
  w.AddU64(&one, 1, later);
  EXPECT_EQ(Found(w, items, later), 0u);
  EXPECT_TRUE(w.growth.empty()) << "a table an eighth full or less halves";
  EXPECT_EQ(Found(w, {one}, later), 1u);
}

// An item shown again is kept from its last showing: it outlives its first one's span.
TEST(TableWindow, AnItemShownAgainStaysFromItsLastShowing) {
  Window w = TableWindow(0, 0);
  const auto items = test::Keys(5000, 3);
  w.AddU64(items.data(), items.size(), 0);
  const uint32_t again = w.params.span - kDay;
  w.AddU64(items.data(), 100, again);
  const uint32_t past_first = w.params.span + 2 * w.params.segment_span;
  const std::vector<uint64_t> shown_again(items.begin(), items.begin() + 100);
  const std::vector<uint64_t> shown_once(items.begin() + 100, items.end());
  EXPECT_EQ(Found(w, shown_again, past_first), 100u);
  EXPECT_LE(Found(w, shown_once, past_first), 5u);
}

// Past the cap a table gives up its oldest segments: it stays within max_bytes, reports a
// shorter effective span, and finds every item shown since. 20,000 items over 29 days are
// about 5,000 per segment (7.5 days); the cap allows 2^11 buckets, about 8,000 items.
TEST(TableWindow, PastTheCapItGivesUpOldTimeNotRate) {
  const uint64_t cap = (64 << 10) + 80;
  Window w = TableWindow(cap, 0);
  std::vector<std::pair<uint32_t, uint64_t>> shown;
  const auto items = test::Keys(20000, 4);
  for (size_t i = 0; i < items.size(); ++i) {
    const auto now = static_cast<uint32_t>(i * 29 * kDay / items.size());
    w.AddU64(&items[i], 1, now);
    shown.emplace_back(now, items[i]);
    ASSERT_LE(Bytes(w), cap);
  }
  const uint32_t now = 29 * kDay;
  const uint32_t effective = WindowEffectiveSpan(w.params, w.state.data(), now);
  EXPECT_LT(effective, w.params.span);
  std::vector<uint64_t> within;
  for (const auto& [at, item] : shown) {
    if (now - at <= effective) within.push_back(item);
  }
  EXPECT_GT(within.size(), 4000u);
  EXPECT_EQ(Found(w, within, now), within.size());
  const auto fresh = test::Keys(100000, 5);
  EXPECT_LE(static_cast<double>(Found(w, fresh, now)) / fresh.size(), 0.01);
}

// A table whose kept_since says its older segments were given up, while one still holds
// entries (a hostile file; or entries added at the second the next segment started over),
// gives that one up when an item needs room, rather than look for room forever. Here the
// smallest cap (208 bytes: a table of 4 buckets) is full of the first segment's entries. (A
// fuzzer found the hang.)
TEST(TableWindow, EntriesPastKeptSinceAreGivenUpToo) {
  Window w = TableWindow(208, 0);
  StoreLe32(w.state.data() + 8, 2);  // b = 2: two lines, each the other's buddy, in the growth
  w.growth.resize(4 * 32);
  for (uint32_t slot = 0; slot < 32; ++slot) {
    StoreLe32(w.growth.data() + 4 * slot, table_slots::SlotOf(0, table_slots::NativeFlags(slot / 8, (slot / 8) % 2), slot + 1));
  }
  const uint32_t later = w.params.segment_span;  // the next segment
  StoreLe32(w.state.data() + 12, later + 1000);  // kept_since: past the first segment
  const std::vector<uint8_t> bytes = SerializeWindow(w);
  Window back = DeserializeWindow(bytes.data(), bytes.size());  // a valid file
  const auto items = test::Keys(10, 8);
  back.AddU64(items.data(), items.size(), later);
  EXPECT_EQ(Found(back, items, later), items.size());
  EXPECT_LE(Bytes(back), 208u);
}

// A table's file round-trips; one that lies about its table is refused, naming what is wrong.
TEST(TableWindow, FilesThatLieAboutTheirTableAreRefused) {
  Window w = TableWindow(0, 0);
  const auto items = test::Keys(3000, 6);
  w.AddU64(items.data(), items.size(), kDay);
  const std::vector<uint8_t> bytes = SerializeWindow(w);
  const Window back = DeserializeWindow(bytes.data(), bytes.size());
  EXPECT_TRUE(back.state == w.state && back.growth == w.growth);
  EXPECT_EQ(Found(back, items, kDay), items.size());

  // Each corruption must be refused as inconsistent, with `message` in the error.
  auto refused = [&](const char* what, const char* message, auto&& corrupt) {
    Window bad = w;
    corrupt(bad);
    const std::vector<uint8_t> b = SerializeWindow(bad);
    try {
      DeserializeWindow(b.data(), b.size());
      ADD_FAILURE() << what << ": opened";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), Code::kInconsistent) << what;
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << what << ": " << e.what();
    }
  };
  auto slot = [](Window& x, size_t i) { return reinterpret_cast<uint32_t*>(x.growth.data()) + i; };
  refused("b past the rate's bound", "window", [](Window& x) { StoreLe32(x.state.data() + 8, 25); });
  refused("b of the first table with a growth", "window", [](Window& x) { StoreLe32(x.state.data() + 8, 1); });
  refused("a growth one line short", "window", [](Window& x) { x.growth.resize(x.growth.size() - 64); });
  refused("a segment past S", "window", [&](Window& x) { *slot(x, 3) = table_slots::SlotOf(x.params.segments, 0, 1); });
  refused("a fingerprint too wide", "window", [&](Window& x) { *slot(x, 3) = table_slots::SlotOf(0, 0, (1u << 25) - 1); });
  refused("a marker past a line's first slot", "window", [&](Window& x) { *slot(x, 5) = table_slots::kOverflowMarker; });
  refused("slots left in the state", "window", [](Window& x) { x.state[20] = 1; });
  // Params a table cannot have, each named.
  refused("bits set", "bits and k are set on a table window", [](Window& x) { x.params.bits = 64; });
  refused("a cap under a doubled first table", "max_bytes is under a doubled first table",
          [](Window& x) { x.params.max_bytes = 200; });
  refused("count mode", "a growing or table window keeps time", [](Window& x) { x.params.mode = WindowMode::kCount; });
}

}  // namespace
}  // namespace seen
