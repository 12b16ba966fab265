// Batch kernels over key hashes, SIMD through Highway with dynamic dispatch (kernels.cc is
// the one place that dispatches). Each prefetches the blocks of keys ahead of the one it
// probes, so a batch runs at the speed of random cache-line reads, not of their latency.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/block.h"
#include "core/hash.h"

namespace seen {

// Where a batch's key hashes come from: hash(context, begin, count, hashes) writes the
// hashes of keys [begin, begin + count). Kernels ask for them a chunk at a time.
struct KeySource {
  void (*hash)(const void* context, size_t begin, size_t count, uint64_t* hashes);
  const void* context;
  size_t size;
};

// The two kinds of key a batch holds, as KeySources: u64 ids (SIMD-hashed) and byte keys
// (data + offsets, checked as they are hashed).
struct U64Keys {
  const uint64_t* ids;
  Hashing hashing;
  KeySource source(size_t n) const { return {&Hash, this, n}; }
  static void Hash(const void* context, size_t begin, size_t count, uint64_t* hashes);
};

struct ByteKeys {
  const uint8_t* data;
  const uint64_t* offsets;
  Hashing hashing;
  KeySource source(size_t n) const { return {&Hash, this, n}; }
  static void Hash(const void* context, size_t begin, size_t count, uint64_t* hashes);
};

// out[i] = 1 if every bit of key i is set in its block, else 0.
void Contains(const Blocks& blocks, const KeySource& keys, uint8_t* out);

// Sets the bits of every key with plain SIMD stores: the caller keeps other writers of these
// blocks out (one writer, or the filter's stripe locks). Queries may run meanwhile.
void Add(const Blocks& blocks, const KeySource& keys);

// A single key, by hash: whether its bits are all set. (Setting them is SetBlockBits in
// core/block.h: scalar, inlined.)
bool ProbeOne(const Blocks& blocks, uint64_t hash);

// The name of the SIMD target the dispatcher chose, e.g. "AVX2".
const char* ChosenTargetName();

}  // namespace seen
