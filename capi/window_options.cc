#include "capi/window_options.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>

#include "capi/shim.h"
#include "capi/versioned.h"
#include "core/defaults.h"
#include "core/error.h"

namespace seen::capi {

namespace {
// The first published layout ended with max_bytes; fields added later go after it.
constexpr size_t kOldestWindowOptions = offsetof(seen_window_options, max_bytes) + sizeof(uint64_t);
}  // namespace

WindowParams WindowParamsFrom(const seen_window_options* caller) {
  auto bad = [](const std::string& what) { throw Error(Code::kInvalidArgument, "window options: " + what); };
  const seen_window_options read = ReadVersioned(caller, kOldestWindowOptions, "window options");
  const seen_window_options* opts = &read;
  if (opts->reserved != 0) bad("reserved is " + std::to_string(opts->reserved) + "; it must be 0");
  const double slack = WindowMaxSlackOrDefault(opts->max_slack);
  WindowParams params;
  if (opts->mode == SEEN_WINDOW_COUNT) {
    params = opts->max_bytes != 0 ? SizeCountWindowForBytes(opts->span, opts->max_bytes, slack, opts->seed)
                                  : SizeCountWindow(opts->span, opts->fpr, slack, opts->seed);
  } else if (opts->mode == SEEN_WINDOW_TIME) {
    if (opts->expected_items == 0) bad("a time window needs expected_items");
    params = SizeTimeWindow(opts->span, opts->expected_items, opts->fpr, slack, opts->seed, opts->max_bytes);
  } else {
    bad("mode must be SEEN_WINDOW_COUNT or SEEN_WINDOW_TIME");
  }
  if (opts->key != nullptr || opts->key_len != 0) params.key = SecretKey::FromBytes(opts->key, opts->key_len);
  return params;
}

seen_status FillWindowInfo(const WindowParams& p, seen_window_info* info) {
  if (info == nullptr || info->size < sizeof(size_t)) {
    return Fail(SEEN_ERR_INVALID_ARGUMENT, "window info is NULL or its size is not set");
  }
  const seen_window_info full{sizeof(seen_window_info), static_cast<uint32_t>(p.mode),
                              static_cast<uint32_t>(p.layout), p.span, p.segments,
                              p.state_bytes(), p.slack(), PredictWindowFpr(p), p.seed, p.max_bytes,
                              p.target_fpr};
  const size_t size = std::min(info->size, sizeof full);
  std::memcpy(info, &full, size);
  info->size = size;
  return SEEN_OK;
}

void FillWindowSaturation(const WindowParams& params, const WindowSaturation& measured, uint64_t bytes,
                          seen_window_saturation* sat) {
  const seen_window_saturation full{sizeof(seen_window_saturation), measured.fill, measured.rate,
                                    measured.effective_span, 0, bytes, measured.rate > params.target_fpr,
                                    measured.effective_span < params.span};
  const size_t size = std::min(sat->size, sizeof full);
  std::memcpy(sat, &full, size);
  sat->size = size;
}

}  // namespace seen::capi
