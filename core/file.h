// Containers in files: crash-safe save (core/save.cc), and mapping for use in place.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/format.h"
#include "core/region.h"

namespace seen {

// Throws Error(kIo): "path: step failed: " and errno's text.
[[noreturn]] void IoFail(const std::string& path, const std::string& step);

// Writes the container to `path` crash-safely (core/save.cc): a temporary beside it, written
// as WriteContainer does (a self-consistent snapshot even while adds change the pieces),
// fsync, rename over path, fsync of the directory. On any failure the previous file at path
// is untouched, no temporary remains, and Error(kIo) names the step. Removes the temporaries
// that earlier saves of path left when their process died.
void SaveContainer(const std::string& path, const Parts& parts);

// Maps the whole file. Writable maps are shared (changes reach the file). With populate,
// every page is read in now, so later queries never page-fault; without it pages come in as
// they are touched. Throws Error(kIo) naming the path.
Region MapFile(const std::string& path, bool writable, bool populate);

// For a writable mapping of a container that validated: Sync (and release) then reseal the
// checksums and msync. Never before validation, or a corrupt file would get resealed.
void ResealOnSync(Region& file, const std::string& path);

}  // namespace seen
