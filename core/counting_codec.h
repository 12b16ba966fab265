// A counting filter in the container format (kind 2): to and from bytes and files.
#pragma once

#include <cstdint>
#include <string>

#include "core/counting.h"

namespace seen {

uint64_t SerializedSize(const Counting& filter);
// Writes SerializedSize(filter) bytes to out.
void Serialize(const Counting& filter, uint8_t* out);
// A writable copy of a validated container.
Counting DeserializeCounting(const uint8_t* data, uint64_t len,
                  const std::optional<SecretKey>& key = std::nullopt);
// A read-only filter over the caller's bytes, no copy.
Counting ViewCounting(const uint8_t* data, uint64_t len, bool verify_payload,
           const std::optional<SecretKey>& key = std::nullopt);

void Save(const Counting& filter, const std::string& path);
// Maps the file: read-only refuses every write; writable changes reach the file on Sync.
Counting OpenCounting(const std::string& path, bool writable, bool verify_payload,
           const std::optional<SecretKey>& key = std::nullopt);

}  // namespace seen
