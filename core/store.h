// The exposure store: one window per user id, for millions of users. Users live in shards
// (a lock each) chosen by the id's hash. A shard keeps its users densely, structure of
// arrays: ids, last-active hours, and the windows' state bytes in one arena; an
// open-addressing index of 32-bit slot numbers finds a user. Per user that is 8 B of id,
// 2 B of last-active time and about 5 B of index: 15 B beside the window.
//
// A user appears on first mark or take, and is dropped after idle_timeout seconds without
// one (checked on access and by Expire). At the memory bound a new user first evicts the
// least recently active of a random sample of its shard's users (approximate LRU, counted),
// never the window of the user being written.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/defaults.h"
#include "core/region.h"
#include "core/window.h"

namespace seen {

struct StoreOptions {
  WindowParams window;
  uint32_t idle_timeout = defaults::kStoreIdleTimeout;  // seconds without a mark or take; 0 never expires
  uint64_t max_bytes = 0;         // memory bound of the whole store; 0 is unbounded
  uint64_t expected_users = defaults::kStoreExpectedUsers;  // sizes the index up front
};

struct StoreStats {
  uint64_t users = 0;
  uint64_t bytes = 0;  // memory held: windows, their growth, ids, times and index
  uint64_t evictions = 0;
  uint64_t expirations = 0;
  uint64_t users_grown = 0;  // users whose growing window opened sub-filters
  uint64_t span_drops = 0;   // segments windows gave up to their max_bytes
};

// How full the users' windows are (Store::Saturation): a time window given more items than
// it was sized for holds a rate above its target, and these count such users.
struct StoreSaturation {
  uint64_t users = 0;
  uint64_t above_target = 0;  // users whose window's predicted rate exceeds the target fpr
  double mean_fill = 0;       // over users
  double max_rate = 0;        // the highest predicted rate of any user
  uint64_t span_limited = 0;  // users whose effective span is under the span
};

// One user's window: its saturation and the bytes its state and growth hold.
struct UserSaturation {
  WindowSaturation window;
  uint64_t bytes = 0;
};

class Store {
 public:
  explicit Store(const StoreOptions& options);
  ~Store();
  Store(Store&&) noexcept;
  Store& operator=(Store&&) noexcept;

  // unseen[i] = 1 if candidate i is not in the user's window (every candidate of an unknown
  // user is unseen). Does not count as activity.
  void Filter(uint64_t user, const uint64_t* candidates, size_t n, uint32_t now,
              uint8_t* unseen) const;
  void Mark(uint64_t user, const uint64_t* items, size_t n, uint32_t now);
  // Atomically: the first `want` unseen candidates, in order, go to taken and are marked.
  // Returns how many were taken.
  size_t Take(uint64_t user, const uint64_t* candidates, size_t n, size_t want, uint32_t now,
              uint64_t* taken);
  // Drops every user idle longer than idle_timeout at `now`; returns how many. The memory
  // they held goes back to the system (resident memory follows the users still live).
  uint64_t Expire(uint32_t now);
  StoreStats Stats() const;
  // Measures every user's window at `now` (O(users x window bytes); takes each shard's lock
  // shared, so it runs beside filters and waits for marks).
  StoreSaturation Saturation(uint32_t now) const;
  // One user's window at `now`; nullopt for a user the store does not hold.
  std::optional<UserSaturation> SaturationOf(uint64_t user, uint32_t now) const;
  // The user's effective span at `now` in O(1) (the span for an unknown user).
  uint32_t EffectiveSpanOf(uint64_t user, uint32_t now) const;
  const StoreOptions& options() const;
  bool read_only() const;

  void Save(const std::string& path) const;
  // A keyed store's file needs its key (a missing or wrong one is kIncompatible).
  static Store Open(const std::string& path, bool writable, bool verify_payload,
                    const std::optional<SecretKey>& key = std::nullopt);

 private:
  struct Impl;
  explicit Store(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace seen
