// Where a failing C call's message goes besides this thread's seen_last_error(): the handle it
// was called on (read back with seen_<kind>_last_error from any thread), or the caller's
// seen_error for a call that has no handle yet. Each C function names its target once, at its
// top, with a ReportTo; Fail (shim.h) writes to whatever target the current call named.
#pragma once

#include <string>

#include "capi/seen.h"

namespace seen::capi {

// Copies status and message into *err, truncating the message to fit (always NUL-ended).
void FillError(seen_error* err, seen_status status, const std::string& message);

// The last failure of one handle: one pointer, null until the handle first fails, since most
// never do and a window of 500 ids is a kilobyte in all. One lock for every slot, since calls
// on a shared handle may fail on several threads at once, and failures are rare.
class ErrorSlot {
 public:
  ErrorSlot() = default;
  ~ErrorSlot();
  ErrorSlot(const ErrorSlot&) = delete;
  ErrorSlot& operator=(const ErrorSlot&) = delete;

  // Never throws: out of memory, the failure goes unrecorded here (the thread's
  // seen_last_error and the caller's seen_error still have it).
  void Set(seen_status status, const std::string& message) noexcept;
  void CopyTo(seen_error* err) const;

 private:
  struct Failure {
    seen_status status;
    std::string message;
  };
  Failure* last_ = nullptr;
};

// For one C call (RAII): its failures are also reported to a handle's slot or to the caller's
// seen_error. Nested C calls restore the outer call's target when they return.
class ReportTo {
 public:
  explicit ReportTo(seen_error* err) : ReportTo(nullptr, err) {}
  // Every handle struct keeps its slot in a member named `error`; a NULL handle has none.
  template <class Handle>
  explicit ReportTo(const Handle* handle) : ReportTo(handle == nullptr ? nullptr : &handle->error, nullptr) {}
  ~ReportTo();
  ReportTo(const ReportTo&) = delete;
  ReportTo& operator=(const ReportTo&) = delete;

  // Sends a failure to the current call's target, if it named one.
  static void Report(seen_status status, const std::string& message);

 private:
  ReportTo(ErrorSlot* slot, seen_error* err);
  ErrorSlot* outer_slot_;
  seen_error* outer_err_;
};

}  // namespace seen::capi

namespace seen::capi {

// seen_<kind>_last_error: the handle's last failure into *err (SEEN_OK and "" if none yet).
template <class Handle>
void CopyLastError(const Handle* handle, seen_error* err) {
  if (err == nullptr) return;
  if (handle == nullptr) return FillError(err, SEEN_ERR_INVALID_ARGUMENT, "handle is NULL");
  handle->error.CopyTo(err);
}

}  // namespace seen::capi
