#include "integrations/redis/refusal_log.h"

#include "integrations/redis/redis_api.h"

namespace seen::redis {

namespace {

constexpr long long kLogIntervalMs = 1000;

// Loads run on the server's main thread.
uint64_t refusals = 0;
uint64_t unlogged_since_line = 0;
long long last_line_ms = -kLogIntervalMs;

}  // namespace

bool TakeRefusalLogTurn(uint64_t* unlogged) {
  ++refusals;
  const long long now_ms = RedisModule_Milliseconds();
  if (now_ms - last_line_ms < kLogIntervalMs) {
    ++unlogged_since_line;
    return false;
  }
  *unlogged = unlogged_since_line;
  unlogged_since_line = 0;
  last_line_ms = now_ms;
  return true;
}

uint64_t Refusals() { return refusals; }

}  // namespace seen::redis
