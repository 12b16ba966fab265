#include "core/window_codec.h"

#include <algorithm>
#include <cstring>
#include <utility>

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

Status DecodeWindowParams(const uint8_t* in, const std::string& source, WindowParams* out) {
  WindowParams& p = *out;
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
  return CheckWindowParams(p, source);
}

WindowParams DecodeWindowParams(const uint8_t* in, const std::string& source) {
  WindowParams p;
  ThrowIfRefused(DecodeWindowParams(in, source, &p));
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
  Window window{params, WindowBytes(from), WindowGrowth(from)};
  window.state.resize_for_overwrite(params.state_bytes());  // WindowReset writes every byte
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

Status FindWindow(const uint8_t* data, uint64_t len, const std::optional<SecretKey>& key, StoredWindow* out) {
  Container c{};
  if (Status parsed = CheckContainer(data, len, Kind::kWindow, "buffer", true, key, &c); !parsed.ok()) return parsed;
  if (c.params_size < kWindowParamsBytes) {
    return Status::Refused(Code::kInconsistent, "buffer: window params need 64 bytes");
  }
  StoredWindow found;
  if (Status decoded = DecodeWindowParams(c.params, "buffer", &found.params); !decoded.ok()) return decoded;
  found.params.key = key;
  const uint64_t state_bytes = found.params.state_bytes();
  const bool grows = found.params.grows();
  if (grows ? c.payload_size < state_bytes : c.payload_size != state_bytes) {
    return Status::Refused(Code::kInconsistent, "buffer: window state is " + std::to_string(c.payload_size) +
                                                    " bytes, its params need " + std::to_string(state_bytes));
  }
  if (!WindowStateValid(found.params, c.payload)) {
    return Status::Refused(Code::kInconsistent, "buffer: window state header out of range");
  }
  found.state = c.payload;
  found.growth = c.payload + state_bytes;
  found.growth_size = c.payload_size - state_bytes;
  if (grows) {
    Status checked = CheckWindowGrowth(found.params, found.state, found.growth, found.growth_size, "buffer");
    if (!checked.ok()) return checked;
  }
  *out = std::move(found);
  return {};
}

Window DeserializeWindow(const uint8_t* data, uint64_t len, const std::optional<SecretKey>& key,
                         const WindowMemory* memory) {
  StoredWindow stored;
  ThrowIfRefused(FindWindow(data, len, key, &stored));
  const CacheLineAllocator<uint8_t> from(memory);
  const uint8_t* state_end = stored.state + stored.params.state_bytes();
  return {stored.params, WindowBytes(stored.state, state_end, from),
          WindowBytes(stored.growth, stored.growth + stored.growth_size, from)};
}

}  // namespace seen
