// Hands bytes to every entry point of capi/seen.h that reads a container: each kind's
// deserialize and view, and a file of those bytes to each kind's open in every mode. Whatever
// loads is queried, added to and serialized again, so a head field that could size a later
// allocation is exercised too. Shared by the fuzz targets and the address-space sweep.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <string>

#include "seen.h"
#include "tests/flat_kinds.h"

namespace seen::test {

// A kind that opens only for reading has no writable mode.
constexpr uint32_t kNoWritableMode = 0;

// The kinds, each with its own fuzz target (SEEN_FUZZ_TARGET is its number here).
enum class Target { kBloom, kCounting, kScalable, kWindow, kStore, kSimhashIndex, kMinhashIndex };
constexpr Target kTargets[] = {Target::kBloom,  Target::kCounting, Target::kScalable,     Target::kWindow,
                               Target::kStore,  Target::kSimhashIndex, Target::kMinhashIndex};

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

  // A loaded Bloom or counting filter (Api: tests/flat_kinds.h).
  template <class Api>
  void Flat(typename Api::Handle* f) {
    if (f == nullptr) return;
    uint8_t out[4];
    (*this)(Api::contains(f, kIds, 4, out));
    (*this)(Api::add(f, kIds, 4));
    size_t size = 0;
    (*this)(Api::serialize(f, nullptr, 0, &size));
    Api::free(f);
  }

  // Every entry point of a Bloom or counting filter.
  template <class Api>
  void FlatKind(const uint8_t* data, size_t size, const std::string& path) {
    Deserialized(data, size, Api::deserialize, &Exercise::Flat<Api>);
    typename Api::Handle* f = nullptr;
    (*this)(Api::view(data, size, SEEN_OPEN_NO_VERIFY, &f, nullptr));
    Flat<Api>(f);
    EachMode(data, size, path, SEEN_OPEN_WRITE_IN_PLACE, Api::open, &Exercise::Flat<Api>);
  }

  void Scalable(seen_scalable* f) {
    if (f == nullptr) return;
    uint8_t out[4];
    (*this)(seen_scalable_contains_u64(f, kIds, 4, out));
    // New keys, a batch at a time, until the newest sub-filter fills and the next one is made;
    // at most kScalableAdds, so a newest sub-filter too large to fill is only added to.
    const size_t size = SerializedSize(f);
    uint64_t keys[kScalableBatch];
    for (uint64_t added = 0; added < kScalableAdds; added += kScalableBatch) {
      for (uint64_t i = 0; i < kScalableBatch; ++i) keys[i] = (added + i) * 0x9E3779B97F4A7C15ULL + 11;
      if ((*this)(seen_scalable_add_u64(f, keys, kScalableBatch)) != SEEN_OK || SerializedSize(f) != size) break;
    }
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

  void Minhash(seen_minhash_index* index) {
    if (index == nullptr) return;
    static const char kText[] = "a text to query and to add";
    size_t found = 0;
    (*this)(seen_minhash_index_query_text(index, kText, sizeof kText - 1, nullptr, nullptr, 0, &found));
    (*this)(seen_minhash_index_add_text(index, 1, kText, sizeof kText - 1));
    seen_minhash_index_free(index);
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
  // them at path in every mode the kind has (removed after).
  void One(Target kind, const uint8_t* data, size_t size, const std::string& path) {
    switch (kind) {
      case Target::kBloom:
        FlatKind<BloomApi>(data, size, path);
        break;
      case Target::kCounting:
        FlatKind<CountingApi>(data, size, path);
        break;
      case Target::kScalable:
        Deserialized(data, size, seen_scalable_deserialize, &Exercise::Scalable);
        EachMode(data, size, path, SEEN_OPEN_PRIVATE_COPY, seen_scalable_open, &Exercise::Scalable);
        break;
      case Target::kWindow:
        Deserialized(data, size, seen_window_deserialize, &Exercise::Window);
        break;
      case Target::kStore:
        EachMode(data, size, path, SEEN_OPEN_PRIVATE_COPY, seen_store_open, &Exercise::Store);
        break;
      case Target::kSimhashIndex: {
        Deserialized(data, size, seen_simhash_index_deserialize, &Exercise::Index);
        seen_simhash_index* index = nullptr;
        (*this)(seen_simhash_index_view(data, size, SEEN_OPEN_NO_VERIFY, &index, nullptr));
        Index(index);
        EachMode(data, size, path, kNoWritableMode, seen_simhash_index_open, &Exercise::Index);
        break;
      }
      case Target::kMinhashIndex: {
        seen_minhash_index* index = nullptr;
        (*this)(seen_minhash_index_deserialize(data, size, nullptr, 0, &index, nullptr));
        Minhash(index);
        EachMode(data, size, path, SEEN_OPEN_PRIVATE_COPY, &OpenUnkeyedMinhash, &Exercise::Minhash);
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
  // Enough to fill a small newest sub-filter (the seed's has 60 places left) and make the next.
  static constexpr uint64_t kScalableAdds = 2000;
  static constexpr uint64_t kScalableBatch = 50;

  // Grows with each new sub-filter (and costs little, unlike seen_scalable_get_info, which
  // sums each sub-filter's predicted rate).
  size_t SerializedSize(const seen_scalable* f) {
    size_t size = 0;
    (*this)(seen_scalable_serialize(f, nullptr, 0, &size));
    return size;
  }

  // seen_minhash_index_open without a key, in the shape EachMode calls.
  static seen_status OpenUnkeyedMinhash(const char* path, uint32_t flags, seen_minhash_index** out, seen_error* err) {
    return seen_minhash_index_open(path, flags, nullptr, 0, out, err);
  }

  // Deserializes the bytes and hands what loads to `use`.
  template <class Handle>
  void Deserialized(const uint8_t* data, size_t size, seen_status (*deserialize)(const uint8_t*, size_t, Handle**, seen_error*),
                    void (Exercise::*use)(Handle*)) {
    Handle* loaded = nullptr;
    (*this)(deserialize(data, size, &loaded, nullptr));
    (this->*use)(loaded);
  }

  // Opens a file of the bytes read-only and in the kind's writable mode (kNoWritableMode for
  // none), each with and without SEEN_OPEN_NO_VERIFY, and hands what loads to `use`. The file
  // is written once, and again only after a write-in-place open loaded: that mode maps it
  // shared and writable, so the adds and the reseal on free change it. Read-only and
  // private-copy opens map it read-only. The file is removed after.
  template <class Handle>
  void EachMode(const uint8_t* data, size_t size, const std::string& path, uint32_t writable,
                seen_status (*open)(const char*, uint32_t, Handle**, seen_error*), void (Exercise::*use)(Handle*)) {
    bool file_holds_data = false;
    for (uint32_t mode : {SEEN_OPEN_READ_ONLY, writable}) {
      if (mode == kNoWritableMode) continue;
      for (uint32_t verify : {0u, SEEN_OPEN_NO_VERIFY}) {
        if (!file_holds_data && !Write(data, size, path)) return;
        file_holds_data = true;
        Handle* loaded = nullptr;
        (*this)(open(path.c_str(), mode | verify, &loaded, nullptr));
        if (loaded != nullptr && mode == SEEN_OPEN_WRITE_IN_PLACE) file_holds_data = false;
        (this->*use)(loaded);
      }
    }
    unlink(path.c_str());
  }

  // The bytes as the whole of the file at path, through plain syscalls: no stdio buffer to
  // allocate per input.
  static bool Write(const uint8_t* data, size_t size, const std::string& path) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return false;
    size_t done = 0;
    while (done < size) {
      const ssize_t n = ::write(fd, data + done, size - done);
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
    return ::close(fd) == 0 && done == size;
  }

  seen_status watch_;
  seen_status seen_ = SEEN_OK;
  std::string message_;
};

}  // namespace seen::test
