// Errors of the core: a code (the same numbers as seen_status in capi/seen.h) and a message
// that names the file, the field and what was expected. The core throws seen::Error; the C
// shim catches it, so no exception crosses the ABI. Checks of bytes read from outside, where
// refusals are common, return a Status instead, and their throwing forms throw it.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

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

// A check's verdict as a value: ok, or the code and message of the Error its throwing form
// throws. A refusal then costs no unwinding, which takes longer than finding it does, for
// callers that meet bad bytes often: a Redis server given SEEN.* payloads, a fuzz target.
struct Status {
  Code code = Code::kOk;
  std::string message;

  bool ok() const { return code == Code::kOk; }
  static Status Refused(Code code, std::string message) { return {code, std::move(message)}; }
};

// Throws the Error a refusal describes; returns for an ok status.
inline void ThrowIfRefused(const Status& status) {
  if (!status.ok()) throw Error(status.code, status.message);
}

}  // namespace seen
