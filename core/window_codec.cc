#include "core/window_codec.h"

#include <algorithm>
#include <cstring>

#include "core/error.h"
#include "core/format.h"
#include "core/hash.h"

namespace seen {

// Layout (docs/FORMAT.md, kind 4): mode, layout, span, segments, segment_span, segment_items,
// bits, k as u32; seed u64; target fpr f64; max_bytes u32 (growing and table layouts, else 0); 12
// reserved bytes.
void EncodeWindowParams(const WindowParams& p, uint8_t* out) {
  std::memset(out, 0, kWindowParamsBytes);
  const uint32_t fields[8] = {static_cast<uint32_t>(p.mode), static_cast<uint32_t>(p.layout),
                              p.span, p.segments, p.segment_span, p.segment_items, p.bits, p.k};
  for (int i = 0; i < 8; ++i) StoreLe32(out + 4 * i, fields[i]);
  StoreLe64(out + 32, p.seed);
  StoreLeF64(out + 40, p.target_fpr);
  StoreLe32(out + 48, p.max_bytes);
}

WindowParams DecodeWindowParams(const uint8_t* in, const std::string& source) {
  WindowParams p;
  p.mode = static_cast<WindowMode>(LoadLe32(in + 0));
  p.layout = static_cast<WindowLayout>(LoadLe32(in + 4));
  p.span = LoadLe32(in + 8);
  p.segments = LoadLe32(in + 12);
  p.segment_span = LoadLe32(in + 16);
  p.segment_items = LoadLe32(in + 20);
  p.bits = LoadLe32(in + 24);
  p.k = LoadLe32(in + 28);
  p.seed = LoadLe64(in + 32);
  p.target_fpr = LoadLeF64(in + 40);
  p.max_bytes = LoadLe32(in + 48);
  ValidateWindowParams(p, source);
  return p;
}

namespace {

constexpr size_t kChunk = 1024;

// Hashes items a chunk at a time and hands each chunk's hashes to `use`.
template <class HashChunk, class Use>
void InChunks(size_t n, HashChunk&& hash_chunk, Use&& use) {
  uint64_t hashes[kChunk];
  for (size_t i = 0; i < n; i += kChunk) {
    const size_t m = std::min(kChunk, n - i);
    hash_chunk(i, m, hashes);
    use(i, m, hashes);
  }
}

}  // namespace

Window Window::Create(const WindowParams& params, uint32_t now, const WindowMemory* memory) {
  ValidateWindowParams(params, "window options");
  const CacheLineAllocator<uint8_t> from(memory);
  Window window{params, WindowBytes(params.state_bytes(), 0, from), WindowGrowth(from)};
  WindowReset(params, window.state.data(), now);
  return window;
}

void WindowAddU64(const WindowParams& params, uint8_t* state, WindowGrowth* growth,
                  const uint64_t* items, size_t n, uint32_t now) {
  const WindowMemoryScope scope(growth == nullptr ? nullptr : growth->get_allocator().memory());
  InChunks(n, [&](size_t i, size_t m, uint64_t* h) { HashU64Batch(items + i, m, params.hashing(), h); },
           [&](size_t, size_t m, const uint64_t* h) { WindowAdd(params, state, growth, h, m, now); });
}

void WindowContainsU64(const WindowParams& params, const uint8_t* state, const WindowGrowth* growth,
                       const uint64_t* items, size_t n, uint32_t now, uint8_t* out) {
  InChunks(n, [&](size_t i, size_t m, uint64_t* h) { HashU64Batch(items + i, m, params.hashing(), h); },
           [&](size_t i, size_t m, const uint64_t* h) { WindowContains(params, state, growth, h, m, now, out + i); });
}

void WindowAddKeys(const WindowParams& params, uint8_t* state, WindowGrowth* growth,
                   const uint8_t* data, const uint64_t* offsets, size_t n, uint32_t now) {
  const WindowMemoryScope scope(growth == nullptr ? nullptr : growth->get_allocator().memory());
  InChunks(n, [&](size_t i, size_t m, uint64_t* h) { HashKeysBatch(data, offsets, i, m, params.hashing(), h); },
           [&](size_t, size_t m, const uint64_t* h) { WindowAdd(params, state, growth, h, m, now); });
}

void WindowContainsKeys(const WindowParams& params, const uint8_t* state, const WindowGrowth* growth,
                        const uint8_t* data, const uint64_t* offsets, size_t n, uint32_t now, uint8_t* out) {
  InChunks(n, [&](size_t i, size_t m, uint64_t* h) { HashKeysBatch(data, offsets, i, m, params.hashing(), h); },
           [&](size_t i, size_t m, const uint64_t* h) { WindowContains(params, state, growth, h, m, now, out + i); });
}

void Window::AddU64(const uint64_t* items, size_t n, uint32_t now) {
  WindowAddU64(params, state.data(), &growth, items, n, now);
}

void Window::ContainsU64(const uint64_t* items, size_t n, uint32_t now, uint8_t* out) const {
  WindowContainsU64(params, state.data(), &growth, items, n, now, out);
}

void Window::AddKeys(const uint8_t* data, const uint64_t* offsets, size_t n, uint32_t now) {
  WindowAddKeys(params, state.data(), &growth, data, offsets, n, now);
}

void Window::ContainsKeys(const uint8_t* data, const uint64_t* offsets, size_t n, uint32_t now,
                          uint8_t* out) const {
  WindowContainsKeys(params, state.data(), &growth, data, offsets, n, now, out);
}

std::vector<uint8_t> SerializeWindow(const WindowParams& params, const uint8_t* state,
                                     const WindowGrowth* growth) {
  uint8_t encoded[kWindowParamsBytes];
  EncodeWindowParams(params, encoded);
  const Parts parts{Kind::kWindow, encoded, kWindowParamsBytes,
                    {{state, params.state_bytes()},
                     {growth == nullptr ? nullptr : growth->data(), growth == nullptr ? 0 : growth->size()}},
                    KeyFlags(params.key)};
  std::vector<uint8_t> out(ContainerSize(parts));
  WriteContainer(parts, out.data());
  return out;
}

std::vector<uint8_t> SerializeWindow(const Window& window) {
  return SerializeWindow(window.params, window.state.data(), &window.growth);
}

Window DeserializeWindow(const uint8_t* data, uint64_t len, const std::optional<SecretKey>& key,
                         const WindowMemory* memory) {
  const Container c = ParseContainer(data, len, Kind::kWindow, "buffer", true, key);
  if (c.params_size < kWindowParamsBytes) {
    throw Error(Code::kInconsistent, "buffer: window params need 64 bytes");
  }
  const CacheLineAllocator<uint8_t> from(memory);
  Window window{DecodeWindowParams(c.params, "buffer"), WindowBytes(from), WindowGrowth(from)};
  window.params.key = key;
  const uint64_t state_bytes = window.params.state_bytes();
  const bool grows = window.params.grows();
  if (grows ? c.payload_size < state_bytes : c.payload_size != state_bytes) {
    throw Error(Code::kInconsistent, "buffer: window state is " + std::to_string(c.payload_size) +
                                         " bytes, its params need " + std::to_string(state_bytes));
  }
  if (!WindowStateValid(window.params, c.payload)) {
    throw Error(Code::kInconsistent, "buffer: window state header out of range");
  }
  window.state.assign(c.payload, c.payload + state_bytes);
  window.growth.assign(c.payload + state_bytes, c.payload + c.payload_size);
  if (grows) ValidateWindowGrowth(window.params, window.state.data(), window.growth, "buffer");
  return window;
}

}  // namespace seen
