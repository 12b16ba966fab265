// The long stress run of "no false negatives", in the manner of RocksDB's db_stress: random
// operations on every kind through the C API with the exact expected state kept beside each
// (tests/exact_model.h), committed to disk together at checkpoints, so that bench/stress_run
// may kill -9 this process at any moment. On start it reopens each kind's last checkpoint and
// checks every key its model says must be found, then goes on from there. It runs until
// --seconds pass, so a run of days is many short ones, resumable from its directory.
//
// usage: bench_stress --dir DIR --seconds S
// Prints one line per kind on start (what it checked) and on exit (operations so far).
#include <seen/seen.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <random>
#include <unordered_map>
#include <string>
#include <vector>

#include "tests/exact_model.h"

namespace {

constexpr uint64_t kFilterKeys = 500000;  // filters start over past this many keys

using seen::test::BatchSize;
using seen::test::KeySource;

// What a checkpoint holds besides the structure's own file: the model, the clock, and the
// counts that a run of many processes adds up.
struct Progress {
  uint64_t ops = 0, checked = 0, reopens = 0, lost = 0;
  uint32_t now = 100000;
};

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "bench_stress: %s\n", what.c_str());
  std::exit(2);
}

void Check(seen_status s, const char* what) {
  if (s != SEEN_OK) Die(std::string(what) + ": " + seen_status_string(s));
}

// The expected state of one kind: keys and their counts (filters) or their latest clock
// (windows), as flat pairs, written and read whole.
struct Model {
  std::vector<std::pair<uint64_t, uint64_t>> pairs;  // key, count or clock
  std::unordered_map<uint64_t, size_t> where;
  void Set(uint64_t key, uint64_t value) {
    auto [it, added] = where.emplace(key, pairs.size());
    if (added) pairs.emplace_back(key, value);
    else pairs[it->second].second = value;
  }
  uint64_t Get(uint64_t key) const {
    auto it = where.find(key);
    return it == where.end() ? 0 : pairs[it->second].second;
  }
};

// One kind under stress: its structure, behind four calls, and its model.
struct Subject {
  std::string name;
  bool time = false;  // a window: the model's values are clocks, checked against the effective span
  std::function<void(const std::vector<uint64_t>&, uint32_t)> add;
  std::function<void(const std::vector<uint64_t>&, uint32_t, std::vector<uint8_t>&)> found;
  std::function<void(const std::string&)> save;
  std::function<bool(const std::string&)> open;  // false: no checkpoint yet, start empty
  std::function<uint32_t(uint32_t)> effective_span;
  std::function<void()> reset;  // an empty structure again
  uint64_t capacity = 0;        // filters: the keys past which the model and filter start over
  Model model;
  Progress progress;
};

std::string Read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Writes a file whole, then renames it into place: a kill leaves the old one or the new one.
void WriteAtomically(const std::string& path, const std::string& bytes) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) Die("cannot write " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) Die("cannot rename " + tmp);
}

// A checkpoint is generation g: the structure's file and the model's, both written before the
// pointer file names g, so the pointer always names a complete pair.
void Commit(Subject& s, const std::string& dir) {
  const std::string base = dir + "/" + s.name;
  const uint64_t gen = std::strtoull(Read(base + ".current").c_str(), nullptr, 10) + 1;
  s.save(base + "." + std::to_string(gen) + ".seen");
  std::string model(sizeof(Progress), '\0');
  std::memcpy(model.data(), &s.progress, sizeof(Progress));
  model.append(reinterpret_cast<const char*>(s.model.pairs.data()), s.model.pairs.size() * 16);
  WriteAtomically(base + "." + std::to_string(gen) + ".model", model);
  WriteAtomically(base + ".current", std::to_string(gen));
  std::remove((base + "." + std::to_string(gen - 1) + ".seen").c_str());
  std::remove((base + "." + std::to_string(gen - 1) + ".model").c_str());
}

// Opens the last checkpoint, and checks every key its model must find.
void Resume(Subject& s, const std::string& dir) {
  const std::string base = dir + "/" + s.name;
  const std::string gen = Read(base + ".current");
  if (gen.empty() || !s.open(base + "." + gen + ".seen")) return;
  const std::string model = Read(base + "." + gen + ".model");
  if (model.size() < sizeof(Progress) || (model.size() - sizeof(Progress)) % 16 != 0) Die(base + ": a torn model");
  std::memcpy(&s.progress, model.data(), sizeof(Progress));
  std::vector<std::pair<uint64_t, uint64_t>> pairs((model.size() - sizeof(Progress)) / 16);
  std::memcpy(pairs.data(), model.data() + sizeof(Progress), pairs.size() * 16);
  for (const auto& [key, value] : pairs) s.model.Set(key, value);
  const uint32_t now = s.progress.now;
  const uint32_t span = s.time ? s.effective_span(now) : 0;
  std::vector<uint64_t> must;
  for (const auto& [key, value] : pairs) {
    if (s.time ? int64_t{now} - static_cast<int64_t>(value) <= span : value > 0) must.push_back(key);
  }
  std::vector<uint8_t> out;
  s.found(must, now, out);
  uint64_t lost = 0;
  for (uint8_t o : out) lost += !o;
  s.progress.lost += lost;
  s.progress.checked += must.size();
  ++s.progress.reopens;
  std::printf("%s: reopened at %llu operations, %zu keys checked, %llu lost\n", s.name.c_str(),
              static_cast<unsigned long long>(s.progress.ops), must.size(), static_cast<unsigned long long>(lost));
  if (lost > 0) Die(s.name + ": keys lost across a kill");
}

// Filters through one of the three filter kinds' calls. A checkpoint reopens as a copy in
// memory: opened in place, a kill before the next sync would leave the checkpoint itself with
// a stale checksum (seen.h, SEEN_OPEN_WRITE_IN_PLACE).
template <class H>
Subject Filter(const std::string& name, std::function<H*()> create, seen_status (*add)(H*, const uint64_t*, size_t),
               seen_status (*contains)(const H*, const uint64_t*, size_t, uint8_t*),
               seen_status (*save)(const H*, const char*),
               seen_status (*deserialize)(const uint8_t*, size_t, H**, seen_error*), void (*free)(H*)) {
  auto handle = std::shared_ptr<H*>(new H*(create()), [free](H** h) { free(*h), delete h; });
  Subject s;
  s.name = name;
  s.reset = [=] { free(*handle), *handle = create(); };
  s.add = [=](const std::vector<uint64_t>& keys, uint32_t) { Check(add(*handle, keys.data(), keys.size()), "add"); };
  s.found = [=](const std::vector<uint64_t>& keys, uint32_t, std::vector<uint8_t>& out) {
    out.resize(keys.size());
    Check(contains(*handle, keys.data(), keys.size(), out.data()), "contains");
  };
  s.save = [=](const std::string& path) { Check(save(*handle, path.c_str()), "save"); };
  s.open = [=](const std::string& path) {
    H* opened = nullptr;
    seen_error err{};
    const std::string bytes = Read(path);
    if (deserialize(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), &opened, &err) != SEEN_OK) {
      Die(path + ": " + err.message);
    }
    free(*handle);
    *handle = opened;
    return true;
  };
  return s;
}

// A store of time windows capped tight, so its heavy users give up time and then rate.
Subject Store() {
  auto handle = std::shared_ptr<seen_store*>(new seen_store*(nullptr), [](seen_store** s) { seen_store_free(*s), delete s; });
  seen_window_options w{};
  w.size = sizeof w;
  w.mode = SEEN_WINDOW_TIME;
  w.span = 3600;
  w.expected_items = 100;
  w.fpr = 0.01;
  w.max_bytes = 8192;
  seen_store_options o{};
  o.size = sizeof o;
  o.window = &w;
  o.idle_timeout = UINT32_MAX;
  Check(seen_store_create(&o, handle.get(), nullptr), "store create");
  // One user per subject keeps the model a flat map: the store's many users are its other
  // subjects' job (tests/test_model_windows.cc); here it is the kill that matters.
  constexpr uint64_t kUser = 42;
  Subject s;
  s.name = "store";
  s.time = true;
  s.add = [=](const std::vector<uint64_t>& items, uint32_t now) { Check(seen_store_mark(*handle, kUser, items.data(), items.size(), now), "mark"); };
  s.found = [=](const std::vector<uint64_t>& items, uint32_t now, std::vector<uint8_t>& out) {
    out.resize(items.size());
    Check(seen_store_filter(*handle, kUser, items.data(), items.size(), now, out.data()), "filter");
    for (uint8_t& o : out) o = !o;
  };
  s.save = [=](const std::string& path) { Check(seen_store_save(*handle, path.c_str()), "store save"); };
  s.open = [=](const std::string& path) {
    seen_store* opened = nullptr;
    seen_error err{};
    if (seen_store_open(path.c_str(), SEEN_OPEN_PRIVATE_COPY, &opened, &err) != SEEN_OK) Die(path + ": " + err.message);
    seen_store_free(*handle);
    *handle = opened;
    return true;
  };
  s.reset = [] {};  // never called: a window forgets by itself
  s.effective_span = [=](uint32_t now) {
    seen_window_saturation sat{};
    sat.size = sizeof sat;
    return seen_store_get_user_saturation(*handle, kUser, now, &sat) == SEEN_OK ? sat.effective_span : 3600u;
  };
  return s;
}

// The model keeps what a later check needs: a filter past its capacity starts over, empty (so
// its rate stays meaningful), and a window forgets items two spans old.
void Trim(Subject& s) {
  Model kept;
  if (s.time) {
    for (const auto& [key, at] : s.model.pairs) {
      if (at + 2 * 3600 >= s.progress.now) kept.Set(key, at);
    }
  } else if (s.model.pairs.size() >= s.capacity) {
    s.reset();
  } else {
    return;
  }
  s.model = std::move(kept);
}

// Runs random operations on one subject until `until`, then commits a checkpoint.
void Stress(Subject& s, const std::string& dir, std::chrono::steady_clock::time_point until) {
  constexpr uint64_t every = 1000;  // operations between looks at the clock
  std::mt19937_64 rng(s.progress.ops * 0x9E3779B97F4A7C15ULL + std::hash<std::string>{}(s.name));
  KeySource keys(s.progress.ops + 1);  // fresh keys of a new stream each resume
  std::vector<uint64_t> batch;
  std::vector<uint8_t> out;
  while (std::chrono::steady_clock::now() < until) {
    Trim(s);
    for (uint64_t i = 0; i < every; ++i, ++s.progress.ops) {
      batch.resize(BatchSize(rng));
      for (uint64_t& k : batch) {
        k = s.model.pairs.empty() || rng() % 4 != 0 ? keys.Fresh() : s.model.pairs[rng() % s.model.pairs.size()].first;
      }
      uint32_t& now = s.progress.now;
      if (s.time && rng() % 3 == 0) now += rng() % 100 == 0 ? 2000 : static_cast<uint32_t>(rng() % 4);
      s.add(batch, now);
      for (uint64_t k : batch) s.model.Set(k, s.time ? now : s.model.Get(k) + 1);
      s.found(batch, now, out);  // the keys of the call just made, at once
      for (uint8_t o : out) {
        if (!o) Die(s.name + ": a key of the call just made was lost");
      }
    }
  }
  Commit(s, dir);
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // each line reaches the log before a kill can
  std::string dir;
  double seconds = 60;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--dir") == 0) dir = argv[i + 1];
    else if (std::strcmp(argv[i], "--seconds") == 0) seconds = std::atof(argv[i + 1]);
    else Die(std::string("unknown option ") + argv[i]);
  }
  if (dir.empty()) Die("usage: bench_stress --dir DIR --seconds S");
  std::vector<Subject> subjects;
  subjects.push_back(Filter<seen_bloom>("bloom", [] { seen_bloom* f; Check(seen_bloom_create(kFilterKeys, 0.01, 1, &f, nullptr), "create"); return f; },
      seen_bloom_add_u64, seen_bloom_contains_u64, seen_bloom_save, seen_bloom_deserialize, seen_bloom_free));
  subjects.push_back(Filter<seen_counting>("counting", [] { seen_counting* f; Check(seen_counting_create(kFilterKeys, 0.01, 2, &f, nullptr), "create"); return f; },
      seen_counting_add_u64, seen_counting_contains_u64, seen_counting_save, seen_counting_deserialize, seen_counting_free));
  subjects.push_back(Filter<seen_scalable>("scalable", [] {
        seen_scalable_options o{};
        o.size = sizeof o, o.initial_capacity = 10000, o.fpr = 0.01;
        seen_scalable* f;
        Check(seen_scalable_create(&o, &f, nullptr), "create");
        return f;
      },
      seen_scalable_add_u64, seen_scalable_contains_u64, seen_scalable_save, seen_scalable_deserialize, seen_scalable_free));
  subjects.push_back(Store());
  for (Subject& s : subjects) {
    s.capacity = kFilterKeys;
    Resume(s, dir);
  }
  // The kinds take turns in slices of two seconds, so a kill can land in any of them.
  const auto end = std::chrono::steady_clock::now() +
                   std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
  while (std::chrono::steady_clock::now() < end) {
    for (Subject& s : subjects) Stress(s, dir, std::min<std::chrono::steady_clock::time_point>(end, std::chrono::steady_clock::now() + std::chrono::seconds(2)));
  }
  for (const Subject& s : subjects) {
    std::printf("%s: %llu operations, %llu reopens, %llu keys checked after reopens, %llu lost\n", s.name.c_str(),
                static_cast<unsigned long long>(s.progress.ops), static_cast<unsigned long long>(s.progress.reopens),
                static_cast<unsigned long long>(s.progress.checked), static_cast<unsigned long long>(s.progress.lost));
  }
  return 0;
}
