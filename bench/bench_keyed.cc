// bench_keyed: the cost of keyed mode (docs/SECURITY.md), and the choice of its PRF.
//  1. Hashing 8-byte ids, ns per id: seen's XXH3 batch (unkeyed), seen's SipHash-1-3 batch,
//     and per id the keyed functions Debian packages: libhighwayhash's SipHash13C and
//     HighwayHash64, and libsodium's crypto_shorthash (SipHash-2-4). seen's SipHash-1-3 is
//     also checked against libhighwayhash's on every id.
//  2. Batched contains at N keys (1% fpr, half of the probes present), unkeyed against keyed
//     filters built from the same keys, and the ratio. Medians of several runs.
//   bench_keyed [--keys N]...      one JSON line per measurement
#include <highwayhash/c_bindings.h>
#include <sodium.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "core/bloom.h"
#include "core/hash.h"
#include "core/splitmix.h"

namespace {

constexpr int kReps = 7;
const seen::SecretKey kKey{0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL};

// Median ns per item of `reps` runs of body over n items.
double NsPerItem(size_t n, int reps, const std::function<void()>& body) {
  std::vector<double> ns;
  for (int r = 0; r < reps; ++r) {
    const auto start = std::chrono::steady_clock::now();
    body();
    ns.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() / n);
  }
  std::sort(ns.begin(), ns.end());
  return ns[ns.size() / 2];
}

void HashingCosts() {
  const size_t n = 1 << 20;
  std::vector<uint64_t> ids(n), out(n);
  for (size_t i = 0; i < n; ++i) ids[i] = seen::SplitMix64(i);
  const seen::Hashing keyed(0, kKey);
  const uint64_t hh_key[4] = {kKey.k0, kKey.k1, 3, 4};
  const uint64_t sip_key[2] = {kKey.k0, kKey.k1};
  unsigned char sodium_key[crypto_shorthash_KEYBYTES];
  std::memcpy(sodium_key, sip_key, sizeof sodium_key);
  size_t disagree = 0;
  for (size_t i = 0; i < n; i += 97) {
    disagree += seen::HashU64(ids[i], keyed) != SipHash13C(sip_key, reinterpret_cast<const char*>(&ids[i]), 8);
  }
  const struct {
    const char* name;
    std::function<void()> body;
  } runs[] = {
      {"seen XXH3 batch (unkeyed)", [&] { seen::HashU64Batch(ids.data(), n, 0, out.data()); }},
      {"seen SipHash-1-3 batch", [&] { seen::HashU64Batch(ids.data(), n, keyed, out.data()); }},
      {"libhighwayhash SipHash13C", [&] {
         for (size_t i = 0; i < n; ++i) out[i] = SipHash13C(sip_key, reinterpret_cast<const char*>(&ids[i]), 8);
       }},
      {"libhighwayhash HighwayHash64", [&] {
         for (size_t i = 0; i < n; ++i) out[i] = HighwayHash64(hh_key, reinterpret_cast<const char*>(&ids[i]), 8);
       }},
      {"libsodium crypto_shorthash (SipHash-2-4)", [&] {
         for (size_t i = 0; i < n; ++i) {
           crypto_shorthash(reinterpret_cast<unsigned char*>(&out[i]), reinterpret_cast<const unsigned char*>(&ids[i]), 8,
                            sodium_key);
         }
       }},
  };
  for (const auto& run : runs) {
    std::printf("{\"bench\": \"keyed_hash\", \"function\": \"%s\", \"ns_per_id\": %.3f}\n", run.name,
                NsPerItem(n, kReps, run.body));
  }
  std::printf("{\"bench\": \"keyed_hash_check\", \"ids\": %zu, \"disagree_with_libhighwayhash\": %zu}\n", n / 97 + 1,
              disagree);
}

void ContainsCosts(uint64_t keys) {
  const size_t probes = std::min<uint64_t>(keys, 10'000'000);
  std::vector<uint64_t> in(keys), probe(probes);
  for (uint64_t i = 0; i < keys; ++i) in[i] = seen::SplitMix64(i);
  for (size_t i = 0; i < probes; ++i) probe[i] = i % 2 == 0 ? in[seen::SplitMix64(i) % keys] : seen::SplitMix64(keys + i);
  std::vector<uint8_t> out(probes);
  double ns[2];
  for (int keyed = 0; keyed < 2; ++keyed) {
    seen::Bloom filter = keyed ? seen::Bloom::Create(keys, 0.01, 0, kKey) : seen::Bloom::Create(keys, 0.01, 0);
    filter.set_exclusive_adds(true);
    filter.AddU64(in.data(), in.size());
    ns[keyed] = NsPerItem(probes, keys >= 100'000'000 ? 3 : kReps,
                          [&] { filter.ContainsU64(probe.data(), probes, out.data()); });
  }
  std::printf("{\"bench\": \"keyed_contains\", \"keys\": %llu, \"unkeyed_ns\": %.3f, \"keyed_ns\": %.3f, \"ratio\": %.3f}\n",
              static_cast<unsigned long long>(keys), ns[0], ns[1], ns[1] / ns[0]);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  if (sodium_init() < 0) return 1;
  std::vector<uint64_t> sizes;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--keys") == 0) sizes.push_back(static_cast<uint64_t>(std::stod(argv[i + 1])));
  }
  if (sizes.empty()) sizes = {1'000'000, 100'000'000};
  HashingCosts();
  for (uint64_t keys : sizes) ContainsCosts(keys);
  return 0;
}
