// A MinHash LSH index (docs/minhash.md): every stored document whose estimated Jaccard
// similarity to a query is at least the threshold, verified, never a bare "may be similar".
//
// Banded LSH finds candidates: the K bins form b bands of r rows, and a document is a
// candidate when one band of its sketch equals the query's. b and r are chosen for the
// threshold t: a pair at t is a candidate with probability at least kLshRecall (more above
// t), and among such shapes the fewest candidates below t are drawn (each costs only a
// verification; a missed pair is lost).
// Each candidate is then verified on the 8 low bits of every bin stored per document:
// J = (m - 2^-8) / (1 - 2^-8) for a share m of equal bytes (b-bit MinHash, Li and König,
// 2010), and kept if J >= t. Per document that is K bytes, b (band key, slot) pairs of 8
// bytes, its id (8) and an (id, slot) entry (16). A removal is O(documents).
//
// The saved payload (docs/FORMAT.md, kind 7) is these tables in this layout, so an index
// opened read-only queries a file mapping in place; only the band directories are built.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

#include "core/minhash.h"
#include "core/region.h"

namespace seen {

struct LshShape {
  uint32_t bands = 0;
  uint32_t rows = 0;
};
constexpr double kLshRecall = 0.95;
// The (bands, rows) with bands * rows <= bins that draws a pair at the threshold with
// probability >= recall and the fewest pairs below it; {0, 0} if none reaches the recall.
LshShape ChooseLshShape(uint32_t bins, double threshold, double recall);

using MinhashBandEntry = std::pair<uint32_t, uint32_t>;  // (band key, slot)
using MinhashIdEntry = std::pair<uint64_t, uint32_t>;     // (id, slot), 16 bytes with padding

// A settled index without dead slots, as core/minhash_codec.cc saves it: slot i is ids[i],
// with its bins' low bytes at low_bytes[i * bins]; bands[b] holds the (key, slot) pairs of
// band b, and by_id the (id, slot) pairs, each sorted.
struct MinhashTables {
  std::vector<uint64_t> ids;
  std::vector<uint8_t> low_bytes;
  std::vector<std::vector<MinhashBandEntry>> bands;
  std::vector<MinhashIdEntry> by_id;
};

// Where the settled tables lie, for queries: in a writable index's vectors, or in a mapped
// payload. slots counts every slot (dead ones too), live the entries of by_id.
struct MinhashSpans {
  uint64_t slots = 0;
  uint64_t live = 0;
  const uint64_t* ids = nullptr;
  const uint8_t* low_bytes = nullptr;
  const MinhashIdEntry* by_id = nullptr;
  std::vector<const MinhashBandEntry*> bands;
};

struct MinhashMatch {
  uint64_t id;
  double similarity;  // estimated Jaccard, >= the threshold
};

class MinhashIndex {
 public:
  // Throws Error(kInvalidArgument) for a threshold outside (0, 1] or bad sketch options.
  MinhashIndex(const MinhashOptions& options, double threshold);
  // An index over tables Compacted() gave (the codec validates them first).
  MinhashIndex(const MinhashOptions& options, double threshold, MinhashTables tables);
  // A read-only index over a validated payload of `count` documents laid out as FORMAT.md's
  // kind 7 (a file mapping): queried in place, never copied. Adds and removes throw
  // Error(kReadOnly).
  MinhashIndex(const MinhashOptions& options, double threshold, uint64_t count, Region payload);

  const MinhashOptions& options() const { return options_; }
  double threshold() const { return threshold_; }
  LshShape shape() const { return shape_; }
  size_t size() const;
  bool read_only() const { return read_only_; }
  // Bytes held: sketches, band tables and ids (a mapped file's whole payload).
  uint64_t bytes() const;

  // Adds or replaces the document `id` (a sketch of options().bins bins). Not thread-safe.
  // Adds only append: before the next query, removal or size, what they appended is sorted
  // and merged into the sorted tables (a pass over them), and a replaced id's older slot
  // retired.
  void Add(uint64_t id, const std::vector<uint32_t>& sketch);
  // Whether id was stored. Not thread-safe.
  bool Remove(uint64_t id);
  // Every stored document at estimated Jaccard >= threshold, most similar first (ties by id).
  // Queries may run concurrently with each other, not with Add or Remove.
  std::vector<MinhashMatch> Query(const std::vector<uint32_t>& sketch) const;
  // The same for a sketch of `bins` bins (throws unless bins is options().bins).
  std::vector<MinhashMatch> Query(const uint32_t* sketch, size_t bins) const;

  // The live documents renumbered 0..size() - 1 in slot order, tables sorted.
  MinhashTables Compacted() const;

 private:
  void RequireWritable() const;
  uint32_t BandKey(const uint32_t* sketch, uint32_t band) const;
  // Sorts what adds appended and retires the older slots of replaced ids.
  void Settle() const;
  // Points spans_ at the vectors (a writable index, after they change).
  void PointAtVectors() const;
  bool Alive(uint32_t slot) const { return read_only() || alive_[slot]; }
  // Rebuilds each band's directory from its sorted table.
  void IndexBands() const;
  // The (key, slot) pairs of `band` whose key is `key`: a range of its sorted table.
  std::pair<const MinhashBandEntry*, const MinhashBandEntry*> BandRange(uint32_t band, uint32_t key) const;

  MinhashOptions options_;
  double threshold_;
  LshShape shape_;
  std::vector<uint64_t> ids_;       // by slot
  std::vector<uint8_t> low_bytes_;  // by slot: the low 8 bits of each bin
  // By slot: false once removed or replaced. Mutable: Settle retires replaced slots.
  mutable std::vector<bool> alive_;
  // (id, slot) of every live slot, and per band (key, slot): sorted by Settle.
  mutable std::vector<MinhashIdEntry> by_id_;
  mutable std::vector<std::vector<MinhashBandEntry>> bands_;
  // A read-only index's mapped payload (empty for a writable one), and where Query reads.
  bool read_only_ = false;
  Region payload_;
  mutable MinhashSpans spans_;
  // Per band, where each bucket of keys (their top directory_bits_ bits) starts in its sorted
  // table, and one past the last: a query reads one bucket of about 16 pairs instead of
  // binary-searching a table of millions (about 20 dependent cache misses per band).
  mutable std::vector<std::vector<uint32_t>> directories_;
  mutable uint32_t directory_bits_ = 0;
  // Read by every query before it takes the lock, which only the first after adds needs.
  mutable std::atomic<bool> settled_{true};
  // Entries appended to by_id_ and to each band since the last settle (at their ends).
  mutable size_t appended_ = 0;
  mutable std::mutex settle_lock_;
};

}  // namespace seen
