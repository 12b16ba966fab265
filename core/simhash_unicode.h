// The character rules of the SimHash tokenizer (docs/simhash.md): UTF-8 decoding that never
// fails, width and case folding, and the class of each folded code point. Small tables on
// purpose: they cover the scripts seen's users feed it, and stay the same in every language.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace seen::text {

constexpr uint32_t kInvalid = 0xFFFFFFFF;

// Decodes the code point at p (p < end) into *cp and returns the bytes it used. A byte that
// does not start a well-formed sequence (stray continuation, overlong form, surrogate, past
// U+10FFFF, cut short) gives kInvalid and a length of 1.
inline size_t Decode(const uint8_t* p, const uint8_t* end, uint32_t* cp) {
  const uint32_t b0 = p[0];
  if (b0 < 0x80) {
    *cp = b0;
    return 1;
  }
  const size_t avail = static_cast<size_t>(end - p);
  auto cont = [&](size_t i) { return i < avail && (p[i] & 0xC0) == 0x80; };
  if (b0 >= 0xC2 && b0 <= 0xDF && cont(1)) {
    *cp = ((b0 & 0x1F) << 6) | (p[1] & 0x3F);
    return 2;
  }
  if (b0 >= 0xE0 && b0 <= 0xEF && cont(1) && cont(2)) {
    const uint32_t c = ((b0 & 0x0F) << 12) | ((p[1] & 0x3F) << 6) | (p[2] & 0x3F);
    if (c >= 0x800 && (c < 0xD800 || c > 0xDFFF)) {
      *cp = c;
      return 3;
    }
  } else if (b0 >= 0xF0 && b0 <= 0xF4 && cont(1) && cont(2) && cont(3)) {
    const uint32_t c = ((b0 & 0x07) << 18) | ((p[1] & 0x3F) << 12) | ((p[2] & 0x3F) << 6) | (p[3] & 0x3F);
    if (c >= 0x10000 && c <= 0x10FFFF) {
      *cp = c;
      return 4;
    }
  }
  *cp = kInvalid;
  return 1;
}

inline size_t Encode(uint32_t cp, uint8_t* out) {
  if (cp < 0x80) {
    out[0] = static_cast<uint8_t>(cp);
    return 1;
  }
  if (cp < 0x800) {
    out[0] = static_cast<uint8_t>(0xC0 | (cp >> 6));
    out[1] = static_cast<uint8_t>(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = static_cast<uint8_t>(0xE0 | (cp >> 12));
    out[1] = static_cast<uint8_t>(0x80 | ((cp >> 6) & 0x3F));
    out[2] = static_cast<uint8_t>(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = static_cast<uint8_t>(0xF0 | (cp >> 18));
  out[1] = static_cast<uint8_t>(0x80 | ((cp >> 12) & 0x3F));
  out[2] = static_cast<uint8_t>(0x80 | ((cp >> 6) & 0x3F));
  out[3] = static_cast<uint8_t>(0x80 | (cp & 0x3F));
  return 4;
}

// Full-width ASCII to ASCII, the ideographic space to a space, then simple case folding of
// Latin (ASCII, Latin-1, Latin Extended-A), Greek and Cyrillic capitals.
constexpr uint32_t Fold(uint32_t cp) {
  if (cp >= 0xFF01 && cp <= 0xFF5E) cp -= 0xFEE0;
  if (cp == 0x3000) return 0x20;
  if (cp < 0x80) return (cp >= 'A' && cp <= 'Z') ? cp + 32 : cp;
  if (cp >= 0xC0 && cp <= 0xDE && cp != 0xD7) return cp + 32;
  if (cp >= 0x100 && cp <= 0x17F) {
    if ((cp <= 0x137 || (cp >= 0x14A && cp <= 0x177)) && cp % 2 == 0) return cp + 1;
    if (((cp >= 0x139 && cp <= 0x148) || (cp >= 0x179 && cp <= 0x17E)) && cp % 2 == 1) return cp + 1;
    if (cp == 0x178) return 0xFF;
    return cp;
  }
  if (cp >= 0x391 && cp <= 0x3A9 && cp != 0x3A2) return cp + 32;
  if (cp >= 0x410 && cp <= 0x42F) return cp + 32;
  if (cp >= 0x400 && cp <= 0x40F) return cp + 80;
  return cp;
}

enum class Class { kSeparator, kWord, kCjk };

// The class of a folded code point: CJK characters (Han, kana, Hangul) become character
// n-grams; word characters form Latin-style words; separators (ASCII punctuation and
// controls, NUL included, punctuation and symbol blocks, emoji, invalid bytes) split words.
constexpr Class Classify(uint32_t cp) {
  if (cp < 0x80) {
    const bool alnum = (cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z');
    return alnum ? Class::kWord : Class::kSeparator;
  }
  if (cp == kInvalid || cp < 0xC0 || cp == 0xD7 || cp == 0xF7) return Class::kSeparator;
  if (cp < 0x1100) return Class::kWord;
  if (cp <= 0x11FF) return Class::kCjk;
  if (cp >= 0x2000 && cp <= 0x2BFF) return Class::kSeparator;
  if (cp >= 0x2E00 && cp <= 0x2E7F) return Class::kSeparator;
  if (cp >= 0x3000 && cp <= 0x303F) return Class::kSeparator;
  if (cp == 0x30FB) return Class::kSeparator;  // katakana middle dot
  if (cp >= 0x2E80 && cp <= 0x9FFF) return Class::kCjk;
  if (cp >= 0xA960 && cp <= 0xA97F) return Class::kCjk;
  if (cp >= 0xAC00 && cp <= 0xD7FF) return Class::kCjk;
  if (cp >= 0xE000 && cp <= 0xF8FF) return Class::kSeparator;  // private use
  if (cp >= 0xF900 && cp <= 0xFAFF) return Class::kCjk;
  if (cp >= 0xFE10 && cp <= 0xFE1F) return Class::kSeparator;
  if (cp >= 0xFE30 && cp <= 0xFE6F) return Class::kSeparator;
  if (cp >= 0xFF65 && cp <= 0xFFDC) return Class::kCjk;  // half-width kana and Hangul
  if (cp >= 0xFE70 && cp <= 0xFFFF) return Class::kSeparator;  // BOM, forms, specials
  if (cp >= 0x1F000 && cp <= 0x1FAFF) return Class::kSeparator;  // emoji and symbols
  if (cp >= 0x20000 && cp <= 0x3FFFF) return Class::kCjk;
  return Class::kWord;
}

// Per byte: its folded form if it is an ASCII word character, else 0 (an ASCII separator, as
// Fold and Classify have it, or a byte of a longer UTF-8 sequence). ASCII, nearly all of an
// English text, skips decoding and the tables above.
inline constexpr std::array<uint8_t, 256> kAsciiWordByte = [] {
  std::array<uint8_t, 256> table{};
  for (uint32_t c = 0; c < 128; ++c) {
    if (Classify(c) == Class::kWord) table[c] = static_cast<uint8_t>(Fold(c));
  }
  return table;
}();

}  // namespace seen::text
