#include "core/store.h"

#include <malloc.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/error.h"
#include "core/file.h"
#include "core/format.h"
#include "core/hash.h"
#include "core/store_shard.h"
#include "core/subkey.h"
#include "core/window.h"
#include "core/window_codec.h"

namespace seen {
namespace {

constexpr uint32_t kShards = 64;
constexpr uint64_t kShardSeed = 0x5eed5704e5ULL;
constexpr uint64_t kStoreParamsBytes = kWindowParamsBytes + 64;
// Candidates hashed per round of a request.
constexpr size_t kChunk = 1024;
// Users compared when the memory bound forces an eviction.
constexpr int kEvictionSample = 8;

uint64_t Pad8(uint64_t bytes) { return (bytes + 7) / 8 * 8; }

// A user's growth, out of its shard for one write and back after it, however the write ends.
struct GrowthLease {
  StoreShard& shard;
  uint64_t user;
  WindowGrowth growth;

  GrowthLease(StoreShard& s, uint64_t u) : shard(s), user(u), growth(s.TakeGrowth(u)) {}
  ~GrowthLease() { shard.set_growth(user, std::move(growth)); }
  GrowthLease(const GrowthLease&) = delete;
  GrowthLease& operator=(const GrowthLease&) = delete;
};

}  // namespace

struct Store::Impl {
  struct Shard {
    mutable std::shared_mutex lock;
    StoreShard users;
    uint64_t evictions = 0;
    uint64_t expirations = 0;
    uint64_t span_drops = 0;
    uint64_t sample_state;

    Shard(const WindowParams& window, uint64_t expected, const SecretKey& index_key, uint64_t seed)
        : users(window, expected, index_key), sample_state(seed | 1) {}
  };

  StoreOptions options;
  uint32_t epoch = 0;  // last-active hours count from here (seconds)
  bool epoch_set = false;
  bool read_only = false;
  Region file;  // windows of shards loaded from a file point into it
  std::vector<std::unique_ptr<Shard>> shards;

  explicit Impl(const StoreOptions& o) : options(o) {
    // Derived from the key in keyed mode, random otherwise. Never saved: a loaded store
    // rebuilds its index (StoreShard::Load), so each process may place users its own way.
    const SecretKey index_key = o.window.key ? Subkey(*o.window.key, "seen store index") : RandomKey();
    for (uint32_t s = 0; s < kShards; ++s) {
      shards.push_back(std::make_unique<Shard>(o.window, o.expected_users / kShards + 1, index_key, s + 1));
    }
  }

  // Keyed, the shard is secret too: chosen user ids cannot crowd one shard's lock.
  Shard& ShardOf(uint64_t user) const {
    return *shards[HashU64(user, Hashing(kShardSeed, options.window.key)) & (kShards - 1)];
  }

  uint16_t Hour(uint32_t now) const {
    if (now <= epoch) return 0;
    return static_cast<uint16_t>(std::min<uint64_t>((now - epoch) / 3600, UINT16_MAX));
  }

  bool Idle(const Shard& shard, uint64_t slot, uint32_t now) const {
    if (options.idle_timeout == 0) return false;
    const uint16_t hour = Hour(now);
    const uint16_t active = shard.users.active_hour(slot);
    return hour > active && static_cast<uint64_t>(hour - active) * 3600 > options.idle_timeout;
  }

  const uint8_t* CheckedWindow(const Shard& shard, uint64_t slot) const {
    const uint8_t* state = shard.users.window(slot);
    if (!WindowStateValid(options.window, state)) {
      throw Error(Code::kInconsistent, "store: the window of user " +
                                           std::to_string(shard.users.user(slot)) + " is corrupt");
    }
    return state;
  }

  void HashChunk(const uint64_t* items, size_t n, uint64_t* hashes) const {
    HashU64Batch(items, n, options.window.hashing(), hashes);
  }

  // The slot of `user` for a write at `now`: created on first sight, reset when idle.
  uint64_t SlotForWrite(Shard& shard, uint64_t user, uint32_t now) {
    if (read_only) throw Error(Code::kReadOnly, "this store was opened read-only");
    if (!epoch_set) epoch = now, epoch_set = true;
    int64_t slot = shard.users.Find(user);
    if (slot >= 0 && Idle(shard, static_cast<uint64_t>(slot), now)) {
      shard.users.Remove(static_cast<uint64_t>(slot));
      ++shard.expirations;
      slot = -1;
    }
    if (slot < 0) {
      MakeRoom(shard);
      slot = static_cast<int64_t>(shard.users.Insert(user, Hour(now), now));
    }
    CheckedWindow(shard, static_cast<uint64_t>(slot));
    shard.users.set_active_hour(static_cast<uint64_t>(slot), Hour(now));
    return static_cast<uint64_t>(slot);
  }

  // At the memory bound, evicts the least recently active user of a small random sample.
  void MakeRoom(Shard& shard) {
    if (options.max_bytes == 0) return;
    const uint64_t budget = options.max_bytes / kShards;
    const uint64_t per_user = options.window.state_bytes() + sizeof(uint64_t) + sizeof(uint16_t);
    while (shard.users.size() > 0 && shard.users.bytes() + per_user > budget) {
      uint64_t victim = 0;
      for (int i = 0; i < kEvictionSample; ++i) {
        shard.sample_state ^= shard.sample_state << 13;
        shard.sample_state ^= shard.sample_state >> 7;
        shard.sample_state ^= shard.sample_state << 17;
        const uint64_t slot = shard.sample_state % shard.users.size();
        if (i == 0 || shard.users.active_hour(slot) < shard.users.active_hour(victim)) victim = slot;
      }
      shard.users.Remove(victim);
      ++shard.evictions;
    }
  }
};

Store::Store(const StoreOptions& options) : impl_(std::make_unique<Impl>(options)) {
  ValidateWindowParams(options.window, "store options");
}
Store::Store(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Store::~Store() = default;
Store::Store(Store&&) noexcept = default;
Store& Store::operator=(Store&&) noexcept = default;

const StoreOptions& Store::options() const { return impl_->options; }
bool Store::read_only() const { return impl_->read_only; }

void Store::Filter(uint64_t user, const uint64_t* candidates, size_t n, uint32_t now,
                   uint8_t* unseen) const {
  const Impl::Shard& shard = impl_->ShardOf(user);
  std::shared_lock lock(shard.lock);
  const int64_t slot = shard.users.Find(user);
  if (slot < 0 || impl_->Idle(shard, static_cast<uint64_t>(slot), now)) {
    if (n != 0) std::memset(unseen, 1, n);  // unseen may be null when n is 0
    return;
  }
  const uint8_t* state = impl_->CheckedWindow(shard, static_cast<uint64_t>(slot));
  const WindowGrowth* growth = shard.users.growth(user);
  uint64_t hashes[kChunk];
  for (size_t i = 0; i < n; i += kChunk) {
    const size_t m = std::min(kChunk, n - i);
    impl_->HashChunk(candidates + i, m, hashes);
    WindowContains(impl_->options.window, state, growth, hashes, m, now, unseen + i);
    for (size_t j = 0; j < m; ++j) unseen[i + j] ^= 1;
  }
}

void Store::Mark(uint64_t user, const uint64_t* items, size_t n, uint32_t now) {
  Impl::Shard& shard = impl_->ShardOf(user);
  std::unique_lock lock(shard.lock);
  const uint64_t slot = impl_->SlotForWrite(shard, user, now);
  uint8_t* state = shard.users.mutable_window(slot);
  GrowthLease growth(shard.users, user);
  uint64_t hashes[kChunk];
  for (size_t i = 0; i < n; i += kChunk) {
    const size_t m = std::min(kChunk, n - i);
    impl_->HashChunk(items + i, m, hashes);
    shard.span_drops += WindowAdd(impl_->options.window, state, &growth.growth, hashes, m, now);
  }
}

size_t Store::Take(uint64_t user, const uint64_t* candidates, size_t n, size_t want,
                   uint32_t now, uint64_t* taken) {
  Impl::Shard& shard = impl_->ShardOf(user);
  std::unique_lock lock(shard.lock);
  const uint64_t slot = impl_->SlotForWrite(shard, user, now);
  uint8_t* state = shard.users.mutable_window(slot);
  GrowthLease growth(shard.users, user);
  uint64_t hashes[kChunk];
  uint8_t seen[kChunk];
  // A candidate listed twice is taken once: the window is only written after the scan.
  std::unordered_set<uint64_t> chosen;
  std::vector<uint64_t> chosen_hashes;  // kept, so marking does not hash them again
  size_t count = 0;
  for (size_t i = 0; i < n && count < want; i += kChunk) {
    const size_t m = std::min(kChunk, n - i);
    impl_->HashChunk(candidates + i, m, hashes);
    WindowContains(impl_->options.window, state, &growth.growth, hashes, m, now, seen);
    for (size_t j = 0; j < m && count < want; ++j) {
      if (!seen[j] && chosen.insert(candidates[i + j]).second) {
        taken[count++] = candidates[i + j];
        chosen_hashes.push_back(hashes[j]);
      }
    }
  }
  shard.span_drops += WindowAdd(impl_->options.window, state, &growth.growth, chosen_hashes.data(), count, now);
  return count;
}

uint64_t Store::Expire(uint32_t now) {
  if (impl_->read_only) throw Error(Code::kReadOnly, "this store was opened read-only");
  uint64_t dropped = 0;
  for (auto& shard : impl_->shards) {
    std::unique_lock lock(shard->lock);
    for (uint64_t slot = shard->users.size(); slot-- > 0;) {
      if (impl_->Idle(*shard, slot, now)) {
        shard->users.Remove(slot);
        ++shard->expirations;
        ++dropped;
      }
    }
    shard->users.Trim();
  }
  // Growth of dropped users went back to malloc; hand its free pages to the system.
  malloc_trim(0);
  return dropped;
}

StoreStats Store::Stats() const {
  StoreStats stats;
  for (const auto& shard : impl_->shards) {
    std::shared_lock lock(shard->lock);
    stats.users += shard->users.size();
    stats.bytes += shard->users.bytes();
    stats.evictions += shard->evictions;
    stats.expirations += shard->expirations;
    stats.users_grown += shard->users.grown_users();
    stats.span_drops += shard->span_drops;
  }
  return stats;
}

StoreSaturation Store::Saturation(uint32_t now) const {
  StoreSaturation sat;
  double fill_sum = 0;
  const WindowParams& window = impl_->options.window;
  for (const auto& shard : impl_->shards) {
    std::shared_lock lock(shard->lock);
    for (uint64_t slot = 0; slot < shard->users.size(); ++slot) {
      const uint64_t user = shard->users.user(slot);
      const WindowSaturation w =
          MeasureWindowSaturation(window, shard->users.window(slot), shard->users.growth(user), now);
      fill_sum += w.fill;
      sat.above_target += w.rate > window.target_fpr;
      sat.span_limited += w.effective_span < window.span;
      sat.max_rate = std::max(sat.max_rate, w.rate);
      ++sat.users;
    }
  }
  sat.mean_fill = sat.users > 0 ? fill_sum / static_cast<double>(sat.users) : 0;
  return sat;
}

std::optional<UserSaturation> Store::SaturationOf(uint64_t user, uint32_t now) const {
  const Impl::Shard& shard = impl_->ShardOf(user);
  std::shared_lock lock(shard.lock);
  const int64_t slot = shard.users.Find(user);
  if (slot < 0) return std::nullopt;
  const uint8_t* state = impl_->CheckedWindow(shard, static_cast<uint64_t>(slot));
  return UserSaturation{MeasureWindowSaturation(impl_->options.window, state, shard.users.growth(user), now),
                        shard.users.user_bytes(user)};
}

uint32_t Store::EffectiveSpanOf(uint64_t user, uint32_t now) const {
  const Impl::Shard& shard = impl_->ShardOf(user);
  std::shared_lock lock(shard.lock);
  const int64_t slot = shard.users.Find(user);
  if (slot < 0) return impl_->options.window.span;
  return WindowEffectiveSpan(impl_->options.window, impl_->CheckedWindow(shard, static_cast<uint64_t>(slot)), now);
}

// Params (docs/FORMAT.md, kind 5): the window params, then shards u32, idle_timeout u32,
// max_bytes u64, expected_users u64, epoch u32 and a u32 that is 1 once the epoch is set.
// Payload: shard user counts (u64 each), then per shard its user ids (u64), last-active
// hours (u16, padded to 8 bytes) and window states; for growing and table windows, then
// its grown users: their count (u64), and for each, by ascending id, the id and growth bytes
// (u64) and the growth padded to 8 bytes.
void Store::Save(const std::string& path) const {
  const Impl& impl = *impl_;
  std::vector<std::unique_lock<std::shared_mutex>> locks;
  for (const auto& shard : impl.shards) locks.emplace_back(shard->lock);
  uint8_t params[kStoreParamsBytes] = {};
  EncodeWindowParams(impl.options.window, params);
  uint8_t* own = params + kWindowParamsBytes;
  StoreLe32(own + 0, kShards);
  StoreLe32(own + 4, impl.options.idle_timeout);
  StoreLe64(own + 8, impl.options.max_bytes);
  StoreLe64(own + 16, impl.options.expected_users);
  StoreLe32(own + 24, impl.epoch);
  StoreLe32(own + 28, impl.epoch_set ? 1 : 0);
  std::vector<uint64_t> counts;
  for (const auto& shard : impl.shards) counts.push_back(shard->users.size());
  static const uint8_t kZeros[8] = {};
  std::vector<Piece> payload{{reinterpret_cast<const uint8_t*>(counts.data()), counts.size() * 8}};
  const uint64_t state_bytes = impl.options.window.state_bytes();
  const bool grows = impl.options.window.grows();
  // The u64 heads of the growth sections, alive until the container is written.
  std::vector<std::vector<uint64_t>> heads(kShards);
  for (uint32_t i = 0; i < kShards; ++i) {
    const StoreShard& s = impl.shards[i]->users;
    payload.push_back({reinterpret_cast<const uint8_t*>(s.users().data()), s.size() * 8});
    payload.push_back({reinterpret_cast<const uint8_t*>(s.active_hours().data()), s.size() * 2});
    payload.push_back({kZeros, Pad8(s.size() * 2) - s.size() * 2});
    payload.push_back({s.windows(), s.size() * state_bytes});
    if (!grows) continue;
    std::vector<uint64_t> grown;
    for (const auto& entry : s.growths()) grown.push_back(entry.first);
    std::sort(grown.begin(), grown.end());
    std::vector<uint64_t>& head = heads[i];
    head.reserve(1 + 2 * grown.size());
    head.push_back(grown.size());
    payload.push_back({reinterpret_cast<const uint8_t*>(head.data()), 8});
    for (const uint64_t user : grown) {
      const WindowGrowth& growth = s.growths().at(user);
      head.push_back(user);
      head.push_back(growth.size());
      payload.push_back({reinterpret_cast<const uint8_t*>(&head[head.size() - 2]), 16});
      payload.push_back({growth.data(), growth.size()});
      payload.push_back({kZeros, Pad8(growth.size()) - growth.size()});
    }
  }
  SaveContainer(path, {Kind::kStore, params, kStoreParamsBytes, payload, KeyFlags(impl.options.window.key)});
}

namespace {

// A shard's growth section, read through `take` (which refuses to run past the payload).
template <class Take>
std::unordered_map<uint64_t, WindowGrowth> LoadGrowth(const WindowParams& window, Take& take,
                                                      const std::string& path, const std::string& shard) {
  const uint64_t count = LoadLe64(take(8, shard + " growth count"));
  std::unordered_map<uint64_t, WindowGrowth> growth;
  for (uint64_t i = 0; i < count; ++i) {
    const uint8_t* head = take(16, shard + " growth entry");
    const uint64_t user = LoadLe64(head), bytes = LoadLe64(head + 8);
    if (bytes == 0 || bytes > window.max_bytes) {
      throw Error(Code::kInconsistent, path + ": " + shard + ": growth of user " + std::to_string(user) + " is " +
                                           std::to_string(bytes) + " bytes, outside 1..max_bytes");
    }
    const uint8_t* data = take(Pad8(bytes), shard + " growth of user " + std::to_string(user));
    if (!growth.emplace(user, WindowGrowth(data, data + bytes)).second) {
      throw Error(Code::kInconsistent, path + ": " + shard + ": user " + std::to_string(user) + " has growth twice");
    }
  }
  return growth;
}

}  // namespace

Store Store::Open(const std::string& path, bool writable, bool verify_payload,
                  const std::optional<SecretKey>& key) {
  Region file = MapFile(path, false, verify_payload);
  const Container c = ParseContainer(file.data(), file.size(), Kind::kStore, path, verify_payload, key);
  auto bad = [&](Code code, const std::string& what) { throw Error(code, path + ": " + what); };
  if (c.params_size < kStoreParamsBytes) bad(Code::kInconsistent, "store params need 128 bytes");
  StoreOptions options;
  options.window = DecodeWindowParams(c.params, path);
  options.window.key = key;
  const uint8_t* own = c.params + kWindowParamsBytes;
  if (LoadLe32(own) != kShards) bad(Code::kInconsistent, "shard count is not 64");
  options.idle_timeout = LoadLe32(own + 4);
  options.max_bytes = LoadLe64(own + 8);
  options.expected_users = 0;  // the index is sized from the users actually loaded
  if (c.payload_size < kShards * 8) bad(Code::kTruncated, "payload too short for the shard counts");
  const uint64_t state_bytes = options.window.state_bytes();
  const bool grows = options.window.grows();
  auto impl = std::make_unique<Impl>(options);
  impl->options.expected_users = LoadLe64(own + 16);
  impl->epoch = LoadLe32(own + 24);
  impl->epoch_set = LoadLe32(own + 28) != 0;
  impl->read_only = !writable;
  // Every size is checked against what is left of the payload before anything is allocated
  // from it.
  const uint8_t* cursor = c.payload + kShards * 8;
  const uint8_t* const end = c.payload + c.payload_size;
  auto take = [&](uint64_t bytes, const std::string& what) {
    if (bytes > static_cast<uint64_t>(end - cursor)) bad(Code::kInconsistent, what + " runs past the payload");
    const uint8_t* at = cursor;
    cursor += bytes;
    return at;
  };
  for (uint32_t s = 0; s < kShards; ++s) {
    const std::string shard = "shard " + std::to_string(s);
    const uint64_t count = LoadLe64(c.payload + 8 * s);
    if (count > static_cast<uint64_t>(end - cursor) / (8 + state_bytes) || count >= UINT32_MAX) {
      bad(Code::kInconsistent, shard + " claims " + std::to_string(count) + " users, more than the payload holds");
    }
    const uint8_t* ids = take(count * 8, shard + " ids");
    const uint8_t* hours = take(Pad8(count * 2), shard + " hours");
    const uint8_t* windows = take(count * state_bytes, shard + " windows");
    std::vector<uint64_t> users(count);
    std::vector<uint16_t> active(count);
    for (uint64_t i = 0; i < count; ++i) {
      users[i] = LoadLe64(ids + 8 * i);
      active[i] = LoadLe16(hours + 2 * i);
    }
    std::unordered_map<uint64_t, WindowGrowth> growth;
    if (grows) growth = LoadGrowth(options.window, take, path, shard);
    impl->shards[s]->users.Load(std::move(users), std::move(active), windows, std::move(growth));
    const StoreShard& loaded = impl->shards[s]->users;
    for (const auto& [user, grown] : loaded.growths()) {
      if (loaded.Find(user) < 0) bad(Code::kInconsistent, shard + ": growth of user " + std::to_string(user) + ", who is not in it");
    }
    // Every grown user's growth against their state; a table's state names its size, so with
    // this layout every user is checked, grown or not.
    for (uint64_t slot = 0; grows && slot < loaded.size(); ++slot) {
      const uint64_t user = loaded.user(slot);
      const WindowGrowth* grown = loaded.growth(user);
      if (grown == nullptr && options.window.layout != WindowLayout::kTable) continue;
      ValidateWindowGrowth(options.window, loaded.window(slot), grown != nullptr ? *grown : WindowGrowth(),
                           path + ": user " + std::to_string(user));
    }
  }
  if (cursor != end) {
    bad(Code::kInconsistent, "payload is " + std::to_string(c.payload_size) + " bytes, its shards use " +
                                 std::to_string(cursor - c.payload));
  }
  impl->file = std::move(file);
  return Store(std::move(impl));
}

}  // namespace seen
