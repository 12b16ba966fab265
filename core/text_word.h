// A word as the tokenizer gathers it, one folded character at a time, for SimHash and MinHash
// alike: short words in a fixed buffer, the rare longer one continued in a string. Not a
// std::string for all: its out-of-line append per character cost a fifth of English time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace seen::text {

class WordBuilder {
 public:
  void Append(uint8_t byte) {
    if (size_ < sizeof short_) {
      short_[size_++] = byte;
    } else {
      Append(&byte, 1);
    }
  }

  void Append(const uint8_t* bytes, size_t n) {
    if (size_ + n <= sizeof short_) {
      for (size_t i = 0; i < n; ++i) short_[size_++] = bytes[i];  // 1-4 bytes: no memcpy call
      return;
    }
    if (long_.empty()) long_.assign(reinterpret_cast<const char*>(short_), size_);
    long_.append(reinterpret_cast<const char*>(bytes), n);
    size_ += n;
  }

  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  const uint8_t* data() const {
    return long_.empty() ? short_ : reinterpret_cast<const uint8_t*>(long_.data());
  }

  void Clear() {
    size_ = 0;
    long_.clear();
  }

 private:
  uint8_t short_[64];
  size_t size_ = 0;
  std::string long_;
};

}  // namespace seen::text
