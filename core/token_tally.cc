#include "core/token_tally.h"

#include <random>

namespace seen {
namespace {

constexpr unsigned kInitialBits = 10;
// A tally kept between texts holds at most this many slots (256 KiB); a bigger one is freed.
constexpr size_t kKeptSlots = size_t{1} << 16;

uint64_t ProcessSalt() {
  static const uint64_t salt = [] {
    std::random_device device;
    return ((uint64_t{device()} << 32) | device()) | 1;
  }();
  return salt;
}

}  // namespace

TokenTally::TokenTally()
    : slots_(size_t{1} << kInitialBits), salt_(ProcessSalt()), shift_(64 - kInitialBits) {}

TalliedToken& TokenTally::Add(uint64_t hash) {
  const size_t mask = slots_.size() - 1;
  for (size_t slot = Slot(hash);; slot = (slot + 1) & mask) {
    const uint32_t entry = slots_[slot];
    if (entry == 0) {
      tokens_.push_back({hash, 1, 1.0f, static_cast<uint32_t>(slot), false});
      slots_[slot] = static_cast<uint32_t>(tokens_.size());
      // At half full the table doubles; tokens_ keeps its order, only slots move.
      if (2 * tokens_.size() > slots_.size()) {
        Grow();
      }
      return tokens_.back();
    }
    TalliedToken& token = tokens_[entry - 1];
    if (token.hash == hash) {
      if (token.count != UINT32_MAX) ++token.count;
      return token;
    }
  }
}

void TokenTally::Grow() {
  slots_.assign(slots_.size() * 2, 0);
  --shift_;
  const size_t mask = slots_.size() - 1;
  for (size_t i = 0; i < tokens_.size(); ++i) {
    size_t slot = Slot(tokens_[i].hash);
    while (slots_[slot] != 0) slot = (slot + 1) & mask;
    slots_[slot] = static_cast<uint32_t>(i + 1);
    tokens_[i].slot = static_cast<uint32_t>(slot);
  }
}

void TokenTally::Clear() {
  if (slots_.size() > kKeptSlots) {
    *this = TokenTally();
    return;
  }
  for (const TalliedToken& token : tokens_) slots_[token.slot] = 0;
  tokens_.clear();
}

}  // namespace seen
