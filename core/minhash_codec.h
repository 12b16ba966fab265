// The MinHash index in the container format (kind 7, docs/FORMAT.md): to and from bytes and
// files. The payload is the index's sorted tables: a read-only open queries them in place, a
// writable one copies them without sorting.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/hash.h"
#include "core/minhash_index.h"

namespace seen {

uint64_t SerializedSize(const MinhashIndex& index);
void Serialize(const MinhashIndex& index, uint8_t* out);
void Save(const MinhashIndex& index, const std::string& path);

// A writable index from a validated container. A keyed index opens only with its key
// (kIncompatible otherwise); its sketch options and threshold come from the file.
MinhashIndex DeserializeMinhashIndex(const uint8_t* data, uint64_t len, const std::optional<SecretKey>& key);
// read_only: the file is mapped and queried in place (adds and removes throw kReadOnly);
// else a writable copy. verify_payload: check the payload checksum (the tables are checked
// either way, so a damaged file cannot make a query read outside them).
MinhashIndex OpenMinhashIndex(const std::string& path, const std::optional<SecretKey>& key, bool read_only,
                              bool verify_payload);

}  // namespace seen
