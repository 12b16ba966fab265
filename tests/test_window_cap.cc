// A time window at its max_bytes keeps every completed add: it gives up older time first and
// then its rate, never the current segment (issue 27). Each case here lost items before: the
// window cleared its current segment, earlier items of the very batch being added included.
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "core/store.h"
#include "core/window.h"
#include "core/window_codec.h"
#include "tests/support.h"

namespace seen {
namespace {

size_t Unseen(const Window& w, const std::vector<uint64_t>& items, uint32_t now) {
  std::vector<uint8_t> out(items.size());
  w.ContainsU64(items.data(), items.size(), now, out.data());
  size_t unseen = 0;
  for (uint8_t o : out) unseen += !o;
  return unseen;
}

// n distinct ids for each `batch`, none shared with another batch (test::Keys streams overlap).
std::vector<uint64_t> Batch(uint64_t n, uint64_t batch) {
  std::vector<uint64_t> ids(n);
  for (uint64_t i = 0; i < n; ++i) ids[i] = test::Mix(batch << 32 | i);
  return ids;
}

WindowParams Sized(WindowLayout layout, uint32_t span, uint32_t expected, uint64_t max_bytes) {
  const WindowParams p = layout == WindowLayout::kTable
                             ? SizeTimeWindow(span, expected, 0.01, 0.25, 3, max_bytes)
                             : SizeGrowingTimeWindow(span, expected, 0.01, 0.25, 3, max_bytes);
  EXPECT_EQ(p.layout, layout);
  return p;
}

class CappedLayouts : public ::testing::TestWithParam<WindowLayout> {};

// The first case: an hour's window sized for 100 items at the default max_bytes takes
// 1,000 ids a second, so its current segment (15 minutes) alone outgrows the cap. Every batch
// reads seen at the second it was added, every item within the reported effective span reads
// seen at the end, and the window says it is over its target rate.
TEST_P(CappedLayouts, BatchesPastTheCapAreAllKept) {
  Window w = Window::Create(Sized(GetParam(), 3600, 100, 0), 0);
  std::vector<std::pair<uint32_t, std::vector<uint64_t>>> shown;
  size_t unseen_at_add = 0;
  for (uint32_t second = 0; second < 600; ++second) {
    std::vector<uint64_t> batch = Batch(1000, second);
    w.AddU64(batch.data(), batch.size(), second);
    unseen_at_add += Unseen(w, batch, second);
    ASSERT_LE(w.state.size() + w.growth.size(), w.params.max_bytes);
    shown.emplace_back(second, std::move(batch));
  }
  EXPECT_EQ(unseen_at_add, 0u) << "of 600,000 ids, read at the second they were added";
  const uint32_t now = 599;
  const uint32_t effective = WindowEffectiveSpan(w.params, w.state.data(), now);
  size_t unseen_within = 0, within = 0;
  for (const auto& [at, batch] : shown) {
    if (now - at > effective) continue;
    within += batch.size();
    unseen_within += Unseen(w, batch, now);
  }
  EXPECT_EQ(unseen_within, 0u) << "of " << within << " ids within the effective span " << effective;
  const WindowSaturation sat = MeasureWindowSaturation(w.params, w.state.data(), &w.growth, now);
  const std::vector<uint64_t> fresh = Batch(100000, 1u << 30);
  const double measured = 1 - static_cast<double>(Unseen(w, fresh, now)) / fresh.size();
  EXPECT_GT(sat.rate, w.params.target_fpr) << "past the cap the rate is given up, and shown";
  EXPECT_NEAR(sat.rate, measured, 0.1 * measured + 3e-3) << "the report matches what 100,000 fresh ids meet";
}

// The second case, through a store: time windows of an hour for 50 items capped at
// 8 KiB, one user marked 50 items a second.
TEST_P(CappedLayouts, AStoreUserPastTheCapKeepsEveryMark) {
  StoreOptions o;
  o.window = Sized(GetParam(), 3600, 50, 8192);
  Store store(o);
  size_t unseen = 0;
  std::vector<uint8_t> out(50);
  for (uint32_t second = 0; second < 2000; ++second) {
    const std::vector<uint64_t> marks = Batch(50, second);
    store.Mark(7, marks.data(), marks.size(), second);
    store.Filter(7, marks.data(), marks.size(), second, out.data());
    for (uint8_t u : out) unseen += u;
  }
  EXPECT_EQ(unseen, 0u) << "of 100,000 marks, read at the second they were marked";
}

INSTANTIATE_TEST_SUITE_P(Window, CappedLayouts, ::testing::Values(WindowLayout::kGrowing, WindowLayout::kTable));

}  // namespace
}  // namespace seen
