#include "integrations/redis/window_type.h"

#include <string>

#include "integrations/redis/commands.h"
#include "integrations/redis/metrics.h"
#include "integrations/redis/module_key.h"
#include "integrations/redis/refusal_log.h"

namespace seen::redis {

namespace {

RedisModuleType* window_type = nullptr;
// The layout of the RDB value; bump it if what rdb_save writes ever changes shape.
constexpr int kEncodingVersion = 0;

// Logs why a window from RESTORE, an RDB file or a replica's sync was refused (rate-limited,
// integrations/redis/refusal_log.h); returns the null that tells the server.
void* Refuse(RedisModuleIO* rdb, const std::string& reason) {
  uint64_t unlogged = 0;
  if (TakeRefusalLogTurn(&unlogged)) {
    RedisModule_LogIOError(rdb, "warning",
                           "seen: refused a window from RESTORE, an RDB file or a sync: %s "
                           "(and %llu more refused since the last such line)",
                           reason.c_str(), static_cast<unsigned long long>(unlogged));
  }
  return nullptr;
}

void* RdbLoad(RedisModuleIO* rdb, int encver) {
  if (encver != kEncodingVersion) return Refuse(rdb, "unknown encoding version " + std::to_string(encver));
  size_t len = 0;
  char* bytes = RedisModule_LoadStringBuffer(rdb, &len);
  if (RedisModule_IsIOError(rdb) || bytes == nullptr) {
    if (bytes != nullptr) RedisModule_Free(bytes);
    return Refuse(rdb, "the value is cut short or unreadable");
  }
  seen_window* w = nullptr;
  const seen_status status = DeserializeWindow(bytes, len, &w);
  RedisModule_Free(bytes);
  if (status != SEEN_OK) return Refuse(rdb, seen_last_error());
  CountWindowHeld(w, ServerNow());
  return w;
}

void RdbSave(RedisModuleIO* rdb, void* value) {
  const std::vector<char> bytes = Serialize(static_cast<seen_window*>(value));
  RedisModule_SaveStringBuffer(rdb, bytes.data(), bytes.size());
}

void AofRewrite(RedisModuleIO* aof, RedisModuleString* key, void* value) {
  const std::vector<char> bytes = Serialize(static_cast<seen_window*>(value));
  RedisModule_EmitAOF(aof, "SEEN.LOAD", "sb", key, bytes.data(), bytes.size());
}

// What Redis's allocator hands out for a block of n bytes (its size class).
size_t AllocatedFor(size_t n) {
  void* block = RedisModule_Alloc(n);
  const size_t allocated = RedisModule_MallocSize(block);
  RedisModule_Free(block);
  return allocated;
}

// The window's blocks as Redis's allocator holds them: the value itself, the handle with the
// state in it, and a growing or table window's growth, which takes a cache line more from
// 4 KiB on (core/window_memory.h).
size_t MemUsage(const void* value) {
  auto* w = static_cast<const seen_window*>(value);
  seen_window_info info{};
  info.size = sizeof info;
  uint64_t bytes = 0;
  if (seen_window_get_info(w, &info) != SEEN_OK || seen_window_get_bytes(w, &bytes) != SEEN_OK) return 0;
  const size_t growth = bytes - info.state_bytes;
  return RedisModule_MallocSize(const_cast<void*>(value)) +
         (growth == 0 ? 0 : growth >= 4096 ? growth + 64 : AllocatedFor(growth));
}

void Digest(RedisModuleDigest* digest, void* value) {
  const std::vector<char> bytes = Serialize(static_cast<seen_window*>(value));
  RedisModule_DigestAddStringBuffer(digest, bytes.data(), bytes.size());
  RedisModule_DigestEndSequence(digest);
}

void Free(void* value) {
  CountWindowFreed(static_cast<seen_window*>(value));
  seen_window_free(static_cast<seen_window*>(value));
}

void* Copy(RedisModuleString*, RedisModuleString*, const void* value) {
  const std::vector<char> bytes = Serialize(static_cast<const seen_window*>(value));
  seen_window* copy = nullptr;
  if (DeserializeWindow(bytes.data(), bytes.size(), &copy) == SEEN_OK) CountWindowHeld(copy, ServerNow());
  return copy;  // NULL makes COPY fail cleanly
}

}  // namespace

int RegisterWindowType(RedisModuleCtx* ctx) {
  RedisModuleTypeMethods methods{};
  methods.version = REDISMODULE_TYPE_METHOD_VERSION;
  methods.rdb_load = RdbLoad;
  methods.rdb_save = RdbSave;
  methods.aof_rewrite = AofRewrite;
  methods.mem_usage = MemUsage;
  methods.digest = Digest;
  methods.free = Free;
  methods.copy = Copy;
  // Type names are exactly 9 characters.
  window_type = RedisModule_CreateDataType(ctx, "seen-wind", kEncodingVersion, &methods);
  if (window_type == nullptr) return REDISMODULE_ERR;
  RedisModule_SetModuleOptions(ctx, REDISMODULE_OPTIONS_HANDLE_IO_ERRORS);
  return REDISMODULE_OK;
}

RedisModuleType* WindowType() { return window_type; }

std::vector<char> Serialize(const seen_window* w) {
  size_t len = 0;
  if (seen_window_serialize(w, nullptr, 0, &len) != SEEN_OK) return {};
  std::vector<char> bytes(len);
  if (seen_window_serialize(w, reinterpret_cast<uint8_t*>(bytes.data()), len, &len) != SEEN_OK)
    return {};
  return bytes;
}

int ReplySeenError(RedisModuleCtx* ctx) {
  std::string message = std::string("ERR seen: ") + seen_last_error();
  for (char& c : message) {
    if (c == '\r' || c == '\n') c = ' ';  // an error reply is one line
  }
  return RedisModule_ReplyWithError(ctx, message.c_str());
}

bool KeyWindow(RedisModuleCtx* ctx, RedisModuleKey* key, seen_window** out) {
  *out = nullptr;
  if (RedisModule_KeyType(key) == REDISMODULE_KEYTYPE_EMPTY) return true;
  if (RedisModule_ModuleTypeGetType(key) != window_type) {
    RedisModule_ReplyWithError(
        ctx, "WRONGTYPE Operation against a key holding the wrong kind of value");
    return false;
  }
  *out = static_cast<seen_window*>(RedisModule_ModuleTypeGetValue(key));
  return true;
}

}  // namespace seen::redis
