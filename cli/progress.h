// A one-line progress bar on stderr, drawn only when stderr is a terminal: items (keys or
// documents), items/s, and with a known total, percent and ETA.
#pragma once

#include <chrono>
#include <cstdint>

namespace seen::cli {

class Progress {
 public:
  // `unit` names the items counted, e.g. "keys" or "documents".
  Progress(uint64_t total_bytes, const char* unit);
  // Redraws at most ten times a second.
  void Update(uint64_t bytes_done, uint64_t items_done);
  // Clears the line.
  void Finish();
  double seconds() const;

 private:
  using Clock = std::chrono::steady_clock;
  bool enabled_;
  const char* unit_;
  uint64_t total_;
  Clock::time_point start_;
  Clock::time_point last_draw_;
};

}  // namespace seen::cli
