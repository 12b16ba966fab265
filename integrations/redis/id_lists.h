// The two forms a command's ids take, behind one interface so MARK, FILTER and TAKE are
// written once for both:
//  - ArgumentIds: one argument per id (SEEN.MARK, SEEN.FILTER, SEEN.TAKE);
//  - PackedIds:   one argument of n x 8 little-endian bytes (SEEN.MARKB, FILTERB, TAKEB).
// Each parses its ids, adds them to or tests them against a window, picks a subset (TAKE),
// replies in its form and replicates a MARK of its ids with an explicit NOW.
#pragma once

#include <string_view>
#include <vector>

#include "capi/seen.h"
#include "integrations/redis/ids.h"
#include "integrations/redis/redis_api.h"

namespace seen::redis {

class ArgumentIds {
 public:
  static constexpr const char* kMark = "SEEN.MARK";
  // The ids are argv[0..argc), at least one.
  static bool Parse(RedisModuleString** argv, int argc, ArgumentIds* out, const char** error);

  size_t size() const { return args_.size(); }
  std::string_view Key(size_t i) const;
  seen_status Add(seen_window* w, uint32_t now) const;
  seen_status Contains(const seen_window* w, uint32_t now, uint8_t* out) const;
  ArgumentIds Pick(const std::vector<size_t>& chosen) const;
  // FILTER: the ids whose seen[i] is 0, as an array of the arguments given.
  void ReplyUnseen(RedisModuleCtx* ctx, const uint8_t* seen) const;
  void ReplyAll(RedisModuleCtx* ctx) const;
  void ReplicateMark(RedisModuleCtx* ctx, RedisModuleString* key, uint32_t now) const;

 private:
  std::vector<RedisModuleString*> args_;
  KeyBatch keys_;
};

class PackedIds {
 public:
  static constexpr const char* kMark = "SEEN.MARKB";
  // The ids are argv[0], exactly one argument.
  static bool Parse(RedisModuleString** argv, int argc, PackedIds* out, const char** error);

  size_t size() const { return ids_.size(); }
  std::string_view Key(size_t i) const;
  seen_status Add(seen_window* w, uint32_t now) const;
  seen_status Contains(const seen_window* w, uint32_t now, uint8_t* out) const;
  PackedIds Pick(const std::vector<size_t>& chosen) const;
  // FILTERB: a bitmap of ceil(n/8) bytes, bit i (LSB first) set where seen[i] is 0.
  void ReplyUnseen(RedisModuleCtx* ctx, const uint8_t* seen) const;
  void ReplyAll(RedisModuleCtx* ctx) const;
  void ReplicateMark(RedisModuleCtx* ctx, RedisModuleString* key, uint32_t now) const;

 private:
  std::vector<uint64_t> ids_;
};

}  // namespace seen::redis
