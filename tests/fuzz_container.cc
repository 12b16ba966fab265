// libFuzzer target: arbitrary bytes through deserialize, view and open (as a file) must give
// a status, never a crash, a hang or an allocation the input does not justify.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "seen.h"

namespace {

std::string ScratchFile() {
  const char* tmp = std::getenv("TMPDIR");
  return std::string(tmp ? tmp : "/tmp") + "/seen-fuzz-" + std::to_string(getpid()) + ".seen";
}

void Exercise(seen_bloom* f) {
  if (f == nullptr) return;
  uint8_t out[4];
  const uint64_t ids[4] = {0, 1, 2, 3};
  seen_bloom_contains_u64(f, ids, 4, out);
  seen_bloom_add_u64(f, ids, 4);
  seen_bloom_free(f);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  seen_bloom* f = nullptr;
  seen_bloom_deserialize(data, size, &f);
  Exercise(f);
  f = nullptr;
  seen_bloom_view(data, size, SEEN_OPEN_NO_VERIFY, &f);
  Exercise(f);
  static const std::string path = ScratchFile();
  if (FILE* file = std::fopen(path.c_str(), "wb")) {
    std::fwrite(data, 1, size, file);
    std::fclose(file);
    f = nullptr;
    seen_bloom_open(path.c_str(), SEEN_OPEN_READ_ONLY | SEEN_OPEN_NO_VERIFY, &f);
    Exercise(f);
    unlink(path.c_str());
  }
  return 0;
}
