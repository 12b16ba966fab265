#include "core/minhash_index.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

#include "core/error.h"
#include "core/real_text.h"

namespace seen {
namespace {

constexpr double kByteCollision = 1.0 / 256;

// P(one of b bands of r rows agrees) at similarity s.
double Candidate(double s, uint32_t bands, uint32_t rows) {
  return 1 - std::pow(1 - std::pow(s, rows), bands);
}

// The integral of f over [from, to], by the midpoint rule.
template <class F>
double Integral(F&& f, double from, double to) {
  constexpr int kSteps = 200;
  const double step = (to - from) / kSteps;
  double sum = 0;
  for (int i = 0; i < kSteps; ++i) sum += f(from + (i + 0.5) * step);
  return sum * step;
}

}  // namespace

LshShape ChooseLshShape(uint32_t bins, double threshold, double recall) {
  // Every index made or opened asks, and the search takes up to millions of pow calls:
  // remember the last answers (a few, so hostile files of many thresholds hold no memory).
  constexpr size_t kRemembered = 16;
  static std::mutex lock;
  static std::map<std::tuple<uint32_t, double, double>, LshShape> known;
  const auto key = std::make_tuple(bins, threshold, recall);
  {
    std::lock_guard guard(lock);
    if (const auto it = known.find(key); it != known.end()) return it->second;
  }
  LshShape best;
  double best_candidates = 2;
  for (uint32_t bands = 1; bands <= bins; ++bands) {
    for (uint32_t rows = 1; bands * rows <= bins; ++rows) {
      if (Candidate(threshold, bands, rows) < recall) continue;
      const double candidates = Integral([&](double s) { return Candidate(s, bands, rows); }, 0, threshold);
      if (candidates < best_candidates) best_candidates = candidates, best = {bands, rows};
    }
  }
  std::lock_guard guard(lock);
  if (known.size() >= kRemembered) known.clear();
  known.emplace(key, best);
  return best;
}

MinhashIndex::MinhashIndex(const MinhashOptions& options, double threshold)
    : options_(options), threshold_(threshold) {
  ValidateMinhashOptions(options);
  if (!(threshold > 0 && threshold <= 1)) {
    throw Error(Code::kInvalidArgument, "threshold " + RealText(threshold) + " is outside (0, 1]");
  }
  shape_ = ChooseLshShape(options.bins, threshold, kLshRecall);
  bands_.resize(shape_.bands);
  PointAtVectors();
  IndexBands();
}

MinhashIndex::MinhashIndex(const MinhashOptions& options, double threshold, MinhashTables tables)
    : MinhashIndex(options, threshold) {
  ids_ = std::move(tables.ids);
  low_bytes_ = std::move(tables.low_bytes);
  alive_.assign(ids_.size(), true);
  by_id_ = std::move(tables.by_id);
  bands_ = std::move(tables.bands);
  PointAtVectors();
  IndexBands();
}

MinhashIndex::MinhashIndex(const MinhashOptions& options, double threshold, uint64_t count, Region payload)
    : MinhashIndex(options, threshold) {
  static_assert(sizeof(MinhashIdEntry) == 16 && sizeof(MinhashBandEntry) == 8, "the payload's entry sizes");
  read_only_ = true;
  payload_ = std::move(payload);
  // The payload: count ids, count (id, slot) entries, count (key, slot) pairs per band, then
  // count * bins low bytes; 64-byte aligned, so every table is aligned for its type.
  const uint8_t* p = payload_.data();
  spans_.slots = spans_.live = count;
  spans_.ids = reinterpret_cast<const uint64_t*>(p);
  spans_.by_id = reinterpret_cast<const MinhashIdEntry*>(p + count * sizeof(uint64_t));
  const uint8_t* band = p + count * (sizeof(uint64_t) + sizeof(MinhashIdEntry));
  for (auto& table : spans_.bands) {
    table = reinterpret_cast<const MinhashBandEntry*>(band);
    band += count * sizeof(MinhashBandEntry);
  }
  spans_.low_bytes = band;
  IndexBands();
}

void MinhashIndex::PointAtVectors() const {
  spans_.slots = ids_.size();
  spans_.live = by_id_.size();
  spans_.ids = ids_.data();
  spans_.low_bytes = low_bytes_.data();
  spans_.by_id = by_id_.data();
  spans_.bands.resize(bands_.size());
  for (size_t b = 0; b < bands_.size(); ++b) spans_.bands[b] = bands_[b].data();
}

void MinhashIndex::RequireWritable() const {
  if (read_only_) throw Error(Code::kReadOnly, "the minhash index is read-only (opened with SEEN_OPEN_READ_ONLY)");
}

MinhashTables MinhashIndex::Compacted() const {
  Settle();
  constexpr uint32_t kDead = UINT32_MAX;
  std::vector<uint32_t> renumbered(spans_.slots, kDead);
  MinhashTables t;
  for (uint32_t slot = 0; slot < spans_.slots; ++slot) {
    if (!Alive(slot)) continue;
    renumbered[slot] = static_cast<uint32_t>(t.ids.size());
    t.ids.push_back(spans_.ids[slot]);
    const auto* bins = spans_.low_bytes + uint64_t{slot} * options_.bins;
    t.low_bytes.insert(t.low_bytes.end(), bins, bins + options_.bins);
  }
  // Renumbering keeps the order of live slots, so the sorted tables stay sorted.
  for (uint64_t i = 0; i < spans_.live; ++i) t.by_id.emplace_back(spans_.by_id[i].first, renumbered[spans_.by_id[i].second]);
  t.bands.resize(spans_.bands.size());
  for (size_t b = 0; b < spans_.bands.size(); ++b) {
    for (uint64_t i = 0; i < spans_.slots; ++i) {
      const auto& [key, slot] = spans_.bands[b][i];
      if (renumbered[slot] != kDead) t.bands[b].emplace_back(key, renumbered[slot]);
    }
  }
  return t;
}

size_t MinhashIndex::size() const {
  Settle();
  return spans_.live;
}

uint64_t MinhashIndex::bytes() const {
  uint64_t total = payload_.size() + ids_.capacity() * sizeof(uint64_t) + low_bytes_.capacity() +
                   alive_.capacity() / 8 + by_id_.capacity() * sizeof(by_id_[0]);
  for (const auto& band : bands_) total += band.capacity() * sizeof(band[0]);
  for (const auto& directory : directories_) total += directory.capacity() * sizeof(uint32_t);
  return total;
}

uint32_t MinhashIndex::BandKey(const uint32_t* sketch, uint32_t band) const {
  return static_cast<uint32_t>(HashBytes(sketch + band * shape_.rows, shape_.rows * sizeof(uint32_t), band));
}

void MinhashIndex::Add(uint64_t id, const std::vector<uint32_t>& sketch) {
  RequireWritable();
  if (sketch.size() != options_.bins) {
    throw Error(Code::kInvalidArgument, "a sketch of " + std::to_string(sketch.size()) + " bins, the index has " +
                                            std::to_string(options_.bins));
  }
  if (ids_.size() >= UINT32_MAX) throw Error(Code::kTooLarge, "the index holds 2^32 - 1 slots");
  const auto slot = static_cast<uint32_t>(ids_.size());
  ids_.push_back(id);
  alive_.push_back(true);
  for (uint32_t bin : sketch) low_bytes_.push_back(static_cast<uint8_t>(bin));
  by_id_.emplace_back(id, slot);
  for (uint32_t band = 0; band < shape_.bands; ++band) bands_[band].emplace_back(BandKey(sketch.data(), band), slot);
  ++appended_;
  settled_ = false;
}

bool MinhashIndex::Remove(uint64_t id) {
  RequireWritable();
  Settle();
  const auto found = std::lower_bound(by_id_.begin(), by_id_.end(), std::make_pair(id, uint32_t{0}));
  if (found == by_id_.end() || found->first != id) return false;
  // The slot stays in the band tables, dead; queries skip it.
  alive_[found->second] = false;
  by_id_.erase(found);
  PointAtVectors();
  return true;
}

void MinhashIndex::Settle() const {
  if (settled_.load(std::memory_order_acquire)) return;
  std::lock_guard lock(settle_lock_);
  if (settled_.load(std::memory_order_relaxed)) return;
  // Only what adds appended since the last settle is out of order: sorting that tail and
  // merging it in is linear in the table, where sorting all of it again cost n log n for
  // every query that followed an add.
  const auto sort_tail = [this](auto& table) {
    const auto tail = table.end() - static_cast<std::ptrdiff_t>(appended_);
    std::sort(tail, table.end());
    std::inplace_merge(table.begin(), tail, table.end());
  };
  sort_tail(by_id_);
  // Of the slots of one id, the newest (highest) stays.
  std::vector<std::pair<uint64_t, uint32_t>> live;
  live.reserve(by_id_.size());
  for (size_t i = 0; i < by_id_.size(); ++i) {
    if (i + 1 < by_id_.size() && by_id_[i + 1].first == by_id_[i].first) {
      alive_[by_id_[i].second] = false;
    } else {
      live.push_back(by_id_[i]);
    }
  }
  by_id_ = std::move(live);
  for (auto& band : bands_) sort_tail(band);
  appended_ = 0;
  PointAtVectors();
  IndexBands();
  settled_.store(true, std::memory_order_release);
}

namespace {

// About 16 pairs a bucket: one or two cache lines to scan.
constexpr size_t kPairsPerBucket = 16;
constexpr uint32_t kMaxDirectoryBits = 24;

// Band keys are hashes, so their top bits spread evenly over the buckets.
size_t BucketOf(uint32_t key, uint32_t bits) { return bits == 0 ? 0 : key >> (32 - bits); }

}  // namespace

void MinhashIndex::IndexBands() const {
  const uint64_t pairs = spans_.slots;
  directory_bits_ = 0;
  while (directory_bits_ < kMaxDirectoryBits && (uint64_t{1} << (directory_bits_ + 1)) * kPairsPerBucket <= pairs) {
    ++directory_bits_;
  }
  directories_.resize(spans_.bands.size());
  for (size_t b = 0; b < spans_.bands.size(); ++b) {
    const MinhashBandEntry* table = spans_.bands[b];
    std::vector<uint32_t>& starts = directories_[b];
    starts.assign((size_t{1} << directory_bits_) + 1, 0);
    // starts[bucket] = the first pair whose key is in bucket or later.
    uint64_t at = 0;
    for (size_t bucket = 0; bucket < (size_t{1} << directory_bits_); ++bucket) {
      while (at < pairs && BucketOf(table[at].first, directory_bits_) < bucket) ++at;
      starts[bucket] = static_cast<uint32_t>(at);
    }
    starts.back() = static_cast<uint32_t>(pairs);
  }
}

std::pair<const MinhashBandEntry*, const MinhashBandEntry*> MinhashIndex::BandRange(uint32_t band, uint32_t key) const {
  const MinhashBandEntry* table = spans_.bands[band];
  const size_t bucket = BucketOf(key, directory_bits_);
  const MinhashBandEntry* first = table + directories_[band][bucket];
  const MinhashBandEntry* const last = table + directories_[band][bucket + 1];
  // The first pair of the bucket with this key or a greater one, without a branch per step:
  // the steps of std::lower_bound mispredicted half the time (and a conditional `?:` here
  // compiles to a branch too, hence the mask). The answer stays in [first, first + n].
  for (size_t n = static_cast<size_t>(last - first); n > 1;) {
    const size_t half = n / 2;
    first += half & (size_t{0} - static_cast<size_t>(first[half - 1].first < key));
    n -= half;
  }
  if (first != last && first->first < key) ++first;
  const auto* end = first;
  while (end != last && end->first == key) ++end;
  return {first, end};
}

std::vector<MinhashMatch> MinhashIndex::Query(const std::vector<uint32_t>& sketch) const {
  return Query(sketch.data(), sketch.size());
}

std::vector<MinhashMatch> MinhashIndex::Query(const uint32_t* sketch, size_t bins) const {
  if (bins != options_.bins) {
    throw Error(Code::kInvalidArgument, "a sketch of " + std::to_string(bins) + " bins, the index has " +
                                            std::to_string(options_.bins));
  }
  Settle();
  // Every band's key first, each bucket's first pairs fetched as soon as its place is known:
  // the buckets of all bands then come from memory at once, not one band after another.
  uint32_t keys[kMaxMinhashBins];
  for (uint32_t band = 0; band < shape_.bands; ++band) {
    keys[band] = BandKey(sketch, band);
    __builtin_prefetch(spans_.bands[band] + directories_[band][BucketOf(keys[band], directory_bits_)]);
  }
  std::vector<uint32_t> candidates;
  candidates.reserve(4 * shape_.bands);
  for (uint32_t band = 0; band < shape_.bands; ++band) {
    const auto [first, last] = BandRange(band, keys[band]);
    for (const auto* it = first; it != last; ++it) candidates.push_back(it->second);
  }
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  // The query's low bytes, as stored: each verification then compares bytes, 16 or more at a time.
  uint8_t low[kMaxMinhashBins];
  for (uint32_t i = 0; i < bins; ++i) low[i] = static_cast<uint8_t>(sketch[i]);
  std::vector<MinhashMatch> matches;
  for (uint32_t slot : candidates) {
    if (!Alive(slot)) continue;
    const uint8_t* stored = spans_.low_bytes + uint64_t{slot} * bins;
    uint32_t equal = 0;
    for (uint32_t i = 0; i < bins; ++i) equal += stored[i] == low[i];
    const double share = static_cast<double>(equal) / bins;
    const double similarity = std::max(0.0, (share - kByteCollision) / (1 - kByteCollision));
    if (similarity >= threshold_) matches.push_back({spans_.ids[slot], similarity});
  }
  std::sort(matches.begin(), matches.end(), [](const MinhashMatch& a, const MinhashMatch& b) {
    return a.similarity != b.similarity ? a.similarity > b.similarity : a.id < b.id;
  });
  return matches;
}

}  // namespace seen
