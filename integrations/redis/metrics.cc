#include "integrations/redis/metrics.h"

#include <atomic>
#include <iterator>
#include <mutex>
#include <unordered_set>

#include "integrations/redis/commands.h"
#include "integrations/redis/refusal_log.h"
#include "integrations/redis/window_memory.h"

namespace seen::redis {

namespace {

// Commands run on the server's one command thread.
struct Counters {
  uint64_t marks = 0;
  uint64_t filters = 0;
  uint64_t takes = 0;
  uint64_t candidates = 0;
} counters;

// Windows are freed off the main thread by FLUSHALL ASYNC: the count is atomic, the watched
// set locked.
std::atomic<uint64_t> windows_held{0};
std::mutex watched_lock;
std::unordered_set<const seen_window*> watched;  // may be capped or over target

// Whether w may be capped or over its target now (see metrics.h).
bool MayBeShort(const seen_window* w, uint32_t now) {
  seen_window_info info{};
  info.size = sizeof info;
  uint32_t effective_span = 0;
  uint64_t bytes = 0;
  if (seen_window_get_info(w, &info) != SEEN_OK || info.mode != SEEN_WINDOW_TIME) return false;
  if (info.layout == 2) return true;  // sliced: sized for ITEMS, its rate rises past them
  // A current segment that alone outgrew max_bytes gives up rate without giving up time.
  if (seen_window_get_bytes(w, &bytes) == SEEN_OK && 2 * bytes >= info.max_bytes) return true;
  return seen_window_get_effective_span(w, now, &effective_span) == SEEN_OK &&
         effective_span < info.span;
}

struct Short {
  uint64_t capped = 0;
  uint64_t over_target = 0;
};

// The watched windows, measured on the server's clock; those that are neither any more (their
// given-up time left the span) are watched no longer.
Short MeasureWatched() {
  Short counts;
  const uint32_t now = ServerNow();
  const std::lock_guard<std::mutex> hold(watched_lock);
  for (auto it = watched.begin(); it != watched.end();) {
    seen_window_info info{};
    info.size = sizeof info;
    seen_window_saturation sat{};
    sat.size = sizeof sat;
    const bool read = seen_window_get_info(*it, &info) == SEEN_OK &&
                      seen_window_get_saturation(*it, now, &sat) == SEEN_OK;
    const bool capped = read && sat.effective_span < info.span;
    const bool over = read && sat.predicted_fpr > info.target_fpr;
    counts.capped += capped;
    counts.over_target += over;
    it = capped || over || (read && info.layout == 2) ? std::next(it) : watched.erase(it);
  }
  return counts;
}

void Info(RedisModuleInfoCtx* ctx, int for_crash_report) {
  RedisModule_InfoAddSection(ctx, "");
  RedisModule_InfoAddFieldULongLong(ctx, "windows", windows_held.load());
  RedisModule_InfoAddFieldULongLong(ctx, "bytes", WindowBytesHeld());
  if (!for_crash_report) {  // a crash report must not read what may be corrupt
    const Short counts = MeasureWatched();
    RedisModule_InfoAddFieldULongLong(ctx, "capped_windows", counts.capped);
    RedisModule_InfoAddFieldULongLong(ctx, "over_target_windows", counts.over_target);
  }
  RedisModule_InfoAddFieldULongLong(ctx, "marks", counters.marks);
  RedisModule_InfoAddFieldULongLong(ctx, "filters", counters.filters);
  RedisModule_InfoAddFieldULongLong(ctx, "takes", counters.takes);
  RedisModule_InfoAddFieldULongLong(ctx, "candidates", counters.candidates);
  RedisModule_InfoAddFieldULongLong(ctx, "refused_windows", Refusals());
}

}  // namespace

int RegisterMetrics(RedisModuleCtx* ctx) { return RedisModule_RegisterInfoFunc(ctx, Info); }

void CountMarks(size_t ids) { counters.marks += ids; }

void CountFilter(size_t candidates) {
  counters.filters += 1;
  counters.candidates += candidates;
}

void CountTake(size_t candidates) {
  counters.takes += 1;
  counters.candidates += candidates;
}

void CountWindowHeld(const seen_window* w, uint32_t now) {
  windows_held.fetch_add(1);
  NoteWrite(w, now);
}

void NoteWrite(const seen_window* w, uint32_t now) {
  if (!MayBeShort(w, now)) return;
  const std::lock_guard<std::mutex> hold(watched_lock);
  watched.insert(w);
}

void CountWindowFreed(const seen_window* w) {
  windows_held.fetch_sub(1);
  const std::lock_guard<std::mutex> hold(watched_lock);
  watched.erase(w);
}

}  // namespace seen::redis
