// A scalable filter in the container format (kind 3): to and from bytes and files.
#pragma once

#include <cstdint>
#include <string>

#include "core/scalable.h"

namespace seen {

uint64_t SerializedSize(const Scalable& filter);
// Writes SerializedSize(filter) bytes to out.
void Serialize(const Scalable& filter, uint8_t* out);
// A writable copy of a validated container.
Scalable DeserializeScalable(const uint8_t* data, uint64_t len,
                             const std::optional<SecretKey>& key = std::nullopt);

void Save(const Scalable& filter, const std::string& path);
// Read-only: maps the file and queries it in place; every add is refused. Writable: a
// private copy in memory (it may grow), written back only by the next Save.
Scalable OpenScalable(const std::string& path, bool writable, bool verify_payload,
                      const std::optional<SecretKey>& key = std::nullopt);

}  // namespace seen
