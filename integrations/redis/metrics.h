// INFO seen: server-wide figures for an operator watching many shards, in the module's INFO
// section (fields seen_*), which `INFO seen`, `INFO modules` and `INFO everything` show.
// Every figure costs O(1) but the capped and over-target counts, which cost one saturation (a
// read of the state) per window that may be either: a time window that gave up time at its
// last write or load, one whose bytes passed half its max_bytes (it may have given up rate:
// its current segment alone outgrew the cap), or a sliced time window of an older file. Other
// windows keep their rate by construction (a count window is never over its target full; a
// table or growing one gives up nothing below half its cap), and time alone never makes a
// window capped.
//  - windows: held by the keyspace; bytes: their blocks in Redis's memory.
//  - capped_windows: gave up older time to max_bytes; over_target_windows: rate now over target.
//  - marks (ids marked by MARK, MARKB), filters and takes (calls, either form), candidates
//    (the ids those calls looked at), refused_windows (integrations/redis/refusal_log.h).
#pragma once

#include <cstddef>
#include <cstdint>

#include "capi/seen.h"
#include "integrations/redis/redis_api.h"

namespace seen::redis {

int RegisterMetrics(RedisModuleCtx* ctx);

void CountMarks(size_t ids);
void CountFilter(size_t candidates);
void CountTake(size_t candidates);

// A window the keyspace now holds (made, loaded, restored, copied), at the clock of the
// command that brought it; then after each write; then once it is freed.
void CountWindowHeld(const seen_window* w, uint32_t now);
void NoteWrite(const seen_window* w, uint32_t now);
void CountWindowFreed(const seen_window* w);

}  // namespace seen::redis
