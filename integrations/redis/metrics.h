// INFO seen: server-wide figures for an operator watching many shards, in the module's INFO
// section (fields seen_*), which `INFO seen` and `INFO everything` show.
//  - What the windows are, counted over the keyspace when INFO asks: windows, their bytes,
//    how many gave up older time to max_bytes (capped) and how many are over their target
//    rate now (over_target).
//  - What the commands did since the server started: ids marked (MARK, MARKB), FILTER and
//    TAKE calls (either form), and the candidates they looked at.
#pragma once

#include <cstddef>

#include "integrations/redis/redis_api.h"

namespace seen::redis {

int RegisterMetrics(RedisModuleCtx* ctx);

void CountMarks(size_t ids);
void CountFilter(size_t candidates);
void CountTake(size_t candidates);

}  // namespace seen::redis
