// A one-line progress bar on stderr, drawn only when stderr is a terminal: keys, keys/s, and
// with a known total, percent and ETA.
#pragma once

#include <chrono>
#include <cstdint>

namespace seen::cli {

class Progress {
 public:
  explicit Progress(uint64_t total_bytes);
  // Redraws at most ten times a second.
  void Update(uint64_t bytes_done, uint64_t keys_done);
  // Clears the line.
  void Finish();
  double seconds() const;

 private:
  using Clock = std::chrono::steady_clock;
  bool enabled_;
  uint64_t total_;
  Clock::time_point start_;
  Clock::time_point last_draw_;
};

}  // namespace seen::cli
