// Targeted pollution (docs/SECURITY.md): an attacker who knows the code and the seed crafts
// keys that all land in one block of a filter, adds them, and so makes chosen keys of that
// block read "seen". Measured against a filter with seed 0 (the default), one whose seed is a
// secret the attacker does not have, and a keyed one (SipHash-1-3 under a secret 128-bit
// key), with the same crafted keys and probes: the attacker aims as seed 0 would place them.
//   bench_pollution [--crafted N] [--probes N]     prints one JSON line per filter
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/block.h"
#include "core/bloom.h"
#include "core/hash.h"

namespace {

constexpr uint64_t kItems = 1'000'000;
constexpr double kFpr = 0.01;

// The first n ids, counting up from `from`, whose seed-0 hash picks block `target`.
std::vector<uint64_t> AimedAt(uint64_t target, uint64_t blocks, size_t n, uint64_t from) {
  std::vector<uint64_t> ids;
  for (uint64_t id = from; ids.size() < n; ++id) {
    if (seen::BlockIndex(seen::HashU64(id, 0), blocks) == target) ids.push_back(id);
  }
  return ids;
}

}  // namespace

int main(int argc, char** argv) {
  size_t crafted = 2000, probes = 10000;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--crafted") == 0) crafted = std::strtoull(argv[i + 1], nullptr, 10);
    if (std::strcmp(argv[i], "--probes") == 0) probes = std::strtoull(argv[i + 1], nullptr, 10);
  }
  std::random_device entropy;
  auto random64 = [&] { return uint64_t{entropy()} << 32 ^ entropy(); };
  const uint64_t secret = random64();
  const seen::SecretKey key{random64(), random64()};
  struct Case {
    const char* name;
    uint64_t seed;
    std::optional<seen::SecretKey> key;
  };
  for (const Case& c : {Case{"seed 0", 0, std::nullopt}, Case{"secret seed", secret, std::nullopt},
                        Case{"keyed", 0, key}}) {
    seen::Bloom filter = seen::Bloom::Create(kItems, kFpr, c.seed, c.key);
    const uint64_t blocks = filter.params().blocks;
    const uint64_t target = blocks / 3;
    // Half the filter's capacity in ordinary keys, then the crafted ones.
    std::vector<uint64_t> ordinary(kItems / 2);
    for (uint64_t i = 0; i < ordinary.size(); ++i) ordinary[i] = seen::HashU64(i, 12345);
    filter.AddU64(ordinary.data(), ordinary.size());
    const std::vector<uint64_t> attack = AimedAt(target, blocks, crafted, uint64_t{1} << 40);
    filter.AddU64(attack.data(), attack.size());
    // The victim's keys: others the attacker aimed at the block, never added.
    const std::vector<uint64_t> victims = AimedAt(target, blocks, probes, uint64_t{1} << 50);
    std::vector<uint8_t> out(victims.size());
    filter.ContainsU64(victims.data(), victims.size(), out.data());
    size_t seen_count = 0;
    for (uint8_t o : out) seen_count += o;
    std::printf("{\"filter\": \"%s\", \"crafted\": %zu, \"probes\": %zu, \"targeted_fpr\": %.5f, \"configured_fpr\": %.3f}\n",
                c.name, crafted, probes, static_cast<double>(seen_count) / victims.size(), kFpr);
  }
  return 0;
}
