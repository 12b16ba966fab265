// Hands bytes to every entry point of capi/seen.h that reads a container: each kind's
// deserialize and view, and a file of those bytes to each kind's open in every mode. Whatever
// loads is queried, added to and serialized again, so a head field that could size a later
// allocation is exercised too. Shared by the fuzz targets and the address-space sweep.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "seen.h"
#include "tests/flat_kinds.h"
#include "tests/fuzz_scratch_file.h"

namespace seen::test {

// A kind that opens only for reading has no writable mode.
constexpr uint32_t kNoWritableMode = 0;

// The kinds, each with its own fuzz target (SEEN_FUZZ_TARGET is its number here).
enum class Target { kBloom, kCounting, kScalable, kWindow, kStore, kSimhashIndex, kMinhashIndex };
constexpr Target kTargets[] = {Target::kBloom,  Target::kCounting, Target::kScalable,     Target::kWindow,
                               Target::kStore,  Target::kSimhashIndex, Target::kMinhashIndex};

// Which entry points an input reaches.
//
// Every entry point of a kind validates the bytes with the same code, from a buffer or from a
// mapped file: core/format.cc's ParseContainer, then the kind's decode of its params and
// payload; SEEN_OPEN_NO_VERIFY skips only the payload checksum, and a mode changes only what
// is done with bytes that validated. So once one entry point refused the bytes themselves
// (RefusesBytes below), every later one refuses them by the same check, and a fuzz target can
// skip those calls with the file writes and exception unwinds they cost. The first call is
// always an in-memory one where the kind has one (its deserialize): it reads libFuzzer's
// exactly-sized heap copy, where ASan sees a read past the end that a mapped file would hide
// up to the end of its page.
enum class Reach {
  // Every entry point, whatever the earlier ones answered (the address-space sweep).
  kEvery,
  // Only the entry points that could load the bytes after what the earlier ones answered: the
  // per-kind fuzz targets.
  kWhereLoadable,
  // Every entry point, and abort if one loads bytes an earlier one refused, which would mean
  // kWhereLoadable skips a call that matters: fuzz_container, the CI smoke pass, checks the
  // premise above on every input.
  kEveryChecked,
};

// The first status equal to `watch` any call returned, so a caller can tell a refusal by
// validation from one by exhaustion; SEEN_OK if none did.
class Exercise {
 public:
  explicit Exercise(seen_status watch, Reach reach = Reach::kEvery) : watch_(watch), reach_(reach) {}
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
  void FlatKind(const uint8_t* data, size_t size, ScratchFile& file) {
    Loadable may;
    Load(may, kVerifies, [&](auto** out) { return Api::deserialize(data, size, out, nullptr); }, &Exercise::Flat<Api>);
    Load(may, !kVerifies, [&](auto** out) { return Api::view(data, size, SEEN_OPEN_NO_VERIFY, out, nullptr); },
         &Exercise::Flat<Api>);
    EachMode(may, data, size, file, SEEN_OPEN_WRITE_IN_PLACE, Api::open, &Exercise::Flat<Api>);
  }

  void Scalable(seen_scalable* f) {
    if (f == nullptr) return;
    uint8_t out[4];
    (*this)(seen_scalable_contains_u64(f, kIds, 4, out));
    // New keys, a batch at a time, until the newest sub-filter fills and the next one is made;
    // at most kScalableAdds, so a newest sub-filter too large to fill is only added to. Only
    // the first handle of the bytes that takes adds grows: a later one that takes them is a
    // private copy built from the same bytes as that first one (deserialize and
    // SEEN_OPEN_PRIVATE_COPY build alike), so it gets one batch.
    const size_t size = SerializedSize(f);
    const uint64_t adds = scalable_grown_ ? kScalableBatch : kScalableAdds;
    uint64_t keys[kScalableBatch];
    for (uint64_t added = 0; added < adds; added += kScalableBatch) {
      for (uint64_t i = 0; i < kScalableBatch; ++i) keys[i] = (added + i) * 0x9E3779B97F4A7C15ULL + 11;
      if ((*this)(seen_scalable_add_u64(f, keys, kScalableBatch)) != SEEN_OK) break;
      scalable_grown_ = true;
      if (SerializedSize(f) != size) break;
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

  // Every entry point of one kind: deserialize and view of the bytes, then open of the bytes
  // as `file` in every mode the kind has (the file removed after, if it is a named one).
  void One(Target kind, const uint8_t* data, size_t size, ScratchFile& file) {
    switch (kind) {
      case Target::kBloom: return One<Target::kBloom>(data, size, file);
      case Target::kCounting: return One<Target::kCounting>(data, size, file);
      case Target::kScalable: return One<Target::kScalable>(data, size, file);
      case Target::kWindow: return One<Target::kWindow>(data, size, file);
      case Target::kStore: return One<Target::kStore>(data, size, file);
      case Target::kSimhashIndex: return One<Target::kSimhashIndex>(data, size, file);
      case Target::kMinhashIndex: return One<Target::kMinhashIndex>(data, size, file);
    }
  }

  // The same, the kind fixed at compile time: the compiler leaves out the other kinds' arms,
  // so a per-kind fuzz target references, and links (tests/meson.build), only its kind's
  // entry points.
  template <Target kind>
  void One(const uint8_t* data, size_t size, ScratchFile& file) {
    Loadable may;
    switch (kind) {
      case Target::kBloom:
        FlatKind<BloomApi>(data, size, file);
        break;
      case Target::kCounting:
        FlatKind<CountingApi>(data, size, file);
        break;
      case Target::kScalable:
        Load(may, kVerifies, [&](auto** out) { return seen_scalable_deserialize(data, size, out, nullptr); },
             &Exercise::Scalable);
        EachMode(may, data, size, file, SEEN_OPEN_PRIVATE_COPY, seen_scalable_open, &Exercise::Scalable);
        break;
      case Target::kWindow:
        Load(may, kVerifies, [&](auto** out) { return seen_window_deserialize(data, size, out, nullptr); },
             &Exercise::Window);
        break;
      case Target::kStore:
        EachMode(may, data, size, file, SEEN_OPEN_PRIVATE_COPY, seen_store_open, &Exercise::Store);
        break;
      case Target::kSimhashIndex:
        Load(may, kVerifies, [&](auto** out) { return seen_simhash_index_deserialize(data, size, out, nullptr); },
             &Exercise::Index);
        Load(may, !kVerifies,
             [&](auto** out) { return seen_simhash_index_view(data, size, SEEN_OPEN_NO_VERIFY, out, nullptr); },
             &Exercise::Index);
        EachMode(may, data, size, file, kNoWritableMode, seen_simhash_index_open, &Exercise::Index);
        break;
      case Target::kMinhashIndex:
        Load(may, kVerifies,
             [&](auto** out) { return seen_minhash_index_deserialize(data, size, nullptr, 0, out, nullptr); },
             &Exercise::Minhash);
        EachMode(may, data, size, file, SEEN_OPEN_PRIVATE_COPY, &OpenUnkeyedMinhash, &Exercise::Minhash);
        break;
    }
  }

  // The same, the file a new one at path.
  void One(Target kind, const uint8_t* data, size_t size, const std::string& path) {
    ScratchFile file(path);
    One(kind, data, size, file);
  }

  // Every kind's entry points.
  void All(const uint8_t* data, size_t size, ScratchFile& file) {
    for (Target kind : kTargets) One(kind, data, size, file);
  }

 private:
  static constexpr uint64_t kIds[4] = {0, 1, 2, 3};
  // Enough to fill a small newest sub-filter (the seed's has 60 places left) and make the next.
  static constexpr uint64_t kScalableAdds = 2000;
  static constexpr uint64_t kScalableBatch = 50;
  static constexpr bool kVerifies = true;

  // What the calls so far tell of the bytes: whether a later call that checks the payload
  // checksum (verified), and one that does not (unverified), could still load them.
  struct Loadable {
    bool verified = true;
    bool unverified = true;
  };

  // Whether a call's status refuses the bytes themselves, by a check every entry point of the
  // kind makes (a bad checksum only when `checksum_counts`: it may be the payload's, which
  // unverified calls skip). Running out of memory or failing I/O says nothing of the bytes.
  static bool RefusesBytes(seen_status status, bool checksum_counts) {
    switch (status) {
      case SEEN_ERR_BAD_MAGIC:
      case SEEN_ERR_UNSUPPORTED_VERSION:
      case SEEN_ERR_TRUNCATED:
      case SEEN_ERR_INCONSISTENT:
      case SEEN_ERR_WRONG_KIND:
      case SEEN_ERR_TOO_LARGE:
      case SEEN_ERR_INCOMPATIBLE:
        return true;
      case SEEN_ERR_BAD_CHECKSUM:
        return checksum_counts;
      default:
        return false;
    }
  }

  // Whether a call that does (or does not) verify the payload is to be made. Under
  // kWhereLoadable it is made only if it could load the bytes; otherwise always.
  bool Reaches(const Loadable& may, bool verifies) const {
    return reach_ != Reach::kWhereLoadable || (verifies ? may.verified : may.unverified);
  }

  // Makes one entry point call, `call(&handle)`, if Reaches says so; hands what loads to `use`
  // and learns the status into `may`. Under kEveryChecked, a load of bytes an earlier call
  // refused aborts: the premise of Reach broke.
  template <class Handle, class Call>
  void Load(Loadable& may, bool verifies, Call&& call, void (Exercise::*use)(Handle*)) {
    if (!Reaches(may, verifies)) return;
    Handle* loaded = nullptr;
    const seen_status status = (*this)(call(&loaded));
    if (reach_ == Reach::kEveryChecked && loaded != nullptr && !(verifies ? may.verified : may.unverified)) {
      std::fprintf(stderr, "every_kind.h: a %s call loaded bytes an earlier call refused as invalid\n",
                   verifies ? "verifying" : "non-verifying");
      std::abort();
    }
    // A verifying call's bad checksum may be the payload's, which an unverified call skips; an
    // unverified call's refusal is one a verifying call makes too.
    may.verified = may.verified && !RefusesBytes(status, true);
    may.unverified = may.unverified && !RefusesBytes(status, !verifies);
    (this->*use)(loaded);
  }

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

  // Opens the bytes as `file` read-only and in the kind's writable mode (kNoWritableMode for
  // none), each with and without SEEN_OPEN_NO_VERIFY, as far as Reaches lets, and hands what
  // loads to `use`. The file is written before the first open made, and again only after a
  // write-in-place open loaded: that mode maps it shared and writable, so the adds and the
  // reseal on free change it. Read-only and private-copy opens map it read-only. A named file
  // is removed after.
  template <class Handle>
  void EachMode(Loadable& may, const uint8_t* data, size_t size, ScratchFile& file, uint32_t writable,
                seen_status (*open)(const char*, uint32_t, Handle**, seen_error*), void (Exercise::*use)(Handle*)) {
    bool file_holds_data = false;
    for (uint32_t mode : {SEEN_OPEN_READ_ONLY, writable}) {
      if (mode == kNoWritableMode) continue;
      for (uint32_t verify : {0u, SEEN_OPEN_NO_VERIFY}) {
        if (!Reaches(may, verify == 0)) continue;
        if (!file_holds_data && !file.Write(data, size)) {
          file.Remove();
          return;
        }
        file_holds_data = true;
        Load(may, verify == 0, [&](Handle** out) {
          const seen_status status = open(file.path().c_str(), mode | verify, out, nullptr);
          if (*out != nullptr && mode == SEEN_OPEN_WRITE_IN_PLACE) file_holds_data = false;
          return status;
        }, use);
      }
    }
    file.Remove();
  }

  seen_status watch_;
  Reach reach_;
  // Whether a scalable filter of these bytes took the growth adds (Scalable).
  bool scalable_grown_ = false;
  seen_status seen_ = SEEN_OK;
  std::string message_;
};

}  // namespace seen::test
