#include "integrations/redis/options.h"

#include <strings.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "integrations/redis/ids.h"
#include "integrations/redis/module_key.h"
#include "integrations/redis/window_memory.h"

namespace seen::redis {

seen_window_options& ModuleDefaults() {
  static seen_window_options defaults = [] {
    seen_window_options o{};
    o.size = sizeof o;
    o.mode = SEEN_WINDOW_COUNT;
    o.span = 500;
    o.fpr = 0.01;
    return o;
  }();
  return defaults;
}

seen_status NewDefaultWindow(uint32_t now, seen_window** out) {
  const seen_window_options& defaults = ModuleDefaults();
  if (defaults.mode != SEEN_WINDOW_COUNT)
    return seen_window_create_with_allocator(&defaults, now, RedisMemory(), out, nullptr);
  // The module's defaults are set once, at load, before any command runs.
  static const std::vector<uint8_t> empty = [&] {
    std::vector<uint8_t> bytes;
    seen_window* w = nullptr;
    size_t len = 0;
    if (seen_window_create(&defaults, 0, &w, nullptr) == SEEN_OK &&
        seen_window_serialize(w, nullptr, 0, &len) == SEEN_OK) {
      bytes.resize(len);
      seen_window_serialize(w, bytes.data(), len, &len);
    }
    seen_window_free(w);
    return bytes;
  }();
  if (empty.empty()) return seen_window_create_with_allocator(&defaults, now, RedisMemory(), out, nullptr);
  return DeserializeWindow(empty.data(), empty.size(), out);
}

namespace {

// A time window without MAXBYTES may grow to 48 bytes per item expected within its span, and
// at least to 1 MiB (the C API's default, which used to hold for every ITEMS). A table window
// (layout 4) at its cap gives up time once about 40% of its slots are taken, 10 bytes an item,
// and holds a span's items plus a segment's (x1.25): 48 bytes keep twice that. A growing
// window (layout 3) takes about 3 bytes an item when ITEMS is right, so it has room to spare.
constexpr uint64_t kTimeWindowBytesPerItem = 48;
constexpr uint64_t kLeastTimeWindowMaxBytes = 1 << 20;

uint64_t TimeWindowMaxBytes(uint32_t expected_items) {
  return std::min<uint64_t>(UINT32_MAX, std::max(kLeastTimeWindowMaxBytes,
                                                 kTimeWindowBytesPerItem * expected_items));
}

bool ReadU32(RedisModuleString* s, uint32_t* out) {
  long long v = 0;
  if (RedisModule_StringToLongLong(s, &v) != REDISMODULE_OK || v <= 0 || v > UINT32_MAX)
    return false;
  *out = static_cast<uint32_t>(v);
  return true;
}

}  // namespace

std::string ParseWindowOptions(RedisModuleString** argv, int argc, seen_window_options* opts) {
  if (argc % 2 != 0)
    return "options come in pairs: COUNT n | SECONDS s [ITEMS n] [MAXBYTES b] [FPR p] [SEED x]";
  for (int i = 0; i < argc; i += 2) {
    const char* name = RedisModule_StringPtrLen(argv[i], nullptr);
    RedisModuleString* value = argv[i + 1];
    if (strcasecmp(name, "COUNT") == 0 || strcasecmp(name, "SECONDS") == 0) {
      opts->mode = strcasecmp(name, "COUNT") == 0 ? SEEN_WINDOW_COUNT : SEEN_WINDOW_TIME;
      if (!ReadU32(value, &opts->span)) return std::string(name) + " must be an integer in [1, 2^32)";
    } else if (strcasecmp(name, "ITEMS") == 0) {
      if (!ReadU32(value, &opts->expected_items)) return "ITEMS must be an integer in [1, 2^32)";
    } else if (strcasecmp(name, "MAXBYTES") == 0) {
      long long bytes = 0;
      if (RedisModule_StringToLongLong(value, &bytes) != REDISMODULE_OK || bytes <= 0)
        return "MAXBYTES must be a positive integer";
      opts->max_bytes = static_cast<uint64_t>(bytes);
    } else if (strcasecmp(name, "FPR") == 0) {
      if (RedisModule_StringToDouble(value, &opts->fpr) != REDISMODULE_OK || !(opts->fpr > 0) ||
          !(opts->fpr < 1))
        return "FPR must be a number in (0, 1)";
    } else if (strcasecmp(name, "SEED") == 0) {
      size_t len = 0;
      const char* text = RedisModule_StringPtrLen(value, &len);
      if (!ParseDecimalU64(text, len, &opts->seed)) return "SEED must be a decimal u64";
    } else {
      return std::string("unknown option '") + name + "'";
    }
  }
  if (opts->mode == SEEN_WINDOW_TIME && opts->expected_items == 0)
    return "SECONDS needs ITEMS, the most items expected within the span";
  // For a count window the C API reads max_bytes as a size that overrides FPR: not this.
  if (opts->mode == SEEN_WINDOW_COUNT && opts->max_bytes != 0)
    return "MAXBYTES bounds a time window (SECONDS); a COUNT window's size follows from COUNT and FPR";
  if (opts->mode == SEEN_WINDOW_TIME && opts->max_bytes == 0)
    opts->max_bytes = TimeWindowMaxBytes(opts->expected_items);
  return "";
}

}  // namespace seen::redis
