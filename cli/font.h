// A built-in bitmap font for the plot writer, so drawing text needs no font library: printable
// ASCII (32..126) in a 5 x 8 cell, 7 rows above the baseline and one for descenders.
#pragma once

#include <cstdint>

namespace seen::cli {

constexpr int kGlyphWidth = 5;
constexpr int kGlyphHeight = 8;
constexpr int kGlyphAscent = 7;   // rows above the baseline
constexpr int kGlyphAdvance = 6;  // one blank column between characters

// The glyph's kGlyphHeight rows, top first; bit 4 is the leftmost column. Bytes outside 32..126
// (each byte of a UTF-8 sequence, say) get the glyph of '?'.
const uint8_t* GlyphRows(char c);

}  // namespace seen::cli
