// The module API's function pointers, fetched once at load.
#include "integrations/redis/redis_api.h"

extern "C" {
#define SEEN_REDIS_DEFINE(ret, name, params) ret(*RedisModule_##name) params = nullptr;
SEEN_REDIS_API(SEEN_REDIS_DEFINE)
#undef SEEN_REDIS_DEFINE
}

int RedisApiInit(RedisModuleCtx* ctx, const char* name, int version) {
  // The server keeps its lookup function in the first field of every context it passes.
  using GetApiFunc = int (*)(const char* name, void* out);
  const auto get_api = *reinterpret_cast<GetApiFunc*>(ctx);
#define SEEN_REDIS_FETCH(ret, fn, params) \
  if (get_api("RedisModule_" #fn, reinterpret_cast<void*>(&RedisModule_##fn)) != REDISMODULE_OK) \
    return REDISMODULE_ERR;
  SEEN_REDIS_API(SEEN_REDIS_FETCH)
#undef SEEN_REDIS_FETCH
  if (RedisModule_IsModuleNameBusy(name)) return REDISMODULE_ERR;
  RedisModule_SetModuleAttribs(ctx, name, version, REDISMODULE_APIVER_1);
  return REDISMODULE_OK;
}
