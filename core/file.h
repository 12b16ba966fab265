// Containers in files: crash-safe save, and mapping for use in place.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/format.h"
#include "core/region.h"

namespace seen {

// Writes head then payload to `path` crash-safely: a temporary file in the same directory,
// fsync, rename over path, fsync of the directory. On any failure the temporary file is
// removed, the previous file at path is untouched, and Error(kIo) names the step.
void SaveFile(const std::string& path, const uint8_t* head, uint64_t head_size,
              const std::vector<Piece>& payload);

// Maps the whole file. Writable maps are shared (changes reach the file). With populate,
// every page is read in now, so later queries never page-fault; without it pages come in as
// they are touched. Throws Error(kIo) naming the path.
Region MapFile(const std::string& path, bool writable, bool populate);

// For a writable mapping of a container that validated: Sync (and release) then reseal the
// checksums and msync. Never before validation, or a corrupt file would get resealed.
void ResealOnSync(Region& file, const std::string& path);

}  // namespace seen
