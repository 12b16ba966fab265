#include "cli/progress.h"

#include <unistd.h>

#include <cstdio>
#include <string>

namespace seen::cli {

Progress::Progress(uint64_t total_bytes, const char* unit)
    : enabled_(isatty(STDERR_FILENO) != 0), unit_(unit), total_(total_bytes), start_(Clock::now()),
      last_draw_(start_) {}

double Progress::seconds() const {
  return std::chrono::duration<double>(Clock::now() - start_).count();
}

void Progress::Update(uint64_t bytes_done, uint64_t items_done) {
  if (!enabled_) return;
  const auto now = Clock::now();
  if (now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  const double elapsed = seconds();
  const double rate = elapsed > 0 ? items_done / elapsed : 0;
  if (total_ > 0) {
    const double done = static_cast<double>(bytes_done) / static_cast<double>(total_);
    const int width = 30;
    const int filled = static_cast<int>(done * width);
    const double eta = done > 0 ? elapsed * (1 - done) / done : 0;
    std::fprintf(stderr, "\r[%s%s] %5.1f%%  %.1fM %s  %.1fM %s/s  ETA %.0fs ",
                 std::string(filled, '#').c_str(), std::string(width - filled, ' ').c_str(),
                 done * 100, items_done / 1e6, unit_, rate / 1e6, unit_, eta);
  } else {
    std::fprintf(stderr, "\r%.1fM %s  %.1fM %s/s ", items_done / 1e6, unit_, rate / 1e6, unit_);
  }
  std::fflush(stderr);
}

void Progress::Finish() {
  if (enabled_) std::fprintf(stderr, "\r\033[K");
}

}  // namespace seen::cli
