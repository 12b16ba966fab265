// Synthetic e-mail addresses for the spam-filter scenario: address i is a deterministic,
// realistic-looking string ("anna.keller4821@gmail.com"), and distinct i give distinct
// addresses (i < 1.6e11: every part of i is spelled out, and no last name is a prefix of
// another), so "not in the set" is exact without storing the set.
#pragma once

#include <cstdint>

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

inline char* Put(char* out, const char* text) {
  while (*text) *out++ = *text++;
  return out;
}

// Writes address i at out (at most kMaxAddress bytes) and returns its end. Generation is
// part of the timed build, so it avoids std::string.
inline char* WriteAddress(uint64_t i, char* out) {
  // i = combo * 10000 + suffix; combo is scrambled by an odd multiplier modulo 2^24 (a
  // bijection), so neighbouring i spread over names and domains.
  const uint64_t suffix = i % 10000;
  const uint64_t combo = ((i / 10000) * 0x9E3779B1ULL) & 0xFFFFFF;
  const char* first = kFirst[combo & 31];
  const char* last = kLast[(combo >> 5) & 31];
  const char* domain = kDomains[(combo >> 10) & 31];
  static const char kSeparators[3] = {'.', '_', '-'};
  const uint64_t pattern = (combo >> 15) & 3;
  if (pattern < 3) {
    out = Put(out, first);
    *out++ = kSeparators[pattern];
    out = Put(out, last);
  } else {
    out = Put(Put(out, last), first);
  }
  char digits[20];
  int count = 0;
  for (uint64_t number = (combo >> 17) * 10000 + suffix; count == 0 || number > 0; number /= 10) {
    digits[count++] = static_cast<char>('0' + number % 10);
  }
  while (count > 0) *out++ = digits[--count];
  *out++ = '@';
  return Put(out, domain);
}

}  // namespace seen::spam
