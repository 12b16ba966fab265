// What the filter benchmarks share: their keys, the median timer, and the random-read floor
// that every figure is compared with in the same run (DESIGN, performance model).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include "core/block.h"
#include "core/region.h"
#include "core/splitmix.h"

namespace seen::bench {

// Nanoseconds per key, the median over reps: elapsed, and CPU time of the whole process (all
// its threads). On a machine shared with other jobs, CPU time leaves out the time the
// benchmark waited for a core.
struct Timing {
  double wall_ns;
  double cpu_ns;
};

inline double ProcessCpuNs() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

// Setup runs before each rep, untimed.
template <class Body, class Setup>
Timing Measure(int reps, size_t keys, Body&& body, Setup&& setup) {
  std::vector<double> wall, cpu;
  for (int r = 0; r < reps; ++r) {
    setup();
    const double cpu_start = ProcessCpuNs();
    const auto start = std::chrono::steady_clock::now();
    body();
    const std::chrono::duration<double, std::nano> took = std::chrono::steady_clock::now() - start;
    cpu.push_back((ProcessCpuNs() - cpu_start) / static_cast<double>(keys));
    wall.push_back(took.count() / static_cast<double>(keys));
  }
  std::sort(wall.begin(), wall.end());
  std::sort(cpu.begin(), cpu.end());
  return {wall[wall.size() / 2], cpu[cpu.size() / 2]};
}

template <class Body>
Timing Measure(int reps, size_t keys, Body&& body) {
  return Measure(reps, keys, body, [] {});
}

template <class Body, class Setup>
double MedianNs(int reps, size_t keys, Body&& body, Setup&& setup) {
  return Measure(reps, keys, body, setup).wall_ns;
}

template <class Body>
double MedianNs(int reps, size_t keys, Body&& body) {
  return Measure(reps, keys, body).wall_ns;
}

// One operation of an interleaved run: body does `keys` keys' work; setup runs before it,
// untimed (e.g. clearing a filter that body adds to).
struct Step {
  std::string name;
  size_t keys;
  std::function<void()> body;
  std::function<void()> setup = [] {};
};

inline double ThreadCpuNs() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

// Runs every step once per round, in turn, for `rounds` rounds, so that a shared machine's
// drift falls on all of them alike; the median of each step's thread CPU ns per key, in order.
inline std::vector<double> Interleave(const std::vector<Step>& steps, int rounds) {
  std::vector<std::vector<double>> ns(steps.size());
  for (int r = 0; r < rounds; ++r) {
    for (size_t i = 0; i < steps.size(); ++i) {
      steps[i].setup();
      const double start = ThreadCpuNs();
      steps[i].body();
      ns[i].push_back((ThreadCpuNs() - start) / static_cast<double>(steps[i].keys));
    }
  }
  std::vector<double> medians;
  for (auto& times : ns) {
    std::sort(times.begin(), times.end());
    medians.push_back(times[times.size() / 2]);
  }
  return medians;
}

// The floor: one random 64-byte read per key over a buffer as big as the filter, batched
// with the same prefetch distance. The line offsets are computed beforehand, so the floor
// is memory alone, with no hashing.
inline Timing Floor(uint64_t bytes, const std::vector<uint64_t>& ids, int reps) {
  Region buffer = Region::Allocate(bytes);
  std::memset(buffer.data(), 1, bytes);  // commit every page, as a filled filter has
  const auto* words = reinterpret_cast<const uint64_t*>(buffer.data());
  const uint64_t lines = bytes / 64;
  std::vector<uint64_t> offsets(ids.size());
  for (size_t i = 0; i < ids.size(); ++i) offsets[i] = BlockIndex(SplitMix64(ids[i]), lines) * 8;
  constexpr size_t kAhead = 32;  // the kernels' prefetch distance (core/kernels.cc)
  volatile uint64_t sink = 0;
  const size_t n = ids.size();
  return Measure(reps, n, [&] {
    uint64_t acc = 0;
    for (size_t i = 0; i < n; ++i) {
      if (i + kAhead < n) __builtin_prefetch(words + offsets[i + kAhead]);
      acc ^= words[offsets[i]];
    }
    sink = acc;
  });
}

}  // namespace seen::bench
