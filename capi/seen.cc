// The C shim's shared parts: status names, failing (to this thread's last error and to the
// call's own target, report.h), the version.
#include "capi/seen.h"

#include <string>
#include <utility>

#include "capi/report.h"
#include "capi/shim.h"
#include "core/error.h"

static_assert(SEEN_ERR_NOT_FOUND == static_cast<int>(seen::Code::kNotFound),
              "seen_status and seen::Code must keep the same numbers");

namespace seen::capi {

namespace {
thread_local std::string last_error;
}  // namespace

seen_status Fail(seen_status status, std::string message) {
  ReportTo::Report(status, message);
  last_error = std::move(message);
  return status;
}

}  // namespace seen::capi

extern "C" {

const char* seen_status_string(seen_status s) {
  switch (s) {
    case SEEN_OK: return "SEEN_OK";
    case SEEN_ERR_INVALID_ARGUMENT: return "SEEN_ERR_INVALID_ARGUMENT";
    case SEEN_ERR_NO_MEMORY: return "SEEN_ERR_NO_MEMORY";
    case SEEN_ERR_IO: return "SEEN_ERR_IO";
    case SEEN_ERR_BAD_MAGIC: return "SEEN_ERR_BAD_MAGIC";
    case SEEN_ERR_UNSUPPORTED_VERSION: return "SEEN_ERR_UNSUPPORTED_VERSION";
    case SEEN_ERR_TRUNCATED: return "SEEN_ERR_TRUNCATED";
    case SEEN_ERR_BAD_CHECKSUM: return "SEEN_ERR_BAD_CHECKSUM";
    case SEEN_ERR_INCONSISTENT: return "SEEN_ERR_INCONSISTENT";
    case SEEN_ERR_WRONG_KIND: return "SEEN_ERR_WRONG_KIND";
    case SEEN_ERR_TOO_LARGE: return "SEEN_ERR_TOO_LARGE";
    case SEEN_ERR_READ_ONLY: return "SEEN_ERR_READ_ONLY";
    case SEEN_ERR_INCOMPATIBLE: return "SEEN_ERR_INCOMPATIBLE";
    case SEEN_ERR_BUFFER_TOO_SMALL: return "SEEN_ERR_BUFFER_TOO_SMALL";
    case SEEN_ERR_INTERNAL: return "SEEN_ERR_INTERNAL";
    case SEEN_ERR_NOT_FOUND: return "SEEN_ERR_NOT_FOUND";
    case SEEN_STATUS_MAX_ENUM: break;
  }
  return "SEEN_ERR_UNKNOWN_STATUS";
}

const char* seen_last_error(void) { return seen::capi::last_error.c_str(); }

uint32_t seen_version_number(void) { return SEEN_VERSION_NUMBER; }

}  // extern "C"
