// Output paths checked before a long run (build, merge, simulate), so that a missing directory or a
// read-only place fails at once, not after minutes of work.
#pragma once

#include <string>

namespace seen::cli {

// Throws Error(kIo) naming path and why if it cannot be written. Creates nothing: a file the
// check had to create is removed again, and an existing one is left as it was.
void CheckWritable(const std::string& path);

}  // namespace seen::cli
