// Errors of the core: a code (the same numbers as seen_status in capi/seen.h) and a message
// that names the file, the field and what was expected. The core throws seen::Error; the C
// shim catches it, so no exception crosses the ABI.
#pragma once

#include <stdexcept>
#include <string>

namespace seen {

enum class Code : int {
  kOk = 0,
  kInvalidArgument = 1,
  kNoMemory = 2,
  kIo = 3,
  kBadMagic = 4,
  kUnsupportedVersion = 5,
  kTruncated = 6,
  kBadChecksum = 7,
  kInconsistent = 8,
  kWrongKind = 9,
  kTooLarge = 10,
  kReadOnly = 11,
  kIncompatible = 12,
  kBufferTooSmall = 13,
  kInternal = 14,
  kNotFound = 15,
};

class Error : public std::runtime_error {
 public:
  Error(Code code, const std::string& message) : std::runtime_error(message), code_(code) {}
  Code code() const { return code_; }

 private:
  Code code_;
};

}  // namespace seen
