#include "cli/writable.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/error.h"

namespace seen::cli {

void CheckWritable(const std::string& path) {
  struct stat st;
  const bool existed = stat(path.c_str(), &st) == 0;
  if (existed && S_ISDIR(st.st_mode)) throw Error(Code::kIo, path + ": is a directory, not a file to write");
  // Append mode: an existing file keeps its bytes until the real write replaces it.
  std::FILE* f = std::fopen(path.c_str(), "ab");
  if (f == nullptr) throw Error(Code::kIo, path + ": cannot be written: " + std::strerror(errno));
  std::fclose(f);
  if (!existed) std::remove(path.c_str());
}

}  // namespace seen::cli
