// seen_window_deserialize checks a window's bytes where they lie and fails with the refusal
// the core returns, unthrown (core/window_codec.h's FindWindow). These tests hold it to what
// the throwing path said: for every truncation and, re-signed, every byte changed of a window
// of each layout (a grown table and a growing window with levels too), the status and message
// of the core's DeserializeWindow, *out left NULL and nothing taken from the allocator; each
// stage's message as it read when every refusal was thrown; and any alignment of the caller's
// buffer.
#define SEEN_EXPERIMENTAL  // seen_window_deserialize_with_allocator
#include <gtest/gtest.h>
#include <xxhash.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/window_codec.h"
#include "seen.h"
#include "tests/format_support.h"
#include "tests/sample_files.h"

namespace seen::test {
namespace {

// Header fields (docs/FORMAT.md) and where a window's params and payload start.
constexpr size_t kOffKind = 12, kOffParamsSize = 16, kOffPayloadOffset = 24, kOffPayloadSize = 32, kOffPayloadChecksum = 40;
constexpr size_t kParams = 64, kPayload = 128;

// Re-signs both checksums after an edit, as a hostile writer would, each where the sizes
// the header now declares leave it inside the bytes.
void ResignAll(std::vector<uint8_t>& bytes) {
  uint64_t params_size, offset, size;
  std::memcpy(&params_size, bytes.data() + kOffParamsSize, 8);
  std::memcpy(&offset, bytes.data() + kOffPayloadOffset, 8);
  std::memcpy(&size, bytes.data() + kOffPayloadSize, 8);
  if (offset <= bytes.size() && size <= bytes.size() - offset) {
    const uint64_t sum = XXH3_64bits(bytes.data() + offset, size);
    std::memcpy(bytes.data() + kOffPayloadChecksum, &sum, 8);
  }
  if (params_size <= bytes.size() - kParams) Resign(bytes);
}

struct Sampled {
  std::string name;
  std::vector<uint8_t> bytes;
};

Sampled WindowOf(const std::string& name, const seen_window_options& options, uint64_t items) {
  seen_window* w = nullptr;
  EXPECT_EQ(seen_window_create(&options, 1000, &w, nullptr), SEEN_OK);
  const std::vector<uint64_t> ids = SampleIds(items);
  EXPECT_EQ(seen_window_add_u64(w, ids.data(), ids.size(), 1100), SEEN_OK);
  Sampled s{name, Serialized([&](uint8_t* b, size_t c, size_t* n) { seen_window_serialize(w, b, c, n); })};
  seen_window_free(w);
  return s;
}

// A window of each layout, the two that grow both before and after they grew.
std::vector<Sampled> Windows() {
  const size_t o = sizeof(seen_window_options);
  return {WindowOf("ring", {o, SEEN_WINDOW_COUNT, 50, 0, 0, 0.01, 0, 4, 0, nullptr, 0}, 60),
          WindowOf("sliced", {o, SEEN_WINDOW_COUNT, 200, 0, 0, 0.01, 0, 5, 600, nullptr, 0}, 60),
          WindowOf("table", {o, SEEN_WINDOW_TIME, 3600, 100, 0, 0.01, 0, 6, 0, nullptr, 0}, 10),
          WindowOf("grown table", {o, SEEN_WINDOW_TIME, 3600, 100, 0, 0.01, 0, 6, 0, nullptr, 0}, 200),
          WindowOf("growing", {o, SEEN_WINDOW_TIME, 3600, 10, 0, 0.001, 0, 7, 0, nullptr, 0}, 2),
          WindowOf("grown growing", {o, SEEN_WINDOW_TIME, 3600, 10, 0, 0.001, 0, 7, 0, nullptr, 0}, 300)};
}

struct Counted {
  int64_t blocks = 0;
};

void* CountedAlloc(void* opaque, size_t bytes) {
  ++static_cast<Counted*>(opaque)->blocks;
  return std::malloc(bytes);
}

void CountedFree(void* opaque, void* p) {
  --static_cast<Counted*>(opaque)->blocks;
  std::free(p);
}

struct Outcome {
  seen_status status;
  std::string message;
};

// What the C API says of the bytes, through the call with an allocator: a refusal leaves out
// NULL and the allocator untouched; a window that loads serializes back to the same size.
Outcome FromC(const std::vector<uint8_t>& bytes) {
  Counted counted;
  const seen_allocator allocator{CountedAlloc, CountedFree, &counted};
  seen_window* w = reinterpret_cast<seen_window*>(&counted);  // must be set to NULL on refusal
  seen_error err{};
  const seen_status status =
      seen_window_deserialize_with_allocator(bytes.data(), bytes.size(), nullptr, 0, &allocator, &w, &err);
  if (status != SEEN_OK) {
    EXPECT_EQ(w, nullptr);
    EXPECT_EQ(counted.blocks, 0);
    EXPECT_EQ(err.status, status);
    return {status, err.message};
  }
  seen_window_free(w);
  EXPECT_EQ(counted.blocks, 0);
  return {SEEN_OK, ""};
}

// What the core's throwing path says of the same bytes.
Outcome FromCore(const std::vector<uint8_t>& bytes) {
  try {
    DeserializeWindow(bytes.data(), bytes.size());
    return {SEEN_OK, ""};
  } catch (const Error& e) {
    return {static_cast<seen_status>(e.code()), e.what()};
  }
}

void ExpectSameOutcome(const std::vector<uint8_t>& bytes, const std::string& what) {
  const Outcome c = FromC(bytes);
  const Outcome core = FromCore(bytes);
  EXPECT_EQ(c.status, core.status) << what << ": " << c.message << " / " << core.message;
  EXPECT_EQ(c.message, core.message) << what;
}

TEST(WindowRefusals, EveryTruncationAndChangedByteGetsTheCoresStatusAndMessage) {
  for (const Sampled& s : Windows()) {
    ExpectSameOutcome(s.bytes, s.name);
    EXPECT_EQ(FromC(s.bytes).status, SEEN_OK) << s.name;
    for (size_t len = 0; len < s.bytes.size(); ++len) {
      ExpectSameOutcome(std::vector<uint8_t>(s.bytes.begin(), s.bytes.begin() + len),
                        s.name + " cut to " + std::to_string(len));
    }
    for (size_t at = 0; at < s.bytes.size(); ++at) {
      for (const uint8_t flip : {0x01, 0x80, 0xFF}) {
        std::vector<uint8_t> changed = s.bytes;
        changed[at] ^= flip;
        ExpectSameOutcome(changed, s.name + " byte " + std::to_string(at) + " ^ " + std::to_string(flip));
        ResignAll(changed);
        ExpectSameOutcome(changed, s.name + " byte " + std::to_string(at) + " ^ " + std::to_string(flip) + " re-signed");
      }
    }
  }
}

// Each stage's refusal, word for word as it read when the C API threw every one of them.
TEST(WindowRefusals, EachStageSaysWhatItSaidWhenRefusalsWereThrown) {
  const std::vector<Sampled> windows = Windows();
  const std::vector<uint8_t>& ring = windows[0].bytes;
  const std::vector<uint8_t>& sliced = windows[1].bytes;
  const std::vector<uint8_t>& table = windows[2].bytes;
  const std::vector<uint8_t>& growing = windows[5].bytes;
  auto edited = [](std::vector<uint8_t> bytes, size_t at, uint32_t value) {
    std::memcpy(bytes.data() + at, &value, sizeof value);
    ResignAll(bytes);
    return bytes;
  };
  std::vector<uint8_t> unsigned_payload = ring;
  unsigned_payload.back() ^= 1;
  std::vector<uint8_t> longer = ring;
  longer.push_back(0);
  const std::string ring_end = std::to_string(ring.size());
  const struct {
    std::vector<uint8_t> bytes;
    seen_status status;
    std::string message;
  } cases[] = {
      {std::vector<uint8_t>(ring.begin(), ring.begin() + 10), SEEN_ERR_TRUNCATED,
       "buffer: has 10 bytes, the header alone needs 64"},
      {edited(ring, 0, 0), SEEN_ERR_BAD_MAGIC, "buffer: not a seen file (bad magic in bytes 0..7)"},
      {std::vector<uint8_t>(ring.begin(), ring.end() - 1), SEEN_ERR_TRUNCATED,
       "buffer: has " + std::to_string(ring.size() - 1) + " bytes, the header declares " + ring_end},
      {longer, SEEN_ERR_INCONSISTENT, "buffer: has 1 bytes after the declared end at " + ring_end},
      {unsigned_payload, SEEN_ERR_BAD_CHECKSUM, "buffer: payload checksum mismatch (payload corrupt)"},
      {edited(ring, kOffKind, 1), SEEN_ERR_WRONG_KIND, "buffer: holds a bloom (kind 1), expected a window"},
      {edited(sliced, kParams + 12, 40), SEEN_ERR_INCONSISTENT, "buffer: segments outside 2..16"},
      {edited(ring, kPayload, 0xFFFFFF), SEEN_ERR_INCONSISTENT, "buffer: window state header out of range"},
      {edited(table, kPayload + 64, 0x7FFFFFFF), SEEN_ERR_INCONSISTENT,  // slot 12 of 16
       "buffer: window table slot names no segment of the window"},
  };
  for (const auto& c : cases) {
    const Outcome got = FromC(c.bytes);
    EXPECT_EQ(got.status, c.status) << got.message;
    EXPECT_EQ(got.message, c.message);
  }
  // A growing window's first level head, its generation made 0.
  uint64_t state_bytes = 0;
  {
    seen_window* w = nullptr;
    ASSERT_EQ(seen_window_deserialize(growing.data(), growing.size(), &w, nullptr), SEEN_OK);
    seen_window_info info{};
    info.size = sizeof info;
    seen_window_get_info(w, &info);
    state_bytes = info.state_bytes;
    seen_window_free(w);
  }
  ASSERT_LT(kPayload + state_bytes, growing.size()) << "the growing sample has no levels";
  const Outcome level = FromC(edited(growing, kPayload + state_bytes, 0));
  EXPECT_EQ(level.status, SEEN_ERR_INCONSISTENT);
  EXPECT_EQ(level.message, "buffer: window growth has a generation outside 1..15");
  // A key where the file has none.
  const uint8_t key[16] = {1};
  seen_window* w = nullptr;
  seen_error err{};
  EXPECT_EQ(seen_window_deserialize_keyed(ring.data(), ring.size(), key, sizeof key, &w, &err), SEEN_ERR_INCOMPATIBLE);
  EXPECT_EQ(w, nullptr);
  EXPECT_STREQ(err.message, "buffer: was written without a secret key: open it without one");
}

// The checks read the caller's bytes in place, at whatever address they start (a table's
// slots are 32-bit words): every window loads from an odd address and gives its bytes back.
TEST(WindowRefusals, BytesLoadFromAnyAlignment) {
  for (const Sampled& s : Windows()) {
    for (size_t shift = 1; shift < 8; ++shift) {
      std::vector<uint8_t> room(s.bytes.size() + shift);
      std::memcpy(room.data() + shift, s.bytes.data(), s.bytes.size());
      seen_window* w = nullptr;
      ASSERT_EQ(seen_window_deserialize(room.data() + shift, s.bytes.size(), &w, nullptr), SEEN_OK) << s.name;
      EXPECT_EQ(Serialized([&](uint8_t* b, size_t c, size_t* n) { seen_window_serialize(w, b, c, n); }), s.bytes)
          << s.name << " at +" << shift;
      seen_window_free(w);
    }
  }
}

}  // namespace
}  // namespace seen::test
