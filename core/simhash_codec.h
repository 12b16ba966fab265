// The SimHash index in the container format (kind 6, docs/FORMAT.md): to and from bytes and
// files. The payload is the built tables themselves, so a mapped file answers queries in place.
#pragma once

#include <cstdint>
#include <string>

#include "core/simhash_index.h"

namespace seen {

// Both build the tables first if pairs were added or removed.
uint64_t SerializedSize(const SimhashIndex& index);
void Serialize(const SimhashIndex& index, uint8_t* out);

// A writable copy of a validated container.
SimhashIndex DeserializeSimhashIndex(const uint8_t* data, uint64_t len);
// A read-only index over the caller's bytes, no copy.
SimhashIndex ViewSimhashIndex(const uint8_t* data, uint64_t len, bool verify_payload);

void Save(const SimhashIndex& index, const std::string& path);
// A read-only index over a mapping of the file.
SimhashIndex OpenSimhashIndex(const std::string& path, bool verify_payload);

}  // namespace seen
