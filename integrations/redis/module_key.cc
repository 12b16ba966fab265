#include "integrations/redis/module_key.h"

#include <strings.h>

#include <fstream>
#include <iterator>

#include "integrations/redis/window_memory.h"

namespace seen::redis {

namespace {

std::vector<uint8_t>& Key() {
  static std::vector<uint8_t> key;
  return key;
}

// More than any key may be (64 bytes): a wrong file is refused without reading it whole.
constexpr std::streamsize kMostKeyFileBytes = 4096;

}  // namespace

std::string TakeKeyFile(std::vector<RedisModuleString*>& args) {
  for (size_t i = 0; i + 1 < args.size(); i += 2) {
    if (strcasecmp(RedisModule_StringPtrLen(args[i], nullptr), "KEYFILE") != 0) continue;
    const std::string path = RedisModule_StringPtrLen(args[i + 1], nullptr);
    args.erase(args.begin() + static_cast<std::ptrdiff_t>(i), args.begin() + static_cast<std::ptrdiff_t>(i + 2));
    std::ifstream file(path, std::ios::binary);
    if (!file) return "KEYFILE " + path + " cannot be read";
    std::vector<char> bytes(kMostKeyFileBytes + 1);
    file.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    const auto size = static_cast<size_t>(file.gcount());
    if (size < 16 || size > 64) {
      return "KEYFILE " + path + " holds " + (size > 64 ? "more than 64" : std::to_string(size)) +
             " bytes; a key is 16 to 64 secret bytes";
    }
    Key().assign(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(size));
    return "";
  }
  return "";
}

const std::vector<uint8_t>& ModuleKey() { return Key(); }

seen_status DeserializeWindow(const void* bytes, size_t len, seen_window** out) {
  return seen_window_deserialize_with_allocator(static_cast<const uint8_t*>(bytes), len,
                                                Key().empty() ? nullptr : Key().data(), Key().size(),
                                                RedisMemory(), out, nullptr);
}

}  // namespace seen::redis
