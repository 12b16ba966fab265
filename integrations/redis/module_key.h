// Keyed mode for the whole module (docs/SECURITY.md): `KEYFILE path` among the module
// arguments names a file of 16 to 64 secret bytes. Every window is then hashed under that
// key, and every window's bytes (RDB, DUMP/RESTORE, SEEN.LOAD, replication) open only with
// it. The key is read once, at load, and is never written anywhere.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "capi/seen.h"
#include "integrations/redis/redis_api.h"

namespace seen::redis {

// Takes a `KEYFILE path` pair out of the module arguments and reads the key (empty if none).
// Returns "" or what is wrong.
std::string TakeKeyFile(std::vector<RedisModuleString*>& args);

// The module's key, empty in unkeyed mode.
const std::vector<uint8_t>& ModuleKey();

// seen_window_deserialize, under the module's key when it has one, into Redis's memory.
seen_status DeserializeWindow(const void* bytes, size_t len, seen_window** out);

}  // namespace seen::redis
