#include "core/store_shard.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

namespace seen {
namespace {

// The index stays between these loads: dense enough to cost about 5 B per user, sparse
// enough that linear probing stays short.
constexpr double kMaxLoad = 0.85;
constexpr double kGrowLoad = 0.7;
// Below this load the index is rebuilt smaller, and the user arrays below a quarter full.
constexpr double kShrinkLoad = 0.2;
// A grown user's map entry: node, key, vector and bucket slot, about.
constexpr uint64_t kGrowthEntryBytes = 64;

}  // namespace

StoreShard::StoreShard(const WindowParams& window, uint64_t expected_users, const SecretKey& index_key)
    : window_params_(window), index_key_(index_key), state_bytes_(window.state_bytes()) {
  // Shards fill unevenly: a margin keeps the arrays from doubling near the expected count.
  users_.reserve(expected_users + expected_users / 8 + 16);
  active_.reserve(expected_users + expected_users / 8 + 16);
  RebuildIndex(static_cast<uint64_t>(static_cast<double>(std::max<uint64_t>(expected_users, 8)) / 0.8) + 1);
}

uint64_t StoreShard::Home(uint64_t user) const {
  // A PRF of the id, not a public mix: with murmur's fmix64 (invertible), 1.28 M chosen ids
  // in one run of the index made marks 50x slower. Multiply-shift onto any index size.
  const uint64_t mixed = SipHash13U64(index_key_.k0, index_key_.k1, user);
  return static_cast<uint64_t>((static_cast<unsigned __int128>(mixed) * index_.size()) >> 64);
}

int64_t StoreShard::Find(uint64_t user) const {
  const uint64_t capacity = index_.size();
  for (uint64_t pos = Home(user);; pos = pos + 1 == capacity ? 0 : pos + 1) {
    const uint32_t entry = index_[pos];
    if (entry == 0) return -1;
    if (users_[entry - 1] == user) return entry - 1;
  }
}

uint64_t StoreShard::Insert(uint64_t user, uint16_t hour, uint32_t now) {
  if (static_cast<double>(users_.size() + 1) > kMaxLoad * static_cast<double>(index_.size())) {
    RebuildIndex(static_cast<uint64_t>(static_cast<double>(users_.size() + 1) / kGrowLoad) + 1);
  }
  if (users_.size() + 1 > capacity_ || arena_.size() == 0) Grow(users_.size() + 1);
  const uint64_t slot = users_.size();
  users_.push_back(user);
  active_.push_back(hour);
  WindowReset(window_params_, windows_ + slot * state_bytes_, now);
  const uint64_t capacity = index_.size();
  uint64_t pos = Home(user);
  while (index_[pos] != 0) pos = pos + 1 == capacity ? 0 : pos + 1;
  index_[pos] = static_cast<uint32_t>(slot + 1);
  return slot;
}

void StoreShard::Remove(uint64_t slot) {
  set_growth(users_[slot], {});
  const uint64_t capacity = index_.size();
  // Delete the index entry by backward shift, so probe chains stay unbroken.
  uint64_t hole = Home(users_[slot]);
  while (index_[hole] != slot + 1) hole = hole + 1 == capacity ? 0 : hole + 1;
  for (uint64_t next = hole + 1 == capacity ? 0 : hole + 1; index_[next] != 0;
       next = next + 1 == capacity ? 0 : next + 1) {
    const uint64_t home = Home(users_[index_[next] - 1]);
    // The entry at `next` may move to the hole if its home is not in (hole, next].
    const bool stays = hole <= next ? (home > hole && home <= next) : (home > hole || home <= next);
    if (!stays) {
      index_[hole] = index_[next];
      hole = next;
    }
  }
  index_[hole] = 0;
  // Move the last user into the freed slot and repoint its index entry.
  const uint64_t last = users_.size() - 1;
  if (slot != last) {
    uint64_t pos = Home(users_[last]);
    while (index_[pos] != last + 1) pos = pos + 1 == capacity ? 0 : pos + 1;
    index_[pos] = static_cast<uint32_t>(slot + 1);
    users_[slot] = users_[last];
    active_[slot] = active_[last];
    std::memcpy(mutable_window(slot), windows_ + last * state_bytes_, state_bytes_);
  }
  users_.pop_back();
  active_.pop_back();
}

void StoreShard::Trim() {
  if (arena_.size() > 0) {
    const auto page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
    const uint64_t used = (users_.size() * state_bytes_ + page - 1) / page * page;
    // The states past the last user are never read before Insert resets them, so their pages
    // may come back as zeros.
    if (used < arena_.size()) madvise(arena_.data() + used, arena_.size() - used, MADV_DONTNEED);
  }
  const uint64_t wanted = static_cast<uint64_t>(static_cast<double>(users_.size()) / kGrowLoad) + 1;
  if (static_cast<double>(users_.size()) < kShrinkLoad * static_cast<double>(index_.size()) &&
      index_.size() > 2 * std::max<uint64_t>(wanted, 8)) {
    RebuildIndex(wanted);
  }
  if (users_.size() < users_.capacity() / 4) {
    users_.shrink_to_fit();
    active_.shrink_to_fit();
  }
}

uint8_t* StoreShard::mutable_window(uint64_t slot) {
  if (arena_.size() == 0) Grow(users_.size());
  return windows_ + slot * state_bytes_;
}

const WindowGrowth* StoreShard::growth(uint64_t user) const {
  if (growth_.empty()) return nullptr;
  const auto found = growth_.find(user);
  return found == growth_.end() ? nullptr : &found->second;
}

WindowGrowth StoreShard::TakeGrowth(uint64_t user) {
  const auto found = growth_.find(user);
  if (found == growth_.end()) return {};
  // The entry stays, empty, for set_growth to find: a table window's user writes their growth
  // at every mark, and erasing and inserting the entry each time costs an allocation.
  WindowGrowth taken = std::move(found->second);
  found->second = WindowGrowth();
  growth_bytes_ -= taken.capacity() + kGrowthEntryBytes;
  return taken;
}

void StoreShard::set_growth(uint64_t user, WindowGrowth&& grown) {
  const auto found = growth_.find(user);
  if (found != growth_.end()) {
    // An entry TakeGrowth emptied is no longer counted.
    if (!found->second.empty()) growth_bytes_ -= found->second.capacity() + kGrowthEntryBytes;
    if (grown.empty()) {
      growth_.erase(found);
      return;
    }
    found->second = std::move(grown);
    growth_bytes_ += found->second.capacity() + kGrowthEntryBytes;
  } else if (!grown.empty()) {
    growth_bytes_ += grown.capacity() + kGrowthEntryBytes;
    growth_.emplace(user, std::move(grown));
  }
}

uint64_t StoreShard::bytes() const {
  return users_.capacity() * sizeof(uint64_t) + active_.capacity() * sizeof(uint16_t) +
         users_.size() * state_bytes_ + index_.size() * sizeof(uint32_t) + growth_bytes_;
}

uint64_t StoreShard::user_bytes(uint64_t user) const {
  const WindowGrowth* grown = growth(user);
  return state_bytes_ + (grown != nullptr ? grown->capacity() + kGrowthEntryBytes : 0);
}

void StoreShard::Grow(uint64_t min_users) {
  const uint64_t capacity = std::max<uint64_t>({min_users, 2 * capacity_, 16});
  Region grown = Region::Allocate(capacity * state_bytes_);
  if (!users_.empty()) std::memcpy(grown.data(), windows_, users_.size() * state_bytes_);
  arena_ = std::move(grown);
  windows_ = arena_.data();
  capacity_ = capacity;
}

void StoreShard::RebuildIndex(uint64_t capacity) {
  // A fresh vector, not assign(): assign keeps the old capacity, and Trim shrinks with this.
  index_ = std::vector<uint32_t>(std::max<uint64_t>(capacity, 8), 0);
  for (uint64_t slot = 0; slot < users_.size(); ++slot) {
    uint64_t pos = Home(users_[slot]);
    while (index_[pos] != 0) pos = pos + 1 == index_.size() ? 0 : pos + 1;
    index_[pos] = static_cast<uint32_t>(slot + 1);
  }
}

void StoreShard::Load(std::vector<uint64_t> users, std::vector<uint16_t> active,
                      const uint8_t* file_windows, std::unordered_map<uint64_t, WindowGrowth> growth) {
  growth_.clear();
  growth_bytes_ = 0;
  for (auto& [user, grown] : growth) set_growth(user, std::move(grown));
  users_ = std::move(users);
  active_ = std::move(active);
  arena_ = Region();
  windows_ = const_cast<uint8_t*>(file_windows);
  capacity_ = users_.size();
  RebuildIndex(static_cast<uint64_t>(static_cast<double>(users_.size()) / kGrowLoad) + 1);
}

}  // namespace seen
