// 64 bytes of text classified at once, SIMD through Highway with dynamic dispatch: the MinHash
// tokenizer finds the ASCII words of a block from these masks, with no branch per byte (the
// end of each word mispredicted once a word in the byte-by-byte loop).
#pragma once

#include <cstdint>

namespace seen::text {

// Bit i of each mask tells of byte i.
struct AsciiMasks {
  uint64_t word;       // an ASCII word character (kAsciiWordByte is not 0)
  uint64_t non_ascii;  // 0x80 and above
};

// The masks of bytes[0 .. 64), and in folded[0 .. 64) the bytes with capitals folded, so
// that every word of the block can be hashed from there without a branch on its case.
AsciiMasks ClassifyAscii64(const uint8_t* bytes, uint8_t* folded);

}  // namespace seen::text
