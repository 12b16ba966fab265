// What a seen_window is: one block holding a pointer to its parameters, its last error and
// then its state (and a growing layout's growth vector after it), so that a window of the
// last 500 ids at 1% takes 16 + 1,004 bytes, one 1 KiB allocation, where a handle beside its
// vectors took two (1,024 + 224 bytes in jemalloc's size classes). Windows made alike, with
// the same allocator, share one copy of their parameters, counted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "capi/report.h"
#include "core/window.h"
#include "core/window_memory.h"

namespace seen::capi {

// Parameters and allocator of every window made alike.
struct SharedWindowParams {
  WindowParams params;
  const WindowMemory* memory;  // null: the C++ heap
  std::string id;              // its key in the pool
  uint64_t windows;            // how many hold it, under the pool's lock
};

}  // namespace seen::capi

struct seen_window {
  const seen::capi::SharedWindowParams* shared;
  mutable seen::capi::ErrorSlot error;  // its last failure (report.h)

  const seen::WindowParams& params() const { return shared->params; }
  uint8_t* state();
  const uint8_t* state() const;
  seen::WindowGrowth* growth();  // null for layouts that do not grow
  const seen::WindowGrowth* growth() const;
  uint64_t bytes() const;  // state and growth, as seen_window_get_bytes counts them
};

namespace seen::capi {

// A window of params with its state set by `init` (given the state, and the growth or null),
// in memory's blocks (null: the C++ heap). Throws what init throws, or std::bad_alloc.
template <class Init>
seen_window* NewWindow(const WindowParams& params, const WindowMemory* memory, Init&& init);
void DeleteWindow(seen_window* w);

// The untyped part of NewWindow: the block, with the parameters shared and the growth (if
// any) constructed, the state zeroed.
seen_window* AllocateWindow(const WindowParams& params, const WindowMemory* memory);

template <class Init>
seen_window* NewWindow(const WindowParams& params, const WindowMemory* memory, Init&& init) {
  seen_window* w = AllocateWindow(params, memory);
  try {
    init(w->state(), w->growth());
  } catch (...) {
    DeleteWindow(w);
    throw;
  }
  return w;
}

}  // namespace seen::capi
