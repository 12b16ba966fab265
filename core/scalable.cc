#include "core/real_text.h"
#include "core/scalable.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "core/error.h"
#include "core/sizing.h"

namespace seen {
namespace {

// Batches are checked against every sub-filter a chunk at a time, in a buffer this big.
constexpr size_t kChunk = 4096;

[[noreturn]] void Bad(const std::string& what) {
  throw Error(Code::kInvalidArgument, "scalable filter: " + what);
}

}  // namespace

ScalableOptions WithDefaultsForZeros(ScalableOptions o) {
  o.growth = OrDefault(o.growth, defaults::kScalableGrowth);
  o.tightening = OrDefault(o.tightening, defaults::kScalableTightening);
  return o;
}

void Scalable::Validate(const ScalableOptions& o) {
  if (o.initial_capacity == 0) Bad("initial capacity must be at least 1");
  if (!(o.fpr > 0.0 && o.fpr < 1.0)) Bad("fpr must be in (0, 1), got " + RealText(o.fpr));
  if (!(o.growth >= 1.0 && o.growth <= 64.0)) Bad("growth must be in [1, 64], got " + RealText(o.growth));
  if (!(o.tightening > 0.0 && o.tightening < 1.0)) {
    Bad("tightening must be in (0, 1), got " + RealText(o.tightening));
  }
}

uint64_t Scalable::CapacityOf(const ScalableOptions& o, uint32_t i) {
  const double capacity = std::ceil(static_cast<double>(o.initial_capacity) * std::pow(o.growth, i));
  if (!(capacity < 0x1p62)) {
    throw Error(Code::kTooLarge, "scalable filter: sub-filter " + std::to_string(i) +
                                     " would hold more than 2^62 keys");
  }
  return static_cast<uint64_t>(capacity);
}

double Scalable::FprOf(const ScalableOptions& o, uint32_t i) {
  return o.fpr * (1.0 - o.tightening) * std::pow(o.tightening, i);
}

uint64_t Scalable::SeedOf(const ScalableOptions& o, uint32_t i) {
  // Distinct seeds keep the sub-filters' false positives independent of each other.
  return o.seed + uint64_t{i} * 0x9E3779B97F4A7C15ULL;
}

Scalable Scalable::Create(const ScalableOptions& options) {
  Validate(options);
  Scalable filter(options, {}, Region(), false);
  filter.Grow();
  return filter;
}

Scalable::Scalable(const ScalableOptions& options, std::vector<SubFilter> subs, Region backing,
                   bool read_only)
    : options_(options), backing_(std::move(backing)), subs_(std::move(subs)), read_only_(read_only) {
  // Adds are exclusive by contract, so sub-filters may use plain stores.
  for (SubFilter& sub : subs_) sub.bloom.set_exclusive_adds(true);
}

void Scalable::RequireWritable() const {
  if (read_only_) throw Error(Code::kReadOnly, "this scalable filter was opened read-only");
}

void Scalable::Grow() {
  const auto i = static_cast<uint32_t>(subs_.size());
  if (i >= kMaxSubFilters) {
    throw Error(Code::kTooLarge, "scalable filter: all " + std::to_string(kMaxSubFilters) +
                                     " sub-filters are full; create it with a larger capacity or growth");
  }
  Bloom bloom = Bloom::Create(CapacityOf(options_, i), FprOf(options_, i), SeedOf(options_, i), options_.key);
  bloom.set_exclusive_adds(true);
  subs_.push_back({std::move(bloom), CapacityOf(options_, i), 0});
}

// For each key absent from every sub-filter: put it into the newest (which reports whether
// a key earlier in the same batch already set its bits), count it, grow when full. After a
// growth the rest of the chunk is checked again, against the filter just filled, so a batch
// ends exactly as the same keys put one by one.
template <class Present, class Put>
void Scalable::AddEach(size_t n, const Present& present, const Put& put) {
  RequireWritable();
  uint8_t found[kChunk];
  for (size_t begin = 0; begin < n;) {
    const size_t count = std::min(kChunk, n - begin);
    present(begin, count, found);
    size_t i = 0;
    while (i < count) {
      const size_t key = i++;
      if (found[key] || put(subs_.back().bloom, begin + key)) continue;
      SubFilter& newest = subs_.back();
      if (++newest.items >= newest.capacity) {
        Grow();
        break;
      }
    }
    begin += i;
  }
}

void Scalable::AddU64(const uint64_t* ids, size_t n) {
  AddEach(
      n, [&](size_t begin, size_t count, uint8_t* out) { ContainsU64(ids + begin, count, out); },
      [&](Bloom& bloom, size_t i) { return bloom.PutU64(ids[i]); });
}

void Scalable::AddKeys(const uint8_t* data, const uint64_t* offsets, size_t n) {
  AddEach(
      n,
      [&](size_t begin, size_t count, uint8_t* out) { ContainsKeys(data, offsets + begin, count, out); },
      [&](Bloom& bloom, size_t i) {
        if (offsets[i + 1] < offsets[i]) throw Error(Code::kInvalidArgument, "offsets decrease");
        return bloom.PutKey(data + offsets[i], offsets[i + 1] - offsets[i]);
      });
}

void Scalable::ContainsU64(const uint64_t* ids, size_t n, uint8_t* out) const {
  uint8_t more[kChunk];
  for (size_t begin = 0; begin < n; begin += kChunk) {
    const size_t count = std::min(kChunk, n - begin);
    // The newest sub-filter holds the most keys; ask it first.
    subs_.back().bloom.ContainsU64(ids + begin, count, out + begin);
    for (size_t s = subs_.size() - 1; s-- > 0;) {
      subs_[s].bloom.ContainsU64(ids + begin, count, more);
      for (size_t i = 0; i < count; ++i) out[begin + i] |= more[i];
    }
  }
}

void Scalable::ContainsKeys(const uint8_t* data, const uint64_t* offsets, size_t n,
                            uint8_t* out) const {
  uint8_t more[kChunk];
  for (size_t begin = 0; begin < n; begin += kChunk) {
    const size_t count = std::min(kChunk, n - begin);
    subs_.back().bloom.ContainsKeys(data, offsets + begin, count, out + begin);
    for (size_t s = subs_.size() - 1; s-- > 0;) {
      subs_[s].bloom.ContainsKeys(data, offsets + begin, count, more);
      for (size_t i = 0; i < count; ++i) out[begin + i] |= more[i];
    }
  }
}

bool Scalable::PutU64(uint64_t id) {
  RequireWritable();
  bool present = TestU64(id);
  AddEach(1, [&](size_t, size_t, uint8_t* out) { out[0] = present; },
          [&](Bloom& bloom, size_t) { return bloom.PutU64(id); });
  return present;
}

bool Scalable::PutKey(const void* key, size_t len) {
  RequireWritable();
  bool present = TestKey(key, len);
  AddEach(1, [&](size_t, size_t, uint8_t* out) { out[0] = present; },
          [&](Bloom& bloom, size_t) { return bloom.PutKey(key, len); });
  return present;
}

bool Scalable::TestU64(uint64_t id) const {
  return std::any_of(subs_.rbegin(), subs_.rend(), [&](const SubFilter& s) { return s.bloom.TestU64(id); });
}

bool Scalable::TestKey(const void* key, size_t len) const {
  return std::any_of(subs_.rbegin(), subs_.rend(),
                     [&](const SubFilter& s) { return s.bloom.TestKey(key, len); });
}

uint64_t Scalable::items() const {
  uint64_t total = 0;
  for (const SubFilter& s : subs_) total += s.items;
  return total;
}

double Scalable::PredictedFpr() const {
  double total = 0.0;
  for (const SubFilter& s : subs_) {
    total += PredictFpr(static_cast<double>(s.items), s.bloom.params().blocks, s.bloom.params().k);
  }
  return std::min(total, 1.0);
}

uint64_t Scalable::bytes() const {
  uint64_t total = 0;
  for (const SubFilter& s : subs_) total += s.bloom.params().bytes();
  return total;
}

}  // namespace seen
