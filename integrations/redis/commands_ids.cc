// SEEN.MARK, SEEN.FILTER and SEEN.TAKE, each in the argument form and the packed form (B).
// Writes replicate with an explicit NOW, so replicas and AOF replays end up byte-identical;
// TAKE replicates as a MARK of the ids it took.
#include <strings.h>

#include <string_view>
#include <unordered_set>
#include <vector>

#include "integrations/redis/commands.h"
#include "integrations/redis/id_lists.h"
#include "integrations/redis/metrics.h"
#include "integrations/redis/options.h"
#include "integrations/redis/window_type.h"

namespace seen::redis {

namespace {

// The options before the ids: [NOW t] [TTL secs], in either order.
struct Tail {
  uint32_t now = 0;
  long long ttl_seconds = 0;  // 0: leave the key's expiry alone
  int first_id = 0;
};

bool ParseTail(RedisModuleCtx* ctx, RedisModuleString** argv, int argc, int i, bool allow_ttl,
               Tail* tail) {
  bool has_now = false;
  bool has_ttl = false;
  for (; i + 1 < argc; i += 2) {
    const char* name = RedisModule_StringPtrLen(argv[i], nullptr);
    long long value = 0;
    if (!has_now && strcasecmp(name, "NOW") == 0) {
      if (RedisModule_StringToLongLong(argv[i + 1], &value) != REDISMODULE_OK || value < 0 ||
          value > UINT32_MAX) {
        RedisModule_ReplyWithError(ctx, "ERR seen: NOW must be an integer in [0, 2^32)");
        return false;
      }
      has_now = true;
      tail->now = static_cast<uint32_t>(value);
    } else if (allow_ttl && !has_ttl && strcasecmp(name, "TTL") == 0) {
      if (RedisModule_StringToLongLong(argv[i + 1], &value) != REDISMODULE_OK || value <= 0 ||
          value > (1LL << 40)) {
        RedisModule_ReplyWithError(ctx, "ERR seen: TTL must be a positive number of seconds");
        return false;
      }
      has_ttl = true;
      tail->ttl_seconds = value;
    } else {
      break;
    }
  }
  if (!has_now) tail->now = ServerNow();
  tail->first_id = i;
  return true;
}

// A command's options and ids, from argv[first] on; replies the error when they are bad.
template <class Ids>
struct Request {
  Tail tail;
  Ids ids;
  bool Parse(RedisModuleCtx* ctx, RedisModuleString** argv, int argc, int first, bool allow_ttl) {
    if (!ParseTail(ctx, argv, argc, first, allow_ttl, &tail)) return false;
    const char* error = nullptr;
    if (Ids::Parse(argv + tail.first_id, argc - tail.first_id, &ids, &error)) return true;
    RedisModule_ReplyWithError(ctx, error);
    return false;
  }
  // seen[i] = 1 if id i may be in w (none is, for a missing window). False after replying
  // an error.
  bool Seen(RedisModuleCtx* ctx, const seen_window* w, std::vector<uint8_t>* seen) const {
    seen->assign(ids.size(), 0);
    if (w == nullptr || ids.Contains(w, tail.now, seen->data()) == SEEN_OK) return true;
    ReplySeenError(ctx);
    return false;
  }
};

// SEEN.MARK key [NOW t] [TTL secs] id [id ...]; replies the number of ids recorded.
template <class Ids>
int Mark(RedisModuleCtx* ctx, RedisModuleString** argv, int argc) {
  if (argc < 3) return RedisModule_WrongArity(ctx);
  Request<Ids> req;
  if (!req.Parse(ctx, argv, argc, 2, true)) return REDISMODULE_OK;
  const Tail& tail = req.tail;
  const Ids& ids = req.ids;
  OpenKey open(ctx, argv[1], REDISMODULE_READ | REDISMODULE_WRITE);
  seen_window* w = nullptr;
  if (!KeyWindow(ctx, open.key, &w)) return REDISMODULE_OK;
  if (w == nullptr) w = CreateWindow(ctx, open.key, argv[1], nullptr, tail.now);
  if (w == nullptr) return REDISMODULE_OK;
  if (ids.Add(w, tail.now) != SEEN_OK) return ReplySeenError(ctx);
  CountMarks(ids.size());
  NoteWrite(w, tail.now);
  ids.ReplicateMark(ctx, argv[1], tail.now);
  if (tail.ttl_seconds > 0) {
    const long long ttl_ms = tail.ttl_seconds * 1000;
    RedisModule_SetExpire(open.key, ttl_ms);
    // An absolute time, so a replica or an AOF replay expires the key when the primary did.
    RedisModule_Replicate(ctx, "PEXPIREAT", "sl", argv[1], RedisModule_Milliseconds() + ttl_ms);
  }
  return RedisModule_ReplyWithLongLong(ctx, static_cast<long long>(ids.size()));
}

// SEEN.FILTER key [NOW t] id [id ...]: the ids not seen, in the order given. Never writes.
template <class Ids>
int Filter(RedisModuleCtx* ctx, RedisModuleString** argv, int argc) {
  if (argc < 3) return RedisModule_WrongArity(ctx);
  Request<Ids> req;
  if (!req.Parse(ctx, argv, argc, 2, false)) return REDISMODULE_OK;
  OpenKey open(ctx, argv[1], REDISMODULE_READ);
  seen_window* w = nullptr;
  std::vector<uint8_t> seen;
  if (!KeyWindow(ctx, open.key, &w) || !req.Seen(ctx, w, &seen)) return REDISMODULE_OK;
  CountFilter(req.ids.size());
  req.ids.ReplyUnseen(ctx, seen.data());
  return REDISMODULE_OK;
}

// The positions of the first `want` ids not seen, each id once.
template <class Ids>
std::vector<size_t> FirstUnseen(const Ids& ids, const std::vector<uint8_t>& seen, size_t want) {
  std::vector<size_t> chosen;
  std::unordered_set<std::string_view> taken;
  for (size_t i = 0; i < ids.size() && chosen.size() < want; ++i) {
    if (seen[i] == 0 && taken.insert(ids.Key(i)).second) chosen.push_back(i);
  }
  return chosen;
}

// SEEN.TAKE key want [NOW t] id [id ...]: the first `want` unseen ids, marked at once, so
// two servers paging one user never get the same item. An id given twice is taken once.
template <class Ids>
int Take(RedisModuleCtx* ctx, RedisModuleString** argv, int argc) {
  if (argc < 4) return RedisModule_WrongArity(ctx);
  long long want = 0;
  if (RedisModule_StringToLongLong(argv[2], &want) != REDISMODULE_OK || want < 0)
    return RedisModule_ReplyWithError(ctx, "ERR seen: want must be a non-negative integer");
  Request<Ids> req;
  if (!req.Parse(ctx, argv, argc, 3, false)) return REDISMODULE_OK;
  OpenKey open(ctx, argv[1], REDISMODULE_READ | REDISMODULE_WRITE);
  seen_window* w = nullptr;
  std::vector<uint8_t> seen;
  if (!KeyWindow(ctx, open.key, &w) || !req.Seen(ctx, w, &seen)) return REDISMODULE_OK;
  const Ids picked = req.ids.Pick(FirstUnseen(req.ids, seen, static_cast<size_t>(want)));
  const uint32_t now = req.tail.now;
  if (picked.size() > 0) {
    if (w == nullptr) w = CreateWindow(ctx, open.key, argv[1], nullptr, now);
    if (w == nullptr) return REDISMODULE_OK;
    if (picked.Add(w, now) != SEEN_OK) return ReplySeenError(ctx);
    NoteWrite(w, now);
    picked.ReplicateMark(ctx, argv[1], now);
  }
  CountTake(req.ids.size());
  picked.ReplyAll(ctx);
  return REDISMODULE_OK;
}

}  // namespace

int RegisterIdCommands(RedisModuleCtx* ctx) {
  if (RedisModule_CreateCommand(ctx, "seen.mark", Mark<ArgumentIds>, "write deny-oom", 1, 1, 1) ||
      RedisModule_CreateCommand(ctx, "seen.filter", Filter<ArgumentIds>, "readonly", 1, 1, 1) ||
      RedisModule_CreateCommand(ctx, "seen.take", Take<ArgumentIds>, "write deny-oom", 1, 1, 1) ||
      RedisModule_CreateCommand(ctx, "seen.markb", Mark<PackedIds>, "write deny-oom", 1, 1, 1) ||
      RedisModule_CreateCommand(ctx, "seen.filterb", Filter<PackedIds>, "readonly", 1, 1, 1) ||
      RedisModule_CreateCommand(ctx, "seen.takeb", Take<PackedIds>, "write deny-oom", 1, 1, 1))
    return REDISMODULE_ERR;
  return REDISMODULE_OK;
}

}  // namespace seen::redis
