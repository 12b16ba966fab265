// SEEN.RESERVE, SEEN.LOAD and SEEN.INFO: whole windows.
#include <time.h>

#include <string>
#include <vector>

#include "integrations/redis/commands.h"
#include "integrations/redis/metrics.h"
#include "integrations/redis/module_key.h"
#include "integrations/redis/options.h"
#include "integrations/redis/refusal_log.h"
#include "integrations/redis/window_memory.h"
#include "integrations/redis/window_type.h"

namespace seen::redis {

// The coarse clock: the vDSO reads it without the time stamp counter, where Redis's own
// (RedisModule_Milliseconds) is a gettimeofday each call, a few percent of a FILTERB of one
// id. Windows count whole seconds; it lags by a kernel tick at most, a few milliseconds.
uint32_t ServerNow() {
  timespec now{};
#ifdef CLOCK_REALTIME_COARSE
  clock_gettime(CLOCK_REALTIME_COARSE, &now);
#else
  clock_gettime(CLOCK_REALTIME, &now);
#endif
  return static_cast<uint32_t>(now.tv_sec);
}

seen_window* CreateWindow(RedisModuleCtx* ctx, RedisModuleKey* key, RedisModuleString* name,
                          const seen_window_options* opts, uint32_t now) {
  seen_window* w = nullptr;
  const seen_status status =
      opts != nullptr ? seen_window_create_with_allocator(opts, now, RedisMemory(), &w, nullptr)
                      : NewDefaultWindow(now, &w);
  if (status != SEEN_OK) {
    ReplySeenError(ctx);
    return nullptr;
  }
  const std::vector<char> bytes = Serialize(w);
  RedisModule_ModuleTypeSetValue(key, WindowType(), w);
  CountWindowHeld(w, now);
  RedisModule_Replicate(ctx, "SEEN.LOAD", "sb", name, bytes.data(), bytes.size());
  return w;
}

namespace {

// SEEN.RESERVE key COUNT n | SECONDS s [ITEMS n] [FPR p] [SEED x]
int Reserve(RedisModuleCtx* ctx, RedisModuleString** argv, int argc) {
  if (argc < 4) return RedisModule_WrongArity(ctx);
  seen_window_options opts = ModuleDefaults();
  opts.expected_items = 0;  // the reserve's own, not the module's defaults
  opts.max_bytes = 0;
  const std::string error = ParseWindowOptions(argv + 2, argc - 2, &opts);
  if (!error.empty()) return RedisModule_ReplyWithError(ctx, ("ERR seen: " + error).c_str());
  OpenKey open(ctx, argv[1], REDISMODULE_READ | REDISMODULE_WRITE);
  if (RedisModule_KeyType(open.key) != REDISMODULE_KEYTYPE_EMPTY)
    return RedisModule_ReplyWithError(ctx, "ERR seen: key already exists");
  if (CreateWindow(ctx, open.key, argv[1], &opts, ServerNow()) == nullptr) return REDISMODULE_OK;
  return RedisModule_ReplyWithSimpleString(ctx, "OK");
}

// SEEN.LOAD key blob: a serialized window, validated, replaces the key's window.
int Load(RedisModuleCtx* ctx, RedisModuleString** argv, int argc) {
  if (argc != 3) return RedisModule_WrongArity(ctx);
  OpenKey open(ctx, argv[1], REDISMODULE_READ | REDISMODULE_WRITE);
  seen_window* existing = nullptr;
  if (!KeyWindow(ctx, open.key, &existing)) return REDISMODULE_OK;
  size_t len = 0;
  const char* blob = RedisModule_StringPtrLen(argv[2], &len);
  seen_window* w = nullptr;
  uint64_t unlogged = 0;
  if (DeserializeWindow(blob, len, &w) != SEEN_OK) {
    if (TakeRefusalLogTurn(&unlogged)) {
      RedisModule_Log(ctx, "warning",
                      "seen: SEEN.LOAD refused a window: %s (and %llu more refused since the "
                      "last such line)", seen_last_error(), static_cast<unsigned long long>(unlogged));
    }
    return ReplySeenError(ctx);
  }
  RedisModule_ModuleTypeSetValue(open.key, WindowType(), w);
  CountWindowHeld(w, ServerNow());
  RedisModule_ReplicateVerbatim(ctx);
  return RedisModule_ReplyWithSimpleString(ctx, "OK");
}

// SEEN.INFO key: field-value pairs.
int Info(RedisModuleCtx* ctx, RedisModuleString** argv, int argc) {
  if (argc != 2) return RedisModule_WrongArity(ctx);
  OpenKey open(ctx, argv[1], REDISMODULE_READ);
  seen_window* w = nullptr;
  if (!KeyWindow(ctx, open.key, &w)) return REDISMODULE_OK;
  if (w == nullptr) return RedisModule_ReplyWithError(ctx, "ERR seen: no such key");
  seen_window_info info{};
  info.size = sizeof info;
  if (seen_window_get_info(w, &info) != SEEN_OK) return ReplySeenError(ctx);
  // Saturation on the primary's clock: a time window of an older file given more than it
  // was sized for shows a rate above predicted_fpr (its rate at design load); a growing one
  // holds its rate, and effective_span shows what it gave up to max_bytes.
  seen_window_saturation sat{};
  sat.size = sizeof sat;
  if (seen_window_get_saturation(w, ServerNow(), &sat) != SEEN_OK) return ReplySeenError(ctx);
  static const char* const kLayouts[] = {"?", "ring", "sliced", "growing", "table", "packed"};
  RedisModule_ReplyWithArray(ctx, 32);
  RedisModule_ReplyWithSimpleString(ctx, "mode");
  RedisModule_ReplyWithSimpleString(ctx, info.mode == SEEN_WINDOW_TIME ? "time" : "count");
  RedisModule_ReplyWithSimpleString(ctx, "layout");
  RedisModule_ReplyWithSimpleString(ctx, kLayouts[info.layout <= 5 ? info.layout : 0]);
  RedisModule_ReplyWithSimpleString(ctx, "span");
  RedisModule_ReplyWithLongLong(ctx, info.span);
  RedisModule_ReplyWithSimpleString(ctx, "segments");
  RedisModule_ReplyWithLongLong(ctx, info.segments);
  RedisModule_ReplyWithSimpleString(ctx, "slack");
  RedisModule_ReplyWithDouble(ctx, info.slack);
  RedisModule_ReplyWithSimpleString(ctx, "predicted_fpr");
  RedisModule_ReplyWithDouble(ctx, info.predicted_fpr);
  RedisModule_ReplyWithSimpleString(ctx, "bytes");
  RedisModule_ReplyWithLongLong(ctx, static_cast<long long>(sat.bytes));
  RedisModule_ReplyWithSimpleString(ctx, "start_bytes");
  RedisModule_ReplyWithLongLong(ctx, static_cast<long long>(info.state_bytes));
  RedisModule_ReplyWithSimpleString(ctx, "max_bytes");
  RedisModule_ReplyWithLongLong(ctx, static_cast<long long>(info.max_bytes));
  RedisModule_ReplyWithSimpleString(ctx, "seed");
  RedisModule_ReplyWithSimpleString(ctx, std::to_string(info.seed).c_str());  // a u64
  RedisModule_ReplyWithSimpleString(ctx, "fill");
  RedisModule_ReplyWithDouble(ctx, sat.fill);
  RedisModule_ReplyWithSimpleString(ctx, "fpr_now");
  RedisModule_ReplyWithDouble(ctx, sat.predicted_fpr);
  RedisModule_ReplyWithSimpleString(ctx, "effective_span");
  RedisModule_ReplyWithLongLong(ctx, sat.effective_span);
  RedisModule_ReplyWithSimpleString(ctx, "target_fpr");
  RedisModule_ReplyWithDouble(ctx, info.target_fpr);
  // capped: it gave up older time to max_bytes; over_target: its rate now passed the target.
  RedisModule_ReplyWithSimpleString(ctx, "capped");
  RedisModule_ReplyWithLongLong(ctx, sat.effective_span < info.span);
  RedisModule_ReplyWithSimpleString(ctx, "over_target");
  RedisModule_ReplyWithLongLong(ctx, sat.predicted_fpr > info.target_fpr);
  return REDISMODULE_OK;
}

}  // namespace

int RegisterWindowCommands(RedisModuleCtx* ctx) {
  if (RedisModule_CreateCommand(ctx, "seen.reserve", Reserve, "write deny-oom", 1, 1, 1) ||
      RedisModule_CreateCommand(ctx, "seen.load", Load, "write deny-oom", 1, 1, 1) ||
      RedisModule_CreateCommand(ctx, "seen.info", Info, "readonly fast", 1, 1, 1))
    return REDISMODULE_ERR;
  return REDISMODULE_OK;
}

}  // namespace seen::redis
