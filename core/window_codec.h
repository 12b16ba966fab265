// A single window that owns its state (the store keeps its windows in an arena instead),
// and windows in the container format (kind 4). The params block is shared with the store
// (kind 5), whose windows all have the same parameters.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/window.h"

namespace seen {

constexpr uint64_t kWindowParamsBytes = 64;

void EncodeWindowParams(const WindowParams& params, uint8_t* out);
// Validates as it decodes; errors name `source`. The first form throws them, the second
// returns them (core/error.h), *out holding the fields as read.
WindowParams DecodeWindowParams(const uint8_t* in, const std::string& source);
Status DecodeWindowParams(const uint8_t* in, const std::string& source, WindowParams* out);

// A window's operations on its parts, wherever they live (a C handle keeps its state inline).
// Items are u64 ids or byte keys (data + offsets), hashed with params' seed or key a chunk at
// a time. The growth is read only by layouts that grow: others may pass nullptr.
void WindowAddU64(const WindowParams& params, uint8_t* state, WindowGrowth* growth,
                  const uint64_t* items, size_t n, uint32_t now);
void WindowContainsU64(const WindowParams& params, const uint8_t* state, const WindowGrowth* growth,
                       const uint64_t* items, size_t n, uint32_t now, uint8_t* out);
void WindowAddKeys(const WindowParams& params, uint8_t* state, WindowGrowth* growth,
                   const uint8_t* data, const uint64_t* offsets, size_t n, uint32_t now);
void WindowContainsKeys(const WindowParams& params, const uint8_t* state, const WindowGrowth* growth,
                        const uint8_t* data, const uint64_t* offsets, size_t n, uint32_t now, uint8_t* out);
std::vector<uint8_t> SerializeWindow(const WindowParams& params, const uint8_t* state,
                                     const WindowGrowth* growth);

// One window: its parameters, its state bytes and its growth (growing and table layouts).
// Items are u64 ids or byte keys (data + offsets), hashed with params.seed a chunk at a time.
// Its bytes come from `memory` (core/window_memory.h; null: the C++ heap), which must
// outlive it.
struct Window {
  WindowParams params;
  WindowBytes state;
  WindowGrowth growth;

  static Window Create(const WindowParams& params, uint32_t now,
                       const WindowMemory* memory = nullptr);
  void AddU64(const uint64_t* items, size_t n, uint32_t now);
  void ContainsU64(const uint64_t* items, size_t n, uint32_t now, uint8_t* out) const;
  void AddKeys(const uint8_t* data, const uint64_t* offsets, size_t n, uint32_t now);
  void ContainsKeys(const uint8_t* data, const uint64_t* offsets, size_t n, uint32_t now,
                    uint8_t* out) const;
};

std::vector<uint8_t> SerializeWindow(const Window& window);
// A keyed window's bytes need its key (ParseContainer refuses a missing or wrong one).
Window DeserializeWindow(const uint8_t* data, uint64_t len,
                         const std::optional<SecretKey>& key = std::nullopt,
                         const WindowMemory* memory = nullptr);

// A window in a container's bytes, checked whole: its parameters (with the key it was opened
// with) and where its state and growth lie in those bytes.
struct StoredWindow {
  WindowParams params;
  const uint8_t* state = nullptr;  // params.state_bytes() of them
  const uint8_t* growth = nullptr;
  uint64_t growth_size = 0;
};
// Every check of DeserializeWindow, with its codes and messages, returned instead of thrown,
// and nothing copied or allocated: a caller that keeps the window in memory of its own (the
// C API's handle: one block, state inline) copies it once, and bad bytes cost no unwinding.
// *out is set only when the bytes pass.
Status FindWindow(const uint8_t* data, uint64_t len, const std::optional<SecretKey>& key, StoredWindow* out);

}  // namespace seen
