// Window options from command arguments: the module's defaults (module arguments) and
// SEEN.RESERVE's, both "COUNT n | SECONDS s [ITEMS n] [MAXBYTES b] [FPR p] [SEED x]".
#pragma once

#include <string>

#include "capi/seen.h"
#include "integrations/redis/redis_api.h"

namespace seen::redis {

// The options windows get when a write creates them: COUNT 500 FPR 0.01 unless the module
// arguments say otherwise.
seen_window_options& ModuleDefaults();

// A new window with the module's defaults, as seen_window_create, in Redis's memory. Sizing a window takes
// about 0.4 ms, so a count window is copied from an empty one sized once (microseconds);
// a time window, whose clock starts at `now`, is sized each time.
seen_status NewDefaultWindow(uint32_t now, seen_window** out);

// Reads option pairs from argv[0..argc) over *opts; returns "" or what is wrong, naming the
// argument. A time window (SECONDS) needs ITEMS, the most items expected in its span; without
// MAXBYTES, the most bytes it may grow to follow from ITEMS (48 per item, at least 1 MiB).
std::string ParseWindowOptions(RedisModuleString** argv, int argc, seen_window_options* opts);

}  // namespace seen::redis
