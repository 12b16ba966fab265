// The floor under every module command on this server: FLOOR.KEY key arg opens the key, asks
// its type and replies one byte, as SEEN.FILTERB of one id does around its probe, and
// FLOOR.PING replies as PING does. bench_redis.py runs both beside the SEEN.* commands, so
// what a module costs the server before any work of its own is measured, not assumed.
#include "integrations/redis/redis_api.h"

namespace {

int Ping(RedisModuleCtx* ctx, RedisModuleString**, int) {
  return RedisModule_ReplyWithSimpleString(ctx, "PONG");
}

int Key(RedisModuleCtx* ctx, RedisModuleString** argv, int argc) {
  if (argc != 3) return RedisModule_WrongArity(ctx);
  RedisModuleKey* key = RedisModule_OpenKey(ctx, argv[1], REDISMODULE_READ);
  const char type = static_cast<char>(RedisModule_KeyType(key));
  RedisModule_CloseKey(key);
  size_t len = 0;
  RedisModule_StringPtrLen(argv[2], &len);
  return RedisModule_ReplyWithStringBuffer(ctx, &type, 1);
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int RedisModule_OnLoad(
    RedisModuleCtx* ctx, RedisModuleString**, int) {
  if (RedisApiInit(ctx, "floor", 1) != REDISMODULE_OK ||
      RedisModule_CreateCommand(ctx, "floor.ping", Ping, "readonly", 0, 0, 0) ||
      RedisModule_CreateCommand(ctx, "floor.key", Key, "readonly", 1, 1, 1))
    return REDISMODULE_ERR;
  return REDISMODULE_OK;
}
