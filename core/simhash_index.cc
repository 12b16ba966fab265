#include "core/simhash_index.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <thread>
#include <unordered_set>

#include "core/error.h"
#include "core/simhash.h"
#include "core/simhash_scan.h"

namespace seen {
namespace {

uint64_t Align64(uint64_t n) { return (n + 63) / 64 * 64; }
uint64_t LowMask(uint32_t bits) { return bits == 0 ? 0 : ~uint64_t{0} >> (64 - bits); }

// A query fetches at most this many cache lines of a bucket ahead of its scan, so that a
// pathological bucket (many equal fingerprints) does not flood the cache before it is read.
constexpr uint32_t kPrefetchLines = 64;

// An index with nothing built has no payload: its sections are empty, and offsets into
// nothing are no pointers at all (null plus an offset is undefined).
template <class T>
const T* At(const uint8_t* payload, uint64_t offset) {
  return payload == nullptr ? nullptr : reinterpret_cast<const T*>(payload + offset);
}

}  // namespace

SimhashLayout SimhashLayout::For(uint64_t count, uint32_t max_k, uint32_t primary_bits) {
  SimhashLayout l;
  l.count = count;
  l.max_k = max_k;
  l.blocks = std::max<uint32_t>(max_k + 1, 4);
  l.primary_bits = primary_bits;
  uint32_t used = 0;
  for (uint32_t b = 0; b < l.blocks; ++b) {
    l.width[b] = 64 / l.blocks + (b < 64 % l.blocks ? 1 : 0);
    used += l.width[b];
    l.shift[b] = 64 - used;
  }
  l.ids = Align64(count * 8);
  l.primary_offsets = Align64(l.ids + count * 8);
  uint64_t end;
  end = l.primary_offsets + ((uint64_t{1} << primary_bits) + 1) * 4;
  for (uint32_t t = 1; t < l.blocks; ++t) {
    l.table_offsets[t] = Align64(end);
    l.table_sigs[t] = Align64(l.table_offsets[t] + ((uint64_t{1} << l.width[t]) + 1) * 4);
    end = l.table_sigs[t] + count * 4;
  }
  l.bytes = Align64(end);
  return l;
}

// About four entries per primary bucket, but never fewer bits than block 0 (so block 0's
// bucket is a contiguous run of primary buckets) nor more than 26 (256 MiB of offsets).
uint32_t SimhashLayout::PrimaryBitsFor(uint64_t count, uint32_t max_k) {
  const uint32_t w0 = For(0, max_k, 0).width[0];
  uint32_t bits = 0;
  while (bits < 26 && (uint64_t{1} << (bits + 2)) < count) ++bits;
  return std::max(bits, w0);
}

// Block t removed, the remaining 64 - w bits closed up; the signature is their top 32.
uint32_t SimhashLayout::Sig(uint32_t t, uint64_t fp) const {
  const uint32_t s = shift[t], w = width[t];
  const uint64_t rest = ((fp >> (s + w)) << s) | (fp & LowMask(s));
  return static_cast<uint32_t>(rest >> (32 - w));
}

uint64_t SimhashLayout::Partial(uint32_t t, uint32_t key, uint32_t sig) const {
  const uint32_t s = shift[t], w = width[t];
  const uint64_t rest = uint64_t{sig} << (32 - w);
  return ((rest >> s) << (s + w)) | ((uint64_t{key} & LowMask(w)) << s) | (rest & LowMask(s));
}

SimhashIndex::SimhashIndex(uint32_t max_k)
    : max_k_(max_k), writable_(true), payload_(Region::Borrow(nullptr, 0)) {
  if (max_k > kSimhashMaxK) {
    throw Error(Code::kInvalidArgument, "max_k " + std::to_string(max_k) + " is over " +
                                            std::to_string(kSimhashMaxK));
  }
  layout_ = SimhashLayout::For(0, max_k, SimhashLayout::PrimaryBitsFor(0, max_k));
  dirty_ = true;  // the empty tables are built on first use
}

SimhashIndex::SimhashIndex(const SimhashLayout& layout, Region payload)
    : max_k_(layout.max_k), writable_(payload.writable()), layout_(layout),
      payload_(std::move(payload)) {}

SimhashIndex::SimhashIndex(SimhashIndex&& other) noexcept
    : max_k_(other.max_k_), writable_(other.writable_), dirty_(other.dirty_.load()),
      staged_(std::move(other.staged_)), layout_(other.layout_), payload_(std::move(other.payload_)) {}

void SimhashIndex::RequireWritable() const {
  if (!writable_) throw Error(Code::kReadOnly, "the simhash index is read-only (mapped or viewed)");
}

void SimhashIndex::RequireK(uint32_t k) const {
  if (k > max_k_) {
    throw Error(Code::kInvalidArgument, "k " + std::to_string(k) + " is over the index's max_k " +
                                            std::to_string(max_k_));
  }
}

void SimhashIndex::Add(const uint64_t* fingerprints, const uint64_t* ids, size_t n) {
  RequireWritable();
  if (size() + n > kSimhashMaxEntries) {
    throw Error(Code::kTooLarge, "a simhash index holds at most 2^32 - 1 pairs");
  }
  for (size_t i = 0; i < n; ++i) staged_.push_back({fingerprints[i], ids[i]});
  if (n > 0) dirty_ = true;
}

uint64_t SimhashIndex::Remove(const uint64_t* ids, size_t n) {
  RequireWritable();
  if (n == 0) return 0;
  const std::unordered_set<uint64_t> gone(ids, ids + n);
  std::vector<SimhashEntry> kept;
  kept.reserve(size());
  const auto* built_fps = At<uint64_t>(payload_.data(), 0);
  const auto* built_ids = At<uint64_t>(payload_.data(), layout_.ids);
  uint64_t removed = 0;
  auto keep = [&](const SimhashEntry& e) {
    if (gone.count(e.id)) {
      ++removed;
    } else {
      kept.push_back(e);
    }
  };
  for (uint64_t i = 0; i < layout_.count; ++i) keep({built_fps[i], built_ids[i]});
  for (const auto& e : staged_) keep(e);
  staged_ = std::move(kept);
  layout_.count = 0;
  payload_ = Region::Borrow(nullptr, 0);
  dirty_ = true;
  return removed;
}

uint64_t SimhashIndex::size() const {
  // A concurrent query's Build may be moving staged pairs into the tables right now.
  std::lock_guard<std::mutex> lock(build_mutex_);
  return layout_.count + staged_.size();
}

void SimhashIndex::Build() const {
  if (!dirty_.load(std::memory_order_acquire)) return;
  std::lock_guard<std::mutex> lock(build_mutex_);
  if (!dirty_.load(std::memory_order_relaxed)) return;
  Rebuild();
  dirty_.store(false, std::memory_order_release);
}

// Counting sorts, O(n + buckets): the primary by its top P bits, then each table by its block
// in primary order, so the bytes depend only on the pairs and the order they came in.
void SimhashIndex::Rebuild() const {
  std::vector<SimhashEntry> all(layout_.count);
  for (uint64_t i = 0; i < layout_.count; ++i) {
    all[i] = {At<uint64_t>(payload_.data(), 0)[i], At<uint64_t>(payload_.data(), layout_.ids)[i]};
  }
  all.insert(all.end(), staged_.begin(), staged_.end());
  const uint64_t count = all.size();
  const SimhashLayout l = SimhashLayout::For(count, max_k_, SimhashLayout::PrimaryBitsFor(count, max_k_));
  Region region = Region::Allocate(l.bytes);
  uint8_t* p = region.data();

  auto counting_sort = [&](uint32_t bits, uint64_t offsets_at, auto key_of, auto place) {
    auto* offsets = reinterpret_cast<uint32_t*>(p + offsets_at);
    const uint64_t buckets = uint64_t{1} << bits;
    for (const auto& e : all) ++offsets[key_of(e.fingerprint) + 1];
    for (uint64_t b = 0; b < buckets; ++b) offsets[b + 1] += offsets[b];
    std::vector<uint32_t> cursor(offsets, offsets + buckets);
    for (uint64_t i = 0; i < count; ++i) place(cursor[key_of(all[i].fingerprint)]++, all[i]);
  };
  auto* fps = reinterpret_cast<uint64_t*>(p);
  auto* ids = reinterpret_cast<uint64_t*>(p + l.ids);
  const uint32_t top_shift = 64 - l.primary_bits;
  counting_sort(l.primary_bits, l.primary_offsets, [&](uint64_t fp) { return fp >> top_shift; },
                [&](uint32_t at, const SimhashEntry& e) {
                  fps[at] = e.fingerprint;
                  ids[at] = e.id;
                });
  for (uint64_t i = 0; i < count; ++i) all[i] = {fps[i], ids[i]};
  for (uint32_t t = 1; t < l.blocks; ++t) {
    auto* sigs = reinterpret_cast<uint32_t*>(p + l.table_sigs[t]);
    counting_sort(l.width[t], l.table_offsets[t], [&](uint64_t fp) { return l.Key(t, fp); },
                  [&](uint32_t at, const SimhashEntry& e) { sigs[at] = l.Sig(t, e.fingerprint); });
  }
  payload_ = std::move(region);
  layout_ = l;
  staged_.clear();
  staged_.shrink_to_fit();
}

template <class Visitor>
void SimhashIndex::Visit(uint64_t q, uint32_t k, Visitor&& visit) const {
  Build();
  const SimhashLayout& l = layout_;
  if (l.count == 0) return;
  const uint8_t* p = payload_.data();
  const auto* fps = At<uint64_t>(p, 0);
  const auto* primary_offsets = At<uint32_t>(p, l.primary_offsets);
  const uint32_t spread = l.primary_bits - l.width[0];
  uint32_t hits[kScanChunk];

  // Every table's lookup is two dependent cache misses (bucket offsets, then the bucket).
  // Issue each round for all tables at once so that the misses overlap. The second round
  // fetches whole buckets (about ten lines each at 10^7 fingerprints), not their first lines:
  // a scan that met each next line cold cost a query 3.3 us there, with them 1.3 us.
  const uint64_t first = (q >> l.shift[0]) << spread;
  __builtin_prefetch(primary_offsets + first);
  uint32_t keys[16];
  for (uint32_t t = 1; t < l.blocks; ++t) {
    keys[t] = l.Key(t, q);
    __builtin_prefetch(At<uint32_t>(p, l.table_offsets[t]) + keys[t]);
  }
  const uint32_t begin = primary_offsets[first], end = primary_offsets[first + (uint64_t{1} << spread)];
  for (uint32_t i = begin; i < std::min(end, begin + kPrefetchLines * 8); i += 8) __builtin_prefetch(fps + i);
  for (uint32_t t = 1; t < l.blocks; ++t) {
    const auto* offsets = At<uint32_t>(p, l.table_offsets[t]);
    const auto* sigs = At<uint32_t>(p, l.table_sigs[t]);
    const uint32_t b = offsets[keys[t]], e = std::min(offsets[keys[t] + 1], b + kPrefetchLines * 16);
    for (uint32_t i = b; i < e; i += 16) __builtin_prefetch(sigs + i);
  }

  // Table 0: block 0's bucket is a run of primary buckets; compare whole fingerprints.
  for (uint32_t i = begin; i < end; i += kScanChunk) {
    const uint32_t n = std::min<uint32_t>(kScanChunk, end - i);
    const size_t found = ScanFingerprints(fps + i, n, 1, q, k, hits);
    for (size_t h = 0; h < found; ++h) {
      if (!visit(i + hits[h])) return;
    }
  }

  for (uint32_t t = 1; t < l.blocks; ++t) {
    const auto* offsets = At<uint32_t>(p, l.table_offsets[t]);
    const auto* sigs = At<uint32_t>(p, l.table_sigs[t]);
    const uint32_t key = keys[t];
    const uint64_t known = l.KnownMask(t);
    // Earlier blocks the signature pins down: a candidate that matches one of them exactly
    // was already found by that block's table.
    uint64_t earlier = 0;
    for (uint32_t j = 0; j < t; ++j) {
      const uint64_t mask = LowMask(l.width[j]) << l.shift[j];
      if ((known & mask) == mask) earlier |= mask;
    }
    const uint32_t b = offsets[key], e = offsets[key + 1];
    for (uint32_t i = b; i < e; i += kScanChunk) {
      const uint32_t n = std::min<uint32_t>(kScanChunk, e - i);
      const size_t found = ScanSigs(sigs + i, n, l.Sig(t, q), k, hits);
      for (size_t h = 0; h < found; ++h) {
        const uint64_t partial = l.Partial(t, key, sigs[i + hits[h]]);
        bool seen_earlier = false;
        for (uint32_t j = 0; j < t && !seen_earlier; ++j) {
          const uint64_t mask = LowMask(l.width[j]) << l.shift[j];
          seen_earlier = (earlier & mask) && ((partial ^ q) & mask) == 0;
        }
        if (seen_earlier) continue;
        // Confirm in the primary bucket of the candidate's top bits (all known).
        const uint64_t bucket = partial >> (64 - l.primary_bits);
        for (uint32_t c = primary_offsets[bucket]; c < primary_offsets[bucket + 1]; ++c) {
          if ((fps[c] & known) == partial && Hamming(fps[c], q) <= k && !visit(c)) return;
        }
      }
    }
  }
}

void SimhashIndex::Query(uint64_t fp, uint32_t k, std::vector<SimhashMatch>& out) const {
  RequireK(k);
  // Reused per thread: a query then allocates nothing but its results.
  thread_local std::vector<uint32_t> positions;
  positions.clear();
  const uint64_t* fps = Fingerprints();
  const uint64_t* ids = Ids();
  Visit(fp, k, [&](uint32_t at) {
    positions.push_back(at);
    __builtin_prefetch(ids + at);  // a match's id lies apart from its fingerprint: fetch it during the scan
    return true;
  });
  std::sort(positions.begin(), positions.end());
  positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
  for (uint32_t at : positions) out.push_back({ids[at], fps[at], Hamming(fps[at], fp)});
}

bool SimhashIndex::Any(uint64_t fp, uint32_t k) const {
  RequireK(k);
  bool any = false;
  Visit(fp, k, [&](uint32_t) {
    any = true;
    return false;
  });
  return any;
}

std::vector<SimhashMatch> SimhashIndex::QueryOrdered(uint64_t fp, uint32_t k) const {
  std::vector<SimhashMatch> matches;
  Query(fp, k, matches);
  std::sort(matches.begin(), matches.end(), [](const SimhashMatch& a, const SimhashMatch& b) {
    if (a.distance != b.distance) return a.distance < b.distance;
    return a.id != b.id ? a.id < b.id : a.fingerprint < b.fingerprint;
  });
  return matches;
}

std::vector<SimhashMatch> SimhashIndex::QueryOrderedMany(const uint64_t* fps, size_t n, uint32_t k,
                                                         uint64_t* offsets) const {
  std::vector<SimhashMatch> all;
  offsets[0] = 0;
  for (size_t i = 0; i < n; ++i) {
    const std::vector<SimhashMatch> matches = QueryOrdered(fps[i], k);
    all.insert(all.end(), matches.begin(), matches.end());
    offsets[i + 1] = all.size();
  }
  return all;
}

void SimhashIndex::AnyMany(const uint64_t* fps, size_t n, uint32_t k, uint8_t* out) const {
  for (size_t i = 0; i < n; ++i) out[i] = Any(fps[i], k) ? 1 : 0;
}

std::vector<uint32_t> SimhashIndex::Clusters(uint32_t k) const {
  RequireK(k);
  Build();
  const auto count = static_cast<uint32_t>(layout_.count);
  // The neighbours within k of every pair: the queries run on every core, each collecting
  // its edges (i < j), which then fill one adjacency array.
  const uint64_t* fps = Fingerprints();
  const unsigned threads = std::max(1u, std::min(8u, std::thread::hardware_concurrency()));
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> edges(threads);
  auto work = [&](unsigned part) {
    for (uint64_t i = part; i < count; i += threads) {
      Visit(fps[i], k, [&](uint32_t j) {
        if (j > i) edges[part].push_back({static_cast<uint32_t>(i), j});
        return true;
      });
    }
  };
  std::vector<std::thread> pool;
  for (unsigned part = 1; part < threads; ++part) pool.emplace_back(work, part);
  work(0);
  for (auto& thread : pool) thread.join();
  std::vector<uint64_t> first(uint64_t{count} + 1, 0);
  for (const auto& part : edges) {
    for (const auto& [i, j] : part) ++first[i + 1], ++first[j + 1];
  }
  for (uint32_t i = 0; i < count; ++i) first[i + 1] += first[i];
  std::vector<uint32_t> neighbours(first[count]);
  std::vector<uint64_t> fill(first.begin(), first.end() - 1);
  for (const auto& part : edges) {
    for (const auto& [i, j] : part) neighbours[fill[i]++] = j, neighbours[fill[j]++] = i;
  }
  // Leaders by smallest id: each pair not yet in a group leads a new one, and takes its
  // neighbours not yet in a group, in id order, each only if it is within k of every member
  // taken so far. So every two members are within k: no chain of near pairs, and no two
  // neighbours of a leader on opposite sides of it, can join far ones.
  const uint64_t* ids = Ids();
  std::vector<uint32_t> order(count), rank(count);
  for (uint32_t i = 0; i < count; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return ids[a] < ids[b]; });
  for (uint32_t r = 0; r < count; ++r) rank[order[r]] = r;
  constexpr uint32_t kNone = UINT32_MAX;
  // The members' distinct fingerprints are what a candidate is checked against, so a group
  // of many copies of few fingerprints costs no more than those few.
  std::vector<uint32_t> leader_of(count, kNone), candidates;
  std::vector<uint64_t> member_fps;
  for (const uint32_t leader : order) {
    if (leader_of[leader] != kNone) continue;
    leader_of[leader] = leader;
    candidates.assign(neighbours.begin() + static_cast<std::ptrdiff_t>(first[leader]),
                      neighbours.begin() + static_cast<std::ptrdiff_t>(first[leader + 1]));
    std::sort(candidates.begin(), candidates.end(), [&](uint32_t a, uint32_t b) { return rank[a] < rank[b]; });
    member_fps.assign(1, fps[leader]);
    for (const uint32_t c : candidates) {
      if (leader_of[c] != kNone) continue;
      const bool near_all = std::all_of(member_fps.begin(), member_fps.end(),
                                        [&](uint64_t m) { return Hamming(m, fps[c]) <= k; });
      if (!near_all) continue;
      leader_of[c] = leader;
      if (std::find(member_fps.begin(), member_fps.end(), fps[c]) == member_fps.end()) member_fps.push_back(fps[c]);
    }
  }
  // Groups numbered in the order of their first pair.
  std::vector<uint32_t> group(count), number(count, kNone);
  uint32_t next = 0;
  for (uint32_t i = 0; i < count; ++i) {
    if (number[leader_of[i]] == kNone) number[leader_of[i]] = next++;
    group[i] = number[leader_of[i]];
  }
  return group;
}

const uint64_t* SimhashIndex::Fingerprints() const {
  Build();
  return At<uint64_t>(payload_.data(), 0);
}

const uint64_t* SimhashIndex::Ids() const {
  Build();
  return At<uint64_t>(payload_.data(), layout_.ids);
}

const SimhashLayout& SimhashIndex::layout() const {
  Build();
  return layout_;
}

const uint8_t* SimhashIndex::payload() const {
  Build();
  return payload_.data();
}

uint64_t SimhashIndex::bytes() const { return layout().bytes; }

}  // namespace seen
