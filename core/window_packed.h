// Packed windows (layout 5): a count window's items as 16-bit fingerprints, like a ring's,
// kept in S segments of segment_span items. Each segment is a set, sorted and coded
// Elias-Fano: a fingerprint's top B bits (B = ceil(log2 segment_span)) in unary, its low
// 16 - B bits as they are. That is 16 - log2(segment_span) + 2 bits an item, where a ring
// spends 16: the order within a segment, which a ring keeps, is what the code gives up, so
// the window forgets a segment at a time, as a sliced one does. The last 500 items at 1% take
// 846 bytes of segments where a ring takes 1,000.
//
// State: a u32 header (the current segment), S item counts (u8), zeros to a multiple of 4,
// S segments of PackedShape::segment_bytes each (the unary bits from bit 0, then the low bits
// of item i at bit upper_bits + i * low_bits, both LSB first), and kPackedPadding zero bytes
// that let a segment's last bits be read with one 8-byte load. An item the current segment
// holds takes no new place (a replayed mark pushes nothing out); when the current segment
// holds segment_span items, the oldest is emptied and becomes current. So the last `span` =
// segment_span * (S - 1) items are always held, and at most S * segment_span: an item never
// added is found with probability 1 - (1 - 2^-16)^held.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/window.h"

namespace seen {

constexpr uint64_t kPackedHeaderBytes = 4;
constexpr uint64_t kPackedPadding = 8;
constexpr uint32_t kPackedMaxSegmentSpan = 255;  // a segment's count is a byte

struct PackedShape {
  uint32_t bucket_bits;    // B
  uint32_t low_bits;       // 16 - B
  uint64_t upper_bits;     // segment_span + 2^B: every item's unary code, at most
  uint64_t segment_bytes;  // upper_bits + segment_span * low_bits, in whole bytes
};
PackedShape PackedShapeOf(uint32_t segment_span);
// Where segment 0 starts: after the header and the counts.
uint64_t PackedSegmentsAt(uint32_t segments);
uint64_t PackedStateBytes(uint32_t segments, uint32_t segment_span);

// Whether every segment's code is well formed: its count at most segment_span, as many unary
// ones as items, every item's bucket in range and the fingerprints strictly rising (an add
// codes the current segment again from what it decodes, so a bad code could lose items).
bool PackedStateValid(const WindowParams& p, const uint8_t* state);
WindowSaturation PackedSaturation(const WindowParams& p, const uint8_t* state);
void PackedAdd(const WindowParams& p, uint8_t* state, const uint64_t* hashes, size_t n);
void PackedContains(const WindowParams& p, const uint8_t* state, const uint64_t* hashes, size_t n,
                    uint8_t* out);

}  // namespace seen
