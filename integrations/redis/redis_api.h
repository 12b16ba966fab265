// The part of the Redis module API this module uses, written from the public API reference
// (redis.io, "Modules API reference" and "Modules API for native types"). Redis hands a
// module its API as named function pointers: the module asks for each by name through the
// lookup function that the server stores first in every context (RedisApiInit below).
#pragma once

#include <cstddef>
#include <cstdint>

extern "C" {

struct RedisModuleCtx;
struct RedisModuleString;
struct RedisModuleKey;
struct RedisModuleType;
struct RedisModuleIO;
struct RedisModuleDigest;
struct RedisModuleInfoCtx;

constexpr int REDISMODULE_OK = 0;
constexpr int REDISMODULE_ERR = 1;
constexpr int REDISMODULE_APIVER_1 = 1;
constexpr int REDISMODULE_READ = 1 << 0;
constexpr int REDISMODULE_WRITE = 1 << 1;
constexpr int REDISMODULE_KEYTYPE_EMPTY = 0;
constexpr long long REDISMODULE_NO_EXPIRE = -1;
// Load callbacks see I/O errors through IsIOError instead of the server aborting: a crafted
// RESTORE payload then gets an error reply.
constexpr int REDISMODULE_OPTIONS_HANDLE_IO_ERRORS = 1 << 0;
// Version 3 of the type methods has the copy callback (Redis 6.2 and later).
constexpr uint64_t REDISMODULE_TYPE_METHOD_VERSION = 3;

typedef int (*RedisModuleCmdFunc)(RedisModuleCtx* ctx, RedisModuleString** argv, int argc);
typedef void (*RedisModuleInfoFunc)(RedisModuleInfoCtx* ctx, int for_crash_report);

struct RedisModuleTypeMethods {
  uint64_t version;
  void* (*rdb_load)(RedisModuleIO* rdb, int encver);
  void (*rdb_save)(RedisModuleIO* rdb, void* value);
  void (*aof_rewrite)(RedisModuleIO* aof, RedisModuleString* key, void* value);
  size_t (*mem_usage)(const void* value);
  void (*digest)(RedisModuleDigest* digest, void* value);
  void (*free)(void* value);
  int (*aux_load)(RedisModuleIO* rdb, int encver, int when);
  void (*aux_save)(RedisModuleIO* rdb, int when);
  int aux_save_triggers;
  size_t (*free_effort)(RedisModuleString* key, const void* value);
  void (*unlink)(RedisModuleString* key, const void* value);
  void* (*copy)(RedisModuleString* fromkey, RedisModuleString* tokey, const void* value);
  int (*defrag)(void* defrag_ctx, RedisModuleString* key, void** value);
};

// X(return type, name without the RedisModule_ prefix, parameter list): one list declares
// the pointers, defines them and fetches them, so the three never disagree.
#define SEEN_REDIS_API(X)                                                                      \
  X(void, SetModuleAttribs, (RedisModuleCtx*, const char* name, int ver, int apiver))          \
  X(int, IsModuleNameBusy, (const char* name))                                                 \
  X(int, CreateCommand, (RedisModuleCtx*, const char* name, RedisModuleCmdFunc,                \
                         const char* flags, int firstkey, int lastkey, int keystep))           \
  X(RedisModuleType*, CreateDataType, (RedisModuleCtx*, const char* name, int encver,          \
                                       RedisModuleTypeMethods* methods))                       \
  X(void, SetModuleOptions, (RedisModuleCtx*, int options))                                    \
  X(RedisModuleKey*, OpenKey, (RedisModuleCtx*, RedisModuleString* name, int mode))            \
  X(void, CloseKey, (RedisModuleKey*))                                                         \
  X(int, KeyType, (RedisModuleKey*))                                                           \
  X(RedisModuleType*, ModuleTypeGetType, (RedisModuleKey*))                                    \
  X(void*, ModuleTypeGetValue, (RedisModuleKey*))                                              \
  X(int, ModuleTypeSetValue, (RedisModuleKey*, RedisModuleType*, void* value))                 \
  X(int, SetExpire, (RedisModuleKey*, long long milliseconds))                                 \
  X(const char*, StringPtrLen, (const RedisModuleString*, size_t* len))                        \
  X(int, StringToLongLong, (const RedisModuleString*, long long* out))                         \
  X(int, StringToDouble, (const RedisModuleString*, double* out))                              \
  X(int, WrongArity, (RedisModuleCtx*))                                                        \
  X(int, ReplyWithError, (RedisModuleCtx*, const char* message))                               \
  X(int, ReplyWithSimpleString, (RedisModuleCtx*, const char* message))                        \
  X(int, ReplyWithArray, (RedisModuleCtx*, long len))                                          \
  X(int, ReplyWithString, (RedisModuleCtx*, RedisModuleString*))                               \
  X(int, ReplyWithStringBuffer, (RedisModuleCtx*, const char* buf, size_t len))                \
  X(int, ReplyWithLongLong, (RedisModuleCtx*, long long value))                                \
  X(int, ReplyWithDouble, (RedisModuleCtx*, double value))                                     \
  X(int, Replicate, (RedisModuleCtx*, const char* command, const char* fmt, ...))              \
  X(int, ReplicateVerbatim, (RedisModuleCtx*))                                                 \
  X(long long, Milliseconds, (void))                                                           \
  X(void, SaveStringBuffer, (RedisModuleIO*, const char* buf, size_t len))                     \
  X(char*, LoadStringBuffer, (RedisModuleIO*, size_t* len))                                    \
  X(int, IsIOError, (RedisModuleIO*))                                                          \
  X(void, EmitAOF, (RedisModuleIO*, const char* command, const char* fmt, ...))                \
  X(void, Log, (RedisModuleCtx*, const char* level, const char* fmt, ...))                      \
  X(void, LogIOError, (RedisModuleIO*, const char* level, const char* fmt, ...))               \
  X(void, DigestAddStringBuffer, (RedisModuleDigest*, const char* buf, size_t len))            \
  X(void, DigestEndSequence, (RedisModuleDigest*))                                             \
  X(void*, Alloc, (size_t bytes))                                                              \
  X(void, Free, (void* ptr))                                                                   \
  X(size_t, MallocSize, (void* ptr))                                                           \
  X(int, RegisterInfoFunc, (RedisModuleCtx*, RedisModuleInfoFunc))                            \
  X(int, InfoAddSection, (RedisModuleInfoCtx*, const char* name))                              \
  X(int, InfoAddFieldULongLong, (RedisModuleInfoCtx*, const char* field,                       \
                                 unsigned long long value))

#define SEEN_REDIS_DECLARE(ret, name, params) extern ret(*RedisModule_##name) params;
SEEN_REDIS_API(SEEN_REDIS_DECLARE)
#undef SEEN_REDIS_DECLARE

}  // extern "C"

// Fetches every pointer above and registers the module's name; REDISMODULE_ERR if the
// server lacks one of them or the name is taken.
int RedisApiInit(RedisModuleCtx* ctx, const char* name, int version);
