// The SEEN.* commands. Each touches one key, argv[1], so Redis Cluster routes them.
#pragma once

#include <cstdint>

#include "capi/seen.h"
#include "integrations/redis/redis_api.h"

namespace seen::redis {

int RegisterWindowCommands(RedisModuleCtx* ctx);  // RESERVE, LOAD, INFO
int RegisterIdCommands(RedisModuleCtx* ctx);      // MARK, FILTER, TAKE and their packed forms

// A key closed on every path out of a command.
struct OpenKey {
  RedisModuleKey* key;
  OpenKey(RedisModuleCtx* ctx, RedisModuleString* name, int mode)
      : key(RedisModule_OpenKey(ctx, name, mode)) {}
  ~OpenKey() { RedisModule_CloseKey(key); }
  OpenKey(const OpenKey&) = delete;
  OpenKey& operator=(const OpenKey&) = delete;
};

// The primary's clock, in seconds: the `now` of a write that gives none.
uint32_t ServerNow();

// A new window for `key` (opened for writing), sized from opts (nullptr: the module's
// defaults), set as its value and replicated as SEEN.LOAD, so that every replica holds the
// same bytes whatever its module arguments. Replies an error and returns nullptr on failure.
seen_window* CreateWindow(RedisModuleCtx* ctx, RedisModuleKey* key, RedisModuleString* name,
                          const seen_window_options* opts, uint32_t now);

}  // namespace seen::redis
