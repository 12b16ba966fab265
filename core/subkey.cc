#include "core/subkey.h"

#include <random>
#include <string>

namespace seen {

SecretKey Subkey(const SecretKey& key, const char* purpose) {
  std::string message = purpose;
  message.push_back('\0');
  const uint64_t k0 = SipHash<2, 4>(key.k0, key.k1, message.data(), message.size());
  message.back() = '\1';
  return {k0, SipHash<2, 4>(key.k0, key.k1, message.data(), message.size())};
}

SecretKey RandomKey() {
  std::random_device random;
  auto word = [&] { return uint64_t{random()} << 32 | random(); };
  const uint64_t k0 = word();
  return {k0, word()};
}

}  // namespace seen
