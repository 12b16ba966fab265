// Synthetic e-mail addresses for the spam-filter scenario: address i is a deterministic,
// realistic-looking string ("anna.keller4821@gmail.com"), and distinct i give distinct
// addresses (i < 1.6e11: every part of i is spelled out, and no last name is a prefix of
// another), so "not in the set" is exact without storing the set.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace seen::spam {

inline const char* const kFirst[32] = {
    "anna", "ben", "carla", "david", "eva", "felix", "greta", "hugo", "ines", "jonas", "kim",
    "lena", "marco", "nina", "oscar", "paula", "quinn", "rosa", "sven", "tina", "uwe", "vera",
    "wei", "xenia", "yusuf", "zoe", "li", "mei", "raj", "sofia", "tom", "ada"};
inline const char* const kLast[32] = {
    "keller", "smith", "garcia", "mueller", "rossi", "dubois", "novak", "tanaka", "wang",
    "kumar", "silva", "kowalski", "jensen", "murphy", "fischer", "lopez", "chen", "ivanov",
    "berg", "costa", "nagy", "sato", "kim", "ali", "haas", "weber", "moreau", "park", "jones",
    "nguyen", "olsen", "reyes"};
inline const char* const kDomains[32] = {
    "gmail.com", "yahoo.com", "outlook.com", "hotmail.com", "gmx.de", "web.de", "qq.com",
    "163.com", "icloud.com", "mail.ru", "yandex.ru", "proton.me", "aol.com", "live.com",
    "orange.fr", "libero.it", "t-online.de", "naver.com", "uol.com.br", "rediffmail.com",
    "example.org", "corp.example.com", "uni-heidelberg.de", "mit.edu", "ox.ac.uk", "sina.com",
    "zoho.com", "fastmail.com", "seznam.cz", "wp.pl", "bigpond.com", "shaw.ca"};

// The longest address: 7 + 1 + 8 letters, 10 digits, '@', 17 of domain.
constexpr size_t kMaxAddress = 48;
// WriteAddress copies its parts in fixed-size pieces, so it may write up to this many bytes
// past the address's end: a buffer needs them beyond its last address.
constexpr size_t kWriteSlack = 24;

// Every name part (first and last name in one of four patterns) and every domain, padded to a
// fixed size, built once: an address is then two fixed-size copies and its digits, two at a time. Writing
// byte by byte, generation took as long as the filter's own work in a timed build (23 ns of
// 26 bytes an address).
class AddressParts {
 public:
  static const AddressParts& Get() {
    static const AddressParts parts;
    return parts;
  }
  struct Name {
    char text[16];
    uint32_t length;
  };
  struct Domain {
    char text[kWriteSlack];
    uint32_t length;
  };
  // combo's low 10 bits pick the first and last name, bits 15-16 the pattern.
  const Name& name(uint64_t combo) const { return names_[(combo & 0x3FF) | ((combo >> 15) & 3) << 10]; }
  const Domain& domain(uint64_t combo) const { return domains_[(combo >> 10) & 31]; }
  // The two digits of 0..99.
  const char* pair(uint64_t n) const { return pairs_ + 2 * n; }

 private:
  template <size_t kSize>
  static uint32_t Append(char (&text)[kSize], uint32_t at, const char* part) {
    while (*part) text[at++] = *part++;
    return at;
  }
  AddressParts() {
    static const char kSeparators[3] = {'.', '_', '-'};
    for (uint32_t slot = 0; slot < 4096; ++slot) {
      Name& name = names_[slot];
      const char* first = kFirst[slot & 31];
      const char* last = kLast[(slot >> 5) & 31];
      const uint32_t pattern = slot >> 10;
      if (pattern < 3) {
        name.length = Append(name.text, Append(name.text, 0, first) + 1, last);
        name.text[std::strlen(first)] = kSeparators[pattern];
      } else {
        name.length = Append(name.text, Append(name.text, 0, last), first);
      }
    }
    for (uint32_t d = 0; d < 32; ++d) domains_[d].length = Append(domains_[d].text, 0, kDomains[d]);
    for (uint32_t n = 0; n < 100; ++n) {
      pairs_[2 * n] = static_cast<char>('0' + n / 10);
      pairs_[2 * n + 1] = static_cast<char>('0' + n % 10);
    }
  }
  Name names_[4096] = {};
  Domain domains_[32] = {};
  char pairs_[200] = {};
};

// Writes address i at out (at most kMaxAddress bytes, and up to kWriteSlack past them) and
// returns its end. Generation is part of the timed build, so it copies fixed-size parts.
inline char* WriteAddress(uint64_t i, char* out) {
  // i = combo * 10000 + suffix; combo is scrambled by an odd multiplier modulo 2^24 (a
  // bijection), so neighbouring i spread over names and domains.
  const uint64_t suffix = i % 10000;
  const uint64_t combo = ((i / 10000) * 0x9E3779B1ULL) & 0xFFFFFF;
  const AddressParts& parts = AddressParts::Get();
  const AddressParts::Name& name = parts.name(combo);
  std::memcpy(out, name.text, sizeof name.text);
  out += name.length;
  // The number (below 1,280,000), two digits at a time from its end.
  uint64_t number = (combo >> 17) * 10000 + suffix;
  const int digits = 1 + (number >= 10) + (number >= 100) + (number >= 1000) + (number >= 10000) +
                     (number >= 100000) + (number >= 1000000);
  char* at = out + digits;
  out = at;
  for (; number >= 100; number /= 100) {
    at -= 2;
    std::memcpy(at, parts.pair(number % 100), 2);
  }
  if (number >= 10) {
    std::memcpy(at - 2, parts.pair(number), 2);
  } else {
    at[-1] = static_cast<char>('0' + number);
  }
  *out++ = '@';
  const AddressParts::Domain& domain = parts.domain(combo);
  std::memcpy(out, domain.text, sizeof domain.text);
  return out + domain.length;
}

}  // namespace seen::spam
