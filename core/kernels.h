// Batch kernels over key hashes, SIMD through Highway with dynamic dispatch (kernels.cc is
// the one place that dispatches, once per filter). Each prefetches the blocks of keys ahead of the one it
// probes, so a batch runs at the speed of random cache-line reads, not of their latency.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/block.h"
#include "core/hash.h"

namespace seen {

// Where a batch's key hashes come from: hash(context, begin, count, hashes) writes the
// hashes of keys [begin, begin + count). Kernels ask for them a chunk at a time. Two kinds
// need no call: when `ids` is set the keys are u64 ids under XXH3 with `seed`, which the
// filter kernels hash themselves, in the same vectors that place their blocks; when `hashes`
// is set they are hashes already computed. When `offsets` is set the keys are byte keys
// (key i is data[offsets[i] .. offsets[i+1])) under XXH3 with `seed`: the filter kernels hash
// a run of keys that all have one length of 9 to 128 bytes themselves, and call `hash` for
// any other. `hash` answers for every kind.
struct KeySource {
  void (*hash)(const void* context, size_t begin, size_t count, uint64_t* hashes);
  const void* context;
  size_t size;
  const uint64_t* ids = nullptr;
  uint64_t seed = 0;
  const uint64_t* hashes = nullptr;
  const uint8_t* data = nullptr;
  const uint64_t* offsets = nullptr;
};

// The two kinds of key a batch holds, as KeySources: u64 ids (SIMD-hashed) and byte keys
// (data + offsets, checked as they are hashed; runs of one length hashed in the kernels).
struct U64Keys {
  const uint64_t* ids;
  Hashing hashing;
  KeySource source(size_t n) const {
    KeySource keys{&Hash, this, n};
    if (!hashing.key) keys.ids = ids, keys.seed = hashing.seed;
    return keys;
  }
  static void Hash(const void* context, size_t begin, size_t count, uint64_t* hashes);
};

struct ByteKeys {
  const uint8_t* data;
  const uint64_t* offsets;
  Hashing hashing;
  KeySource source(size_t n) const {
    KeySource keys{&Hash, this, n};
    if (!hashing.key) keys.data = data, keys.offsets = offsets, keys.seed = hashing.seed;
    return keys;
  }
  static void Hash(const void* context, size_t begin, size_t count, uint64_t* hashes);
};

// Up to this many keys skip the batch pipeline: their hashes come first, then their blocks
// are prefetched and probed at once, with none of the pipeline's setup. Most calls through
// the C API pass one key.
constexpr size_t kFewKeys = 8;

// The kernels of one SIMD target. A filter resolves them once, when it is made
// (ChosenKernels), so a call costs one indirect jump and no dispatch.
struct Kernels {
  // out[i] = 1 if every bit of key i is set in its block, else 0.
  void (*contains)(const Blocks& blocks, const KeySource& keys, uint8_t* out);
  // The same for n <= kFewKeys hashes already computed.
  void (*contains_few)(const Blocks& blocks, const uint64_t* hashes, size_t n, uint8_t* out);
  // A single key, by hash: whether its bits are all set.
  bool (*probe)(const Blocks& blocks, uint64_t hash);
  // Sets the bits of every key with plain SIMD stores: the caller keeps other writers of
  // these blocks out (one writer, or the filter's stripe locks). Queries may run meanwhile.
  void (*add)(const Blocks& blocks, const KeySource& keys);
  // A single key, by hash: sets its bits and returns whether they were all set already. The
  // caller keeps other writers of the block out, as for add.
  bool (*put)(const Blocks& blocks, uint64_t hash);
};

// The kernels of the best target this CPU runs (or of the target a test forced).
Kernels ChosenKernels();

// Contains for a batch of any size: few keys are hashed inline and go to contains_few.
inline void ContainsU64(const Kernels& kernels, const Blocks& blocks, const Hashing& hashing,
                        const uint64_t* ids, size_t n, uint8_t* out) {
  if (n <= kFewKeys) {
    uint64_t hashes[kFewKeys];
    for (size_t i = 0; i < n; ++i) hashes[i] = HashU64(ids[i], hashing);
    return kernels.contains_few(blocks, hashes, n, out);
  }
  const U64Keys keys{ids, hashing};
  kernels.contains(blocks, keys.source(n), out);
}

inline void ContainsKeys(const Kernels& kernels, const Blocks& blocks, const Hashing& hashing,
                         const uint8_t* data, const uint64_t* offsets, size_t n, uint8_t* out) {
  if (n <= kFewKeys) {
    uint64_t hashes[kFewKeys];
    HashKeysBatch(data, offsets, 0, n, hashing, hashes);
    return kernels.contains_few(blocks, hashes, n, out);
  }
  const ByteKeys keys{data, offsets, hashing};
  kernels.contains(blocks, keys.source(n), out);
}

// out[i] = BlockIndex(hashes[i], blocks), SIMD where blocks < 2^32, as the batch kernels
// place keys (out may be hashes).
void BlockIndexBatch(const uint64_t* hashes, size_t n, uint64_t blocks, uint64_t* out);

// The name of the SIMD target the dispatcher chose, e.g. "AVX2".
const char* ChosenTargetName();

}  // namespace seen
