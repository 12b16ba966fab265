// Helpers shared by the C++ tests: deterministic key streams and scratch files.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/splitmix.h"

// SEEN_ASAN: built with AddressSanitizer, whose shadow memory and allocator quarantine make
// address-space and resident-memory bounds meaningless.
#if defined(__SANITIZE_ADDRESS__)
#define SEEN_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SEEN_ASAN 1
#endif
#endif

namespace seen::test {

// The shared key mixer (core/splitmix.h) under the tests' short name. It is a bijection, so
// Key(i) for distinct i are distinct: stream 0 (even inputs) holds the keys that go in,
// stream 1 (odd inputs) keys that certainly never did.
inline constexpr auto& Mix = SplitMix64;

inline std::vector<uint64_t> Keys(uint64_t n, uint64_t stream) {
  std::vector<uint64_t> keys(n);
  for (uint64_t i = 0; i < n; ++i) keys[i] = Mix(2 * i + stream);
  return keys;
}

// Little-endian fields of a serialized file, read the way docs/FORMAT.md describes them.
template <class T>
T LoadLe(const std::vector<uint8_t>& bytes, size_t offset) {
  T value = 0;
  for (size_t i = 0; i < sizeof(T); ++i) value |= static_cast<T>(bytes.at(offset + i)) << (8 * i);
  return value;
}
inline uint16_t LoadU16(const std::vector<uint8_t>& b, size_t at) { return LoadLe<uint16_t>(b, at); }
inline uint32_t LoadU32(const std::vector<uint8_t>& b, size_t at) { return LoadLe<uint32_t>(b, at); }
inline uint64_t LoadU64(const std::vector<uint8_t>& b, size_t at) { return LoadLe<uint64_t>(b, at); }

// A fresh directory under $TMPDIR, removed with its files when the object dies.
class ScratchDir {
 public:
  ScratchDir() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp ? tmp : "/tmp") + "/seen-test-XXXXXX";
    path_ = mkdtemp(pattern.data());
  }
  ~ScratchDir() { std::system(("rm -rf '" + path_ + "'").c_str()); }
  std::string File(const std::string& name) const { return path_ + "/" + name; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace seen::test
