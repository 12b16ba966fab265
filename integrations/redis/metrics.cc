#include "integrations/redis/metrics.h"

#include <cstdint>

#include "capi/seen.h"
#include "integrations/redis/commands.h"
#include "integrations/redis/refusal_log.h"
#include "integrations/redis/window_type.h"

namespace seen::redis {

namespace {

// Commands run on the server's one command thread.
struct Counters {
  uint64_t marks = 0;
  uint64_t filters = 0;
  uint64_t takes = 0;
  uint64_t candidates = 0;
} counters;

struct WindowTotals {
  uint64_t windows = 0;
  uint64_t bytes = 0;
  uint64_t capped = 0;
  uint64_t over_target = 0;
  uint32_t now = 0;
};

// A context of the module's own, for walking the keyspace outside any command.
RedisModuleCtx* walker = nullptr;

void AddWindow(RedisModuleCtx*, RedisModuleString*, RedisModuleKey* key, void* totals_ptr) {
  if (key == nullptr || RedisModule_ModuleTypeGetType(key) != WindowType()) return;
  const auto* w = static_cast<const seen_window*>(RedisModule_ModuleTypeGetValue(key));
  auto* totals = static_cast<WindowTotals*>(totals_ptr);
  seen_window_info info{};
  info.size = sizeof info;
  if (seen_window_get_info(w, &info) != SEEN_OK) return;
  totals->windows += 1;
  // A count window never grows, gives up time or passes its rate (sizing keeps a full one
  // under it): its info says all, without the read of its state that saturation makes.
  if (info.mode == SEEN_WINDOW_COUNT) {
    totals->bytes += info.state_bytes;
    return;
  }
  seen_window_saturation sat{};
  sat.size = sizeof sat;
  if (seen_window_get_saturation(w, totals->now, &sat) != SEEN_OK) return;
  totals->bytes += sat.bytes;
  totals->capped += sat.effective_span < info.span;
  totals->over_target += sat.predicted_fpr > info.target_fpr;
}

// Every database's windows, on the server's clock: a pass over the keyspace, which reads the
// state of each time window (as SEEN.INFO does).
WindowTotals CountWindows() {
  WindowTotals totals;
  totals.now = ServerNow();
  for (int db = 0; RedisModule_SelectDb(walker, db) == REDISMODULE_OK; ++db) {
    RedisModuleScanCursor* cursor = RedisModule_ScanCursorCreate();
    while (RedisModule_Scan(walker, cursor, AddWindow, &totals)) {
    }
    RedisModule_ScanCursorDestroy(cursor);
  }
  return totals;
}

void Info(RedisModuleInfoCtx* ctx, int for_crash_report) {
  RedisModule_InfoAddSection(ctx, "");
  if (!for_crash_report) {  // a crash report must not touch what may be corrupt
    const WindowTotals totals = CountWindows();
    RedisModule_InfoAddFieldULongLong(ctx, "windows", totals.windows);
    RedisModule_InfoAddFieldULongLong(ctx, "bytes", totals.bytes);
    RedisModule_InfoAddFieldULongLong(ctx, "capped_windows", totals.capped);
    RedisModule_InfoAddFieldULongLong(ctx, "over_target_windows", totals.over_target);
  }
  RedisModule_InfoAddFieldULongLong(ctx, "marks", counters.marks);
  RedisModule_InfoAddFieldULongLong(ctx, "filters", counters.filters);
  RedisModule_InfoAddFieldULongLong(ctx, "takes", counters.takes);
  RedisModule_InfoAddFieldULongLong(ctx, "candidates", counters.candidates);
  RedisModule_InfoAddFieldULongLong(ctx, "refused_windows", Refusals());
}

}  // namespace

int RegisterMetrics(RedisModuleCtx* ctx) {
  walker = RedisModule_GetDetachedThreadSafeContext(ctx);
  if (walker == nullptr) return REDISMODULE_ERR;
  return RedisModule_RegisterInfoFunc(ctx, Info);
}

void CountMarks(size_t ids) { counters.marks += ids; }

void CountFilter(size_t candidates) {
  counters.filters += 1;
  counters.candidates += candidates;
}

void CountTake(size_t candidates) {
  counters.takes += 1;
  counters.candidates += candidates;
}

}  // namespace seen::redis
