// Hands bytes to every entry point of capi/seen.h that reads a container: each kind's
// deserialize and view, and a file of those bytes to each kind's open in every mode. Whatever
// loads is queried, added to and serialized again, so a head field that could size a later
// allocation is exercised too. Shared by the fuzz targets and the address-space sweep.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "seen.h"

namespace seen::test {

// The open modes every kind with an open is tried in.
constexpr uint32_t kOpenModes[] = {SEEN_OPEN_READ_ONLY, SEEN_OPEN_READ_ONLY | SEEN_OPEN_NO_VERIFY,
                                   SEEN_OPEN_READ_WRITE, SEEN_OPEN_READ_WRITE | SEEN_OPEN_NO_VERIFY};

// The kinds, each with its own fuzz target (SEEN_FUZZ_TARGET is its number here).
enum class Target { kBloom, kCounting, kScalable, kWindow, kStore, kSimhashIndex };
constexpr Target kTargets[] = {Target::kBloom,  Target::kCounting, Target::kScalable,
                               Target::kWindow, Target::kStore,    Target::kSimhashIndex};

// The first status equal to `watch` any call returned, so a caller can tell a refusal by
// validation from one by exhaustion; SEEN_OK if none did.
class Exercise {
 public:
  explicit Exercise(seen_status watch) : watch_(watch) {}
  seen_status seen() const { return seen_; }
  const std::string& message() const { return message_; }

  seen_status operator()(seen_status status) {
    if (status == watch_ && seen_ == SEEN_OK) {
      seen_ = status;
      message_ = seen_last_error();
    }
    return status;
  }

  void Bloom(seen_bloom* f) {
    if (f == nullptr) return;
    uint8_t out[4];
    (*this)(seen_bloom_contains_u64(f, kIds, 4, out));
    (*this)(seen_bloom_add_u64(f, kIds, 4));
    size_t size = 0;
    (*this)(seen_bloom_serialize(f, nullptr, 0, &size));
    seen_bloom_free(f);
  }

  void Counting(seen_counting* f) {
    if (f == nullptr) return;
    uint8_t out[4];
    (*this)(seen_counting_contains_u64(f, kIds, 4, out));
    (*this)(seen_counting_add_u64(f, kIds, 4));
    (*this)(seen_counting_remove_u64(f, kIds, 2, nullptr));
    seen_counting_free(f);
  }

  void Scalable(seen_scalable* f) {
    if (f == nullptr) return;
    uint8_t out[4];
    (*this)(seen_scalable_contains_u64(f, kIds, 4, out));
    // Enough new keys to fill a small newest sub-filter and make the next one.
    std::vector<uint64_t> keys(2000);
    for (size_t i = 0; i < keys.size(); ++i) keys[i] = i * 0x9E3779B97F4A7C15ULL + 11;
    (*this)(seen_scalable_add_u64(f, keys.data(), keys.size()));
    seen_scalable_free(f);
  }

  void Window(seen_window* w) {
    if (w == nullptr) return;
    uint8_t out[4];
    (*this)(seen_window_contains_u64(w, kIds, 4, 1000, out));
    (*this)(seen_window_add_u64(w, kIds, 4, 2000));
    seen_window_free(w);
  }

  void Index(seen_simhash_index* index) {
    if (index == nullptr) return;
    uint8_t out[4];
    (*this)(seen_simhash_index_any(index, kIds, 4, 3, out));
    seen_simhash_index_free(index);
  }

  void Store(seen_store* s) {
    if (s == nullptr) return;
    uint8_t out[4];
    for (uint64_t user = 0; user < 4; ++user) {
      (*this)(seen_store_filter(s, user, kIds, 4, 1000, out));
      (*this)(seen_store_mark(s, user, kIds, 4, 1000));
    }
    seen_store_free(s);
  }

  // Every entry point of one kind: deserialize and view of the bytes, then open of a file of
  // them at path in every mode the kind has (the file is rewritten before each open, since a
  // read-write open may change it, and removed after).
  void One(Target kind, const uint8_t* data, size_t size, const std::string& path) {
    switch (kind) {
      case Target::kBloom: {
        seen_bloom* f = nullptr;
        (*this)(seen_bloom_deserialize(data, size, &f));
        Bloom(f);
        f = nullptr;
        (*this)(seen_bloom_view(data, size, SEEN_OPEN_NO_VERIFY, &f));
        Bloom(f);
        EachMode(data, size, path, false, [&](uint32_t mode) {
          seen_bloom* g = nullptr;
          (*this)(seen_bloom_open(path.c_str(), mode, &g));
          Bloom(g);
        });
        break;
      }
      case Target::kCounting: {
        seen_counting* f = nullptr;
        (*this)(seen_counting_deserialize(data, size, &f));
        Counting(f);
        f = nullptr;
        (*this)(seen_counting_view(data, size, SEEN_OPEN_NO_VERIFY, &f));
        Counting(f);
        EachMode(data, size, path, false, [&](uint32_t mode) {
          seen_counting* g = nullptr;
          (*this)(seen_counting_open(path.c_str(), mode, &g));
          Counting(g);
        });
        break;
      }
      case Target::kScalable: {
        seen_scalable* f = nullptr;
        (*this)(seen_scalable_deserialize(data, size, &f));
        Scalable(f);
        EachMode(data, size, path, false, [&](uint32_t mode) {
          seen_scalable* g = nullptr;
          (*this)(seen_scalable_open(path.c_str(), mode, &g));
          Scalable(g);
        });
        break;
      }
      case Target::kWindow: {
        seen_window* w = nullptr;
        (*this)(seen_window_deserialize(data, size, &w));
        Window(w);
        break;
      }
      case Target::kStore:
        EachMode(data, size, path, false, [&](uint32_t mode) {
          seen_store* s = nullptr;
          (*this)(seen_store_open(path.c_str(), mode, &s));
          Store(s);
        });
        break;
      case Target::kSimhashIndex: {
        seen_simhash_index* index = nullptr;
        (*this)(seen_simhash_index_deserialize(data, size, &index));
        Index(index);
        index = nullptr;
        (*this)(seen_simhash_index_view(data, size, SEEN_OPEN_NO_VERIFY, &index));
        Index(index);
        EachMode(data, size, path, true, [&](uint32_t mode) {
          seen_simhash_index* g = nullptr;
          (*this)(seen_simhash_index_open(path.c_str(), mode, &g));
          Index(g);
        });
        break;
      }
    }
  }

  // Every kind's entry points.
  void All(const uint8_t* data, size_t size, const std::string& path) {
    for (Target kind : kTargets) One(kind, data, size, path);
  }

 private:
  static constexpr uint64_t kIds[4] = {0, 1, 2, 3};

  // Writes the bytes to path before each mode's open (a read-write open may change the
  // file), then removes it. read_only_modes: the kind opens only for reading.
  template <class Open>
  static void EachMode(const uint8_t* data, size_t size, const std::string& path, bool read_only_modes,
                       const Open& open) {
    for (uint32_t mode : kOpenModes) {
      if (read_only_modes && (mode & SEEN_OPEN_READ_ONLY) == 0) continue;
      if (!Write(data, size, path)) return;
      open(mode);
    }
    std::remove(path.c_str());
  }

  static bool Write(const uint8_t* data, size_t size, const std::string& path) {
    FILE* file = std::fopen(path.c_str(), "wb");
    if (file == nullptr) return false;
    const bool ok = std::fwrite(data, 1, size, file) == size;
    return std::fclose(file) == 0 && ok;
  }

  seen_status watch_;
  seen_status seen_ = SEEN_OK;
  std::string message_;
};

}  // namespace seen::test
