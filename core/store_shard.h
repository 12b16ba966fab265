// One shard of the exposure store: its users, densely, and the index that finds them. Not
// thread-safe; the store holds the shard's lock around every call.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/hash.h"
#include "core/region.h"
#include "core/window.h"

namespace seen {

class StoreShard {
 public:
  // index_key places users in the index: secret, so that no one can choose user ids that
  // pile up in one run of it and make every lookup walk the run.
  StoreShard(const WindowParams& window, uint64_t expected_users, const SecretKey& index_key);

  // The slot of `user`, or -1.
  int64_t Find(uint64_t user) const;
  // Appends a user with an empty window and returns its slot.
  uint64_t Insert(uint64_t user, uint16_t hour, uint32_t now);
  // Removes the user in `slot`; the last slot moves into its place.
  void Remove(uint64_t slot);
  // Gives back memory that removals left unused: the window pages past the last user go back
  // to the kernel, and the index and user arrays shrink when mostly empty. Cheap when there is
  // nothing to give; call it after a sweep of removals, not after each one.
  void Trim();

  uint64_t size() const { return users_.size(); }
  uint64_t user(uint64_t slot) const { return users_[slot]; }
  uint16_t active_hour(uint64_t slot) const { return active_[slot]; }
  void set_active_hour(uint64_t slot, uint16_t hour) { active_[slot] = hour; }
  const uint8_t* window(uint64_t slot) const { return windows_ + slot * state_bytes_; }
  // Writable window state; copies a shard still backed by a read-only file first.
  uint8_t* mutable_window(uint64_t slot);
  // A growing window's growth, or null while it has none (most users never grow).
  const WindowGrowth* growth(uint64_t user) const;
  // Hands the user's growth over for a write (empty if none), and takes it back after.
  WindowGrowth TakeGrowth(uint64_t user);
  // Keeps `grown` as the user's growth, or forgets it when empty.
  void set_growth(uint64_t user, WindowGrowth&& grown);
  uint64_t grown_users() const { return growth_.size(); }
  // Memory held: ids, times, index, window states and growth.
  uint64_t bytes() const;
  // Of one user: its window state and growth.
  uint64_t user_bytes(uint64_t user) const;

  // Persistence: the three arrays as they are, and a shard rebuilt from them. The windows
  // stay in `file_windows` (a read-only mapping owned by the caller) until the first write.
  const std::vector<uint64_t>& users() const { return users_; }
  const std::vector<uint16_t>& active_hours() const { return active_; }
  const uint8_t* windows() const { return windows_; }
  const std::unordered_map<uint64_t, WindowGrowth>& growths() const { return growth_; }
  void Load(std::vector<uint64_t> users, std::vector<uint16_t> active, const uint8_t* file_windows,
            std::unordered_map<uint64_t, WindowGrowth> growth);

 private:
  uint64_t Home(uint64_t user) const;
  void Grow(uint64_t min_users);
  void RebuildIndex(uint64_t capacity);

  WindowParams window_params_;
  SecretKey index_key_;
  uint64_t state_bytes_;
  std::vector<uint64_t> users_;
  std::vector<uint16_t> active_;
  Region arena_;               // owned window states (empty while backed by a file)
  uint8_t* windows_ = nullptr;  // the states: in arena_ or in a file mapping
  uint64_t capacity_ = 0;      // users the current windows_ memory holds
  std::vector<uint32_t> index_;  // slot + 1, or 0 for an empty entry
  std::unordered_map<uint64_t, WindowGrowth> growth_;  // by user, only those that grew
  uint64_t growth_bytes_ = 0;
};

}  // namespace seen
