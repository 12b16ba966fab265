// Key input for the CLI: one key per line. A trailing \r is dropped (CRLF files), empty lines
// are skipped, and every other byte is part of the key as it is (invalid UTF-8 included).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace seen::cli {

// Keys packed for the data + offsets batch calls.
struct KeyBatch {
  std::vector<uint8_t> data;
  std::vector<uint64_t> offsets{0};
  std::vector<std::string_view> lines;  // the keys as text, for printing

  size_t size() const { return offsets.size() - 1; }
  void Add(const char* key, size_t len);
  void Clear();
};

constexpr size_t kBatchKeys = 4096;

// Splits [begin, end) into keys and hands them to sink in batches of up to kBatchKeys.
void ForEachBatch(const char* begin, const char* end,
                  const std::function<void(const KeyBatch&)>& sink);

// A file or stdin ("-") read in large chunks that end on a line boundary. Regular files are
// mapped; pipes are read. Errors name the path.
class LineSource {
 public:
  static std::unique_ptr<LineSource> Open(const std::string& path);
  virtual ~LineSource() = default;
  // Total bytes if known (regular files), else 0.
  virtual uint64_t size() const = 0;
  // The next chunk; false at the end.
  virtual bool Next(const char** begin, const char** end) = 0;
};

}  // namespace seen::cli
