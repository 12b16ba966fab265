#include "core/window_packed.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/fingerprint_meet.h"
#include "core/format.h"

namespace seen {

namespace {

constexpr uint32_t kFingerprintBits = 16;
// Up to this many items, each is looked up in every segment's code; more, and the batch meets
// the segments decoded once (core/fingerprint_meet.h).
constexpr size_t kLookupLimit = 4;

uint16_t Fingerprint(uint64_t hash) { return static_cast<uint16_t>(hash >> 48); }

// Where value goes among the sorted first[0..n): a count of the smaller ones, which the
// compiler does in vectors, 8 or more at a time. std::lower_bound's steps each wait on the
// last, and a coin toss decides each (a fingerprint among random ones): its branch missed
// half the time, and even without the branch the steps' chain cost 60% of an add.
uint16_t* LowerBound(uint16_t* first, uint32_t n, uint16_t value) {
  uint32_t below = 0;
  for (uint32_t j = 0; j < n; ++j) below += first[j] < value;
  return first + below;
}

// Ors bits into a segment in rising order, a 64-bit word at a time: one read-modify-write a
// word, where a 4-byte one per item made each wait on the last (its bytes overlapped the
// previous item's store, which the CPU cannot forward to a load). A word's store may reach 7
// bytes past the segment's last bit, into the next segment or the state's padding, and ors
// zeros there.
class RisingBits {
 public:
  explicit RisingBits(uint8_t* bytes) : bytes_(bytes) {}
  // Ors `value`, `width` (at most 32) bits wide, in at bit `at`, at or past every earlier one.
  void Or(uint64_t at, uint64_t value, uint32_t width) {
    const uint64_t word = at / 64, shift = at % 64;
    if (word != word_) Flush(), word_ = word;
    bits_ |= value << shift;
    if (shift + width > 64) Flush(), word_ = word + 1, bits_ = value >> (64 - shift);
  }
  void Flush() {
    if (bits_ == 0) return;
    uint8_t* at = bytes_ + 8 * word_;
    StoreLe64(at, LoadLe64(at) | bits_);
    bits_ = 0;
  }

 private:
  uint8_t* bytes_;
  uint64_t word_ = 0;
  uint64_t bits_ = 0;
};

// One segment's code, read or written in place.
struct Segment {
  const PackedShape& shape;
  uint8_t* bytes;

  // The unary bits of word w (64 a word from bit 0), those past upper_bits cleared.
  uint64_t UpperWord(uint64_t w) const {
    const uint64_t word = LoadLe64(bytes + 8 * w);
    const uint64_t valid = shape.upper_bits - 64 * w;
    return valid >= 64 ? word : word & ((uint64_t{1} << valid) - 1);
  }
  uint32_t Low(uint32_t i) const {
    const uint64_t at = shape.upper_bits + uint64_t{i} * shape.low_bits;
    return (LoadLe32(bytes + at / 8) >> (at % 8)) & ((1u << shape.low_bits) - 1);
  }
  uint64_t Ones() const {
    uint64_t ones = 0;
    for (uint64_t w = 0; 64 * w < shape.upper_bits; ++w) ones += static_cast<uint64_t>(__builtin_popcountll(UpperWord(w)));
    return ones;
  }
  // Calls visit(i, fingerprint) for the items in order, up to count (fewer if the code has
  // fewer ones): the bucket of item i is its one's position less i.
  template <class Visit>
  void Each(uint32_t count, Visit&& visit) const {
    uint32_t i = 0;
    for (uint64_t w = 0; 64 * w < shape.upper_bits && i < count; ++w) {
      for (uint64_t word = UpperWord(w); word != 0 && i < count; word &= word - 1, ++i) {
        const uint64_t bucket = 64 * w + static_cast<uint64_t>(__builtin_ctzll(word)) - i;
        visit(i, static_cast<uint32_t>((bucket << shape.low_bits) | Low(i)));
      }
    }
  }
  // Whether fp is among the first count items: its bucket's items start after the bucket-th
  // zero of the unary bits, and run while the bits are ones.
  bool Has(uint32_t count, uint16_t fp) const {
    const uint32_t bucket = fp >> shape.low_bits;
    const uint32_t low = fp & ((1u << shape.low_bits) - 1);
    uint64_t at = 0;  // the first bit of the bucket's run
    uint32_t zeros = 0;
    for (uint64_t w = 0; zeros < bucket; ++w) {
      if (64 * w >= shape.upper_bits) return false;
      const uint64_t valid = std::min<uint64_t>(64, shape.upper_bits - 64 * w);
      uint64_t zero_bits = ~UpperWord(w) & (valid == 64 ? ~uint64_t{0} : (uint64_t{1} << valid) - 1);
      const auto here = static_cast<uint32_t>(__builtin_popcountll(zero_bits));
      if (zeros + here < bucket) {
        zeros += here;
        continue;
      }
      for (uint32_t skip = bucket - zeros - 1; skip > 0; --skip) zero_bits &= zero_bits - 1;
      at = 64 * w + static_cast<uint64_t>(__builtin_ctzll(zero_bits)) + 1;
      zeros = bucket;
    }
    for (uint64_t i = at - bucket; i < count && at < shape.upper_bits; ++i, ++at) {
      if (((LoadLe64(bytes + 8 * (at / 64)) >> (at % 64)) & 1) == 0) return false;
      const uint32_t item_low = Low(static_cast<uint32_t>(i));
      if (item_low >= low) return item_low == low;
    }
    return false;
  }
  // Codes the strictly rising fingerprints fps[0..count) over whatever the segment held.
  void Code(const uint16_t* fps, uint32_t count) {
    std::memset(bytes, 0, shape.segment_bytes);
    RisingBits unary(bytes);
    for (uint32_t i = 0; i < count; ++i) unary.Or((uint64_t{fps[i]} >> shape.low_bits) + i, 1, 1);
    unary.Flush();
    RisingBits low(bytes);
    const uint32_t low_mask = (1u << shape.low_bits) - 1;
    for (uint32_t i = 0; i < count; ++i) {
      low.Or(shape.upper_bits + uint64_t{i} * shape.low_bits, fps[i] & low_mask, shape.low_bits);
    }
    low.Flush();
  }
};

struct PackedState {
  const WindowParams& p;
  const PackedShape shape;
  uint8_t* state;

  PackedState(const WindowParams& params, const uint8_t* bytes)
      : p(params), shape(PackedShapeOf(params.segment_span)), state(const_cast<uint8_t*>(bytes)) {}
  uint32_t current() const { return LoadLe32(state); }
  uint8_t& count(uint32_t s) const { return state[kPackedHeaderBytes + s]; }
  Segment segment(uint32_t s) const {
    return {shape, state + PackedSegmentsAt(p.segments) + uint64_t{s} * shape.segment_bytes};
  }
  uint64_t held() const {
    uint64_t n = 0;
    for (uint32_t s = 0; s < p.segments; ++s) n += count(s);
    return n;
  }
};

}  // namespace

PackedShape PackedShapeOf(uint32_t segment_span) {
  PackedShape shape{};
  while ((1u << shape.bucket_bits) < segment_span) ++shape.bucket_bits;
  shape.low_bits = kFingerprintBits - shape.bucket_bits;
  shape.upper_bits = segment_span + (uint64_t{1} << shape.bucket_bits);
  shape.segment_bytes = (shape.upper_bits + uint64_t{segment_span} * shape.low_bits + 7) / 8;
  return shape;
}

uint64_t PackedSegmentsAt(uint32_t segments) { return kPackedHeaderBytes + (segments + 3) / 4 * 4; }

uint64_t PackedStateBytes(uint32_t segments, uint32_t segment_span) {
  return PackedSegmentsAt(segments) + segments * PackedShapeOf(segment_span).segment_bytes + kPackedPadding;
}

bool PackedStateValid(const WindowParams& p, const uint8_t* state) {
  const PackedState w(p, state);
  if (w.current() >= p.segments) return false;
  for (uint32_t s = 0; s < p.segments; ++s) {
    const uint32_t count = w.count(s);
    if (count > p.segment_span || w.segment(s).Ones() != count) return false;
    uint32_t items = 0;
    int64_t last = -1;
    bool rising = true;
    w.segment(s).Each(count, [&](uint32_t, uint32_t fp) {
      rising = rising && fp < (1u << kFingerprintBits) && static_cast<int64_t>(fp) > last;
      last = fp;
      ++items;
    });
    if (items != count || !rising) return false;
  }
  return true;
}

WindowSaturation PackedSaturation(const WindowParams& p, const uint8_t* state) {
  const auto held = static_cast<double>(PackedState(p, state).held());
  return {held / (static_cast<double>(p.segments) * p.segment_span),
          1 - std::pow(1 - std::ldexp(1.0, -static_cast<int>(kFingerprintBits)), held)};
}

void PackedAdd(const WindowParams& p, uint8_t* state, const uint64_t* hashes, size_t n) {
  PackedState w(p, state);
  // The current segment decoded, on the stack: an add allocates nothing.
  uint16_t current[kPackedMaxSegmentSpan];
  uint32_t held = w.count(w.current());
  w.segment(w.current()).Each(held, [&](uint32_t i, uint32_t fp) { current[i] = static_cast<uint16_t>(fp); });
  for (size_t i = 0; i < n; ++i) {
    const uint16_t fp = Fingerprint(hashes[i]);
    uint16_t* at = LowerBound(current, held, fp);
    if (at != current + held && *at == fp) continue;
    if (held == p.segment_span) {
      w.segment(w.current()).Code(current, held);
      w.count(w.current()) = static_cast<uint8_t>(held);
      StoreLe32(state, w.current() + 1 == p.segments ? 0 : w.current() + 1);
      held = 0;
      at = current;
    }
    std::memmove(at + 1, at, static_cast<size_t>(current + held - at) * sizeof(uint16_t));
    *at = fp;
    ++held;
  }
  w.segment(w.current()).Code(current, held);
  w.count(w.current()) = static_cast<uint8_t>(held);
}

void PackedContains(const WindowParams& p, const uint8_t* state, const uint64_t* hashes, size_t n,
                    uint8_t* out) {
  const PackedState w(p, state);
  if (n <= kLookupLimit) {
    for (size_t i = 0; i < n; ++i) {
      out[i] = 0;
      for (uint32_t s = 0; s < p.segments && out[i] == 0; ++s) {
        out[i] = w.count(s) != 0 && w.segment(s).Has(w.count(s), Fingerprint(hashes[i]));
      }
    }
    return;
  }
  // The segments decoded into this thread's set (core/fingerprint_meet.h), always: decoding
  // is most of the work, and meeting from the batch's side adds a test per decoded item (100
  // candidates against 500 items: 15.5 ns a candidate against 12.0, bench_window_query).
  FingerprintSet& held = ThreadMeetScratch().held;
  for (uint32_t s = 0; s < p.segments; ++s) {
    w.segment(s).Each(w.count(s), [&](uint32_t, uint32_t fp) { held.Insert(static_cast<uint16_t>(fp)); });
  }
  for (size_t i = 0; i < n; ++i) out[i] = held.Has(Fingerprint(hashes[i]));
  // Cleared whole, however few were inserted: erasing word by word decodes the segments
  // again, and queries that did took 1.5x as long (200 items, 5 to 50 candidates).
  held.EraseAll();
}

}  // namespace seen
