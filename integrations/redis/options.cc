#include "integrations/redis/options.h"

#include <strings.h>

#include <cstdint>
#include <vector>

#include "integrations/redis/ids.h"
#include "integrations/redis/module_key.h"

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
  if (defaults.mode != SEEN_WINDOW_COUNT) return seen_window_create(&defaults, now, out, nullptr);
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
  if (empty.empty()) return seen_window_create(&defaults, now, out, nullptr);
  return DeserializeWindow(empty.data(), empty.size(), out);
}

namespace {

bool ReadU32(RedisModuleString* s, uint32_t* out) {
  long long v = 0;
  if (RedisModule_StringToLongLong(s, &v) != REDISMODULE_OK || v <= 0 || v > UINT32_MAX)
    return false;
  *out = static_cast<uint32_t>(v);
  return true;
}

}  // namespace

std::string ParseWindowOptions(RedisModuleString** argv, int argc, seen_window_options* opts) {
  if (argc % 2 != 0) return "options come in pairs: COUNT n | SECONDS s [ITEMS n] [FPR p] [SEED x]";
  for (int i = 0; i < argc; i += 2) {
    const char* name = RedisModule_StringPtrLen(argv[i], nullptr);
    RedisModuleString* value = argv[i + 1];
    if (strcasecmp(name, "COUNT") == 0 || strcasecmp(name, "SECONDS") == 0) {
      opts->mode = strcasecmp(name, "COUNT") == 0 ? SEEN_WINDOW_COUNT : SEEN_WINDOW_TIME;
      if (!ReadU32(value, &opts->span)) return std::string(name) + " must be an integer in [1, 2^32)";
    } else if (strcasecmp(name, "ITEMS") == 0) {
      if (!ReadU32(value, &opts->expected_items)) return "ITEMS must be an integer in [1, 2^32)";
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
  return "";
}

}  // namespace seen::redis
