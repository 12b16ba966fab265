// The per-handle and caller-owned error targets of report.h.
#include "capi/report.h"

#include <algorithm>
#include <cstring>
#include <mutex>

namespace seen::capi {

namespace {
// The target of the C call running on this thread; thread-local only because a call runs on
// one thread: what it reports lands in memory its caller can read from any thread. Every C
// call sets and restores it, and each thread-local variable a function touches costs a
// __tls_get_addr call in a shared library, so both pointers sit in one.
struct CallTarget {
  ErrorSlot* slot = nullptr;
  seen_error* err = nullptr;
};
thread_local CallTarget current;

// The one lock of every ErrorSlot.
std::mutex& SlotsLock() {
  static std::mutex lock;
  return lock;
}

}  // namespace

void FillError(seen_error* err, seen_status status, const std::string& message) {
  err->status = status;
  const size_t n = std::min(message.size(), sizeof err->message - 1);
  std::memcpy(err->message, message.data(), n);
  err->message[n] = '\0';
}

ErrorSlot::~ErrorSlot() { delete last_; }

void ErrorSlot::Set(seen_status status, const std::string& message) noexcept {
  try {
    const std::lock_guard<std::mutex> lock(SlotsLock());
    if (last_ == nullptr) last_ = new Failure{status, message};
    last_->status = status;
    last_->message = message;
  } catch (...) {  // std::bad_alloc
  }
}

void ErrorSlot::CopyTo(seen_error* err) const {
  const std::lock_guard<std::mutex> lock(SlotsLock());
  if (last_ == nullptr) return FillError(err, SEEN_OK, "");
  FillError(err, last_->status, last_->message);
}

ReportTo::ReportTo(ErrorSlot* slot, seen_error* err) : outer_slot_(current.slot), outer_err_(current.err) {
  current.slot = slot;
  current.err = err;
}

ReportTo::~ReportTo() {
  current.slot = outer_slot_;
  current.err = outer_err_;
}

void ReportTo::Report(seen_status status, const std::string& message) {
  if (current.slot != nullptr) current.slot->Set(status, message);
  if (current.err != nullptr) FillError(current.err, status, message);
}

}  // namespace seen::capi
