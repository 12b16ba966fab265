// Translation between the C option and info structs of windows and the core's WindowParams,
// shared by the window and store shims.
#pragma once

#include "capi/seen.h"
#include "core/window.h"

namespace seen::capi {

// Sizes a window from C options; throws Error(kInvalidArgument) naming the bad field.
WindowParams WindowParamsFrom(const seen_window_options* opts);
// Fills as much of *info as info->size allows.
seen_status FillWindowInfo(const WindowParams& params, seen_window_info* info);
// Fills as much of *sat (checked non-NULL with its size set) as sat->size allows.
void FillWindowSaturation(const WindowParams& params, const WindowSaturation& measured, uint64_t bytes,
                          seen_window_saturation* sat);

}  // namespace seen::capi
