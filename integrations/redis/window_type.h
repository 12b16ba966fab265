// The native type: one exposure window (a seen_window) per key. Redis shards, expires,
// evicts, replicates and persists it; this file gives Redis the callbacks to do so.
//  - RDB: the window's serialized form (container kind 4), validated in full on load, so
//    a crafted RESTORE payload gets an error reply, never a crash.
//  - AOF rewrite: SEEN.LOAD key <serialized form>.
#pragma once

#include <string>
#include <vector>

#include "capi/seen.h"
#include "integrations/redis/redis_api.h"

namespace seen::redis {

int RegisterWindowType(RedisModuleCtx* ctx);
RedisModuleType* WindowType();

// The serialized form, or an empty vector when serializing fails (out of memory).
std::vector<char> Serialize(const seen_window* w);

// Replies "ERR seen: <why the last seen_* call failed>".
int ReplySeenError(RedisModuleCtx* ctx);

// The window held by an open key: nullptr for an empty key. Replies WRONGTYPE and returns
// false if the key holds something else.
bool KeyWindow(RedisModuleCtx* ctx, RedisModuleKey* key, seen_window** out);

}  // namespace seen::redis
