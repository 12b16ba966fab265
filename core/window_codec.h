// Window parameters and single windows in the container format (kind 4). The params block
// is shared with the store (kind 5), whose windows all have the same parameters.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/window.h"

namespace seen {

constexpr uint64_t kWindowParamsBytes = 64;

void EncodeWindowParams(const WindowParams& params, uint8_t* out);
// Validates as it decodes; errors name `source`.
WindowParams DecodeWindowParams(const uint8_t* in, const std::string& source);

// One window: its parameters and its state bytes.
struct Window {
  WindowParams params;
  std::vector<uint8_t> state;
};

std::vector<uint8_t> SerializeWindow(const Window& window);
Window DeserializeWindow(const uint8_t* data, uint64_t len);

}  // namespace seen
