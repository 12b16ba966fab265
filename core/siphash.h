// SipHash-c-d (Aumasson and Bernstein, "SipHash: a fast short-input PRF", 2012), written from
// the paper: the keyed PRF of seen's keyed mode, SipHash-1-3 as in Python's and Rust's hash
// tables, which face the same attacker (chosen keys aimed at one bucket). The batch of u64
// ids runs lane-parallel in core/kernels.cc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace seen {

struct SipState {
  uint64_t v0, v1, v2, v3;

  SipState(uint64_t k0, uint64_t k1)
      : v0(k0 ^ 0x736f6d6570736575ULL), v1(k1 ^ 0x646f72616e646f6dULL),
        v2(k0 ^ 0x6c7967656e657261ULL), v3(k1 ^ 0x7465646279746573ULL) {}

  static uint64_t Rotl(uint64_t x, int bits) { return (x << bits) | (x >> (64 - bits)); }

  void Round() {
    v0 += v1, v1 = Rotl(v1, 13), v1 ^= v0, v0 = Rotl(v0, 32);
    v2 += v3, v3 = Rotl(v3, 16), v3 ^= v2;
    v0 += v3, v3 = Rotl(v3, 21), v3 ^= v0;
    v2 += v1, v1 = Rotl(v1, 17), v1 ^= v2, v2 = Rotl(v2, 32);
  }

  template <int kRounds>
  void Absorb(uint64_t m) {
    v3 ^= m;
    for (int i = 0; i < kRounds; ++i) Round();
    v0 ^= m;
  }

  template <int kRounds>
  uint64_t Finish() {
    v2 ^= 0xff;
    for (int i = 0; i < kRounds; ++i) Round();
    return v0 ^ v1 ^ v2 ^ v3;
  }
};

// Whole 8-byte words little-endian, then a last word of the remaining bytes with the length
// (mod 256) in its top byte.
template <int kCompression, int kFinal>
uint64_t SipHash(uint64_t k0, uint64_t k1, const void* data, size_t len) {
  SipState s(k0, k1);
  const auto* bytes = static_cast<const uint8_t*>(data);
  size_t i = 0;
  for (; i + 8 <= len; i += 8) {
    uint64_t m = 0;
    for (int b = 0; b < 8; ++b) m |= uint64_t{bytes[i + b]} << (8 * b);
    s.Absorb<kCompression>(m);
  }
  uint64_t last = uint64_t{len & 0xff} << 56;
  for (size_t b = 0; i + b < len; ++b) last |= uint64_t{bytes[i + b]} << (8 * b);
  s.Absorb<kCompression>(last);
  return s.Finish<kFinal>();
}

inline uint64_t SipHash13(uint64_t k0, uint64_t k1, const void* data, size_t len) {
  return SipHash<1, 3>(k0, k1, data, len);
}

// SipHash-1-3 of an id's 8 little-endian bytes.
inline uint64_t SipHash13U64(uint64_t k0, uint64_t k1, uint64_t id) {
  SipState s(k0, k1);
  s.Absorb<1>(id);
  s.Absorb<1>(uint64_t{8} << 56);
  return s.Finish<3>();
}

}  // namespace seen
