// Synthetic e-mail addresses for the spam-filter scenario: address i is a deterministic,
// realistic-looking string ("anna.keller4821@gmail.com"), and distinct i give distinct
// addresses (i < 1.6e11: every part of i is spelled out, and no last name is a prefix of
// another), so "not in the set" is exact without storing the set.
#pragma once

#include <cstdint>
#include <string>

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

// Appends address i to out.
inline void AppendAddress(uint64_t i, std::string& out) {
  // i = combo * 10000 + suffix; combo is scrambled by an odd multiplier modulo 2^24 (a
  // bijection), so neighbouring i spread over names and domains.
  const uint64_t suffix = i % 10000;
  const uint64_t combo = ((i / 10000) * 0x9E3779B1ULL) & 0xFFFFFF;
  const char* first = kFirst[combo & 31];
  const char* last = kLast[(combo >> 5) & 31];
  const char* domain = kDomains[(combo >> 10) & 31];
  switch ((combo >> 15) & 3) {
    case 0: out += first; out += '.'; out += last; break;
    case 1: out += first; out += '_'; out += last; break;
    case 2: out += first; out += '-'; out += last; break;
    default: out += last; out += first; break;
  }
  out += std::to_string((combo >> 17) * 10000 + suffix);
  out += '@';
  out += domain;
}

}  // namespace seen::spam
