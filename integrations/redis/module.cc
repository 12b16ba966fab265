// The module's entry point: `--loadmodule seen.so [COUNT n | SECONDS s ITEMS n [MAXBYTES b]]
// [FPR p] [SEED x] [KEYFILE path]` sets the window a write creates when its key has none, and
// whether every window is keyed (integrations/redis/module_key.h).
#include <string>
#include <vector>

#include "capi/seen.h"
#include "integrations/redis/commands.h"
#include "integrations/redis/metrics.h"
#include "integrations/redis/module_key.h"
#include "integrations/redis/options.h"
#include "integrations/redis/redis_api.h"
#include "integrations/redis/window_type.h"

namespace {

// Whether the defaults describe a window that can be built; if not, the log says why.
bool DefaultsValid(RedisModuleCtx* ctx, const std::string& error) {
  seen_window* probe = nullptr;
  if (error.empty() && seen_window_create(&seen::redis::ModuleDefaults(), 0, &probe, nullptr) == SEEN_OK) {
    seen_window_free(probe);
    return true;
  }
  RedisModule_Log(ctx, "warning", "seen: bad module arguments: %s",
                  error.empty() ? seen_last_error() : error.c_str());
  return false;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int RedisModule_OnLoad(
    RedisModuleCtx* ctx, RedisModuleString** argv, int argc) {
  if (RedisApiInit(ctx, "seen", SEEN_VERSION_NUMBER) != REDISMODULE_OK) return REDISMODULE_ERR;
  seen_window_options& defaults = seen::redis::ModuleDefaults();
  std::vector<RedisModuleString*> args(argv, argv + argc);
  std::string error = seen::redis::TakeKeyFile(args);
  if (error.empty()) error = seen::redis::ParseWindowOptions(args.data(), static_cast<int>(args.size()), &defaults);
  // Windows made from the defaults, and from SEEN.RESERVE's copy of them, carry the key.
  defaults.key = seen::redis::ModuleKey().empty() ? nullptr : seen::redis::ModuleKey().data();
  defaults.key_len = seen::redis::ModuleKey().size();
  if (!DefaultsValid(ctx, error)) return REDISMODULE_ERR;
  if (seen::redis::RegisterWindowType(ctx) != REDISMODULE_OK ||
      seen::redis::RegisterWindowCommands(ctx) != REDISMODULE_OK ||
      seen::redis::RegisterIdCommands(ctx) != REDISMODULE_OK ||
      seen::redis::RegisterMetrics(ctx) != REDISMODULE_OK)
    return REDISMODULE_ERR;
  return REDISMODULE_OK;
}
