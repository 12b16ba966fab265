// libFuzzer target: arbitrary bytes through every kind's deserialize and view, and through
// open (as a file) for the Bloom filter and the store, must give a status, never a crash, a
// hang or an allocation the input does not justify. Whatever loads is then queried.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "seen.h"

namespace {

const uint64_t kIds[4] = {0, 1, 2, 3};

std::string ScratchFile() {
  const char* tmp = std::getenv("TMPDIR");
  return std::string(tmp ? tmp : "/tmp") + "/seen-fuzz-" + std::to_string(getpid()) + ".seen";
}

void Bloom(seen_bloom* f) {
  if (f == nullptr) return;
  uint8_t out[4];
  seen_bloom_contains_u64(f, kIds, 4, out);
  seen_bloom_add_u64(f, kIds, 4);
  seen_bloom_free(f);
}

void Counting(seen_counting* f) {
  if (f == nullptr) return;
  uint8_t out[4];
  seen_counting_contains_u64(f, kIds, 4, out);
  seen_counting_add_u64(f, kIds, 4);
  seen_counting_free(f);
}

void Scalable(seen_scalable* f) {
  if (f == nullptr) return;
  uint8_t out[4];
  seen_scalable_contains_u64(f, kIds, 4, out);
  seen_scalable_add_u64(f, kIds, 4);
  seen_scalable_free(f);
}

void Window(seen_window* w) {
  if (w == nullptr) return;
  uint8_t out[4];
  seen_window_contains_u64(w, kIds, 4, 1000, out);
  seen_window_add_u64(w, kIds, 4, 2000);
  seen_window_free(w);
}

void Index(seen_simhash_index* index) {
  if (index == nullptr) return;
  uint8_t out[4];
  seen_simhash_index_any(index, kIds, 4, 3, out);
  seen_simhash_index_free(index);
}

void Store(seen_store* s) {
  if (s == nullptr) return;
  uint8_t out[4];
  for (uint64_t user = 0; user < 4; ++user) seen_store_filter(s, user, kIds, 4, 1000, out);
  seen_store_free(s);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  seen_bloom* bloom = nullptr;
  seen_bloom_deserialize(data, size, &bloom);
  Bloom(bloom);
  bloom = nullptr;
  seen_bloom_view(data, size, SEEN_OPEN_NO_VERIFY, &bloom);
  Bloom(bloom);
  seen_counting* counting = nullptr;
  seen_counting_deserialize(data, size, &counting);
  Counting(counting);
  counting = nullptr;
  seen_counting_view(data, size, SEEN_OPEN_NO_VERIFY, &counting);
  Counting(counting);
  seen_scalable* scalable = nullptr;
  seen_scalable_deserialize(data, size, &scalable);
  Scalable(scalable);
  seen_window* window = nullptr;
  seen_window_deserialize(data, size, &window);
  Window(window);
  seen_simhash_index* index = nullptr;
  seen_simhash_index_deserialize(data, size, &index);
  Index(index);
  index = nullptr;
  seen_simhash_index_view(data, size, SEEN_OPEN_NO_VERIFY, &index);
  Index(index);
  static const std::string path = ScratchFile();
  if (FILE* file = std::fopen(path.c_str(), "wb")) {
    std::fwrite(data, 1, size, file);
    std::fclose(file);
    bloom = nullptr;
    seen_bloom_open(path.c_str(), SEEN_OPEN_READ_ONLY | SEEN_OPEN_NO_VERIFY, &bloom);
    Bloom(bloom);
    seen_store* store = nullptr;
    seen_store_open(path.c_str(), SEEN_OPEN_READ_ONLY | SEEN_OPEN_NO_VERIFY, &store);
    Store(store);
    unlink(path.c_str());
  }
  return 0;
}
