#include "cli/json_field.h"

#include <cstdint>

#include "core/error.h"
#include "core/simhash_unicode.h"

namespace seen::cli {
namespace {

class Reader {
 public:
  Reader(std::string_view s, const std::string& where) : s_(s), where_(where) {}

  [[noreturn]] void Bad(const std::string& what) const {
    throw Error(Code::kIo, where_ + ": not a JSON object line (" + what + " at byte " + std::to_string(at_) + ")");
  }
  void Space() {
    while (at_ < s_.size() && (s_[at_] == ' ' || s_[at_] == '\t' || s_[at_] == '\r' || s_[at_] == '\n')) ++at_;
  }
  char Peek() {
    Space();
    if (at_ >= s_.size()) Bad("unexpected end");
    return s_[at_];
  }
  void Expect(char c) {
    if (Peek() != c) Bad(std::string("expected '") + c + "'");
    ++at_;
  }

  std::string String() {
    Expect('"');
    std::string out;
    while (true) {
      if (at_ >= s_.size()) Bad("unterminated string");
      const char c = s_[at_++];
      if (c == '"') return out;
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      if (at_ >= s_.size()) Bad("unterminated escape");
      const char e = s_[at_++];
      switch (e) {
        case 'n': out.push_back('\n'); break;
        case 't': out.push_back('\t'); break;
        case 'r': out.push_back('\r'); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'u': Unicode(out); break;
        default: out.push_back(e);  // \" \\ \/
      }
    }
  }

  // Any value, skipped: strings with their escapes, brackets nested to any depth.
  void Skip() {
    const char c = Peek();
    if (c == '"') {
      String();
    } else if (c == '{' || c == '[') {
      int depth = 0;
      do {
        if (at_ >= s_.size()) Bad("unbalanced brackets");
        const char d = s_[at_];
        if (d == '"') {
          String();
          continue;
        }
        depth += (d == '{' || d == '[') - (d == '}' || d == ']');
        ++at_;
      } while (depth > 0);
    } else {
      while (at_ < s_.size() && s_[at_] != ',' && s_[at_] != '}') ++at_;
    }
  }

 private:
  uint32_t Hex4() {
    if (at_ + 4 > s_.size()) Bad("short \\u escape");
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = s_[at_++];
      const int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                        : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
      if (digit < 0) Bad("bad \\u escape");
      v = v * 16 + static_cast<uint32_t>(digit);
    }
    return v;
  }
  void Unicode(std::string& out) {
    uint32_t cp = Hex4();
    if (cp >= 0xD800 && cp <= 0xDBFF && s_.substr(at_, 2) == "\\u") {
      at_ += 2;
      const uint32_t low = Hex4();
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    }
    uint8_t bytes[4];
    out.append(reinterpret_cast<const char*>(bytes), text::Encode(cp, bytes));
  }

  std::string_view s_;
  const std::string& where_;
  size_t at_ = 0;
};

}  // namespace

std::optional<std::string> JsonStringField(std::string_view line, const std::string& name,
                                           const std::string& where) {
  Reader r(line, where);
  r.Expect('{');
  if (r.Peek() == '}') return std::nullopt;
  while (true) {
    const std::string key = r.String();
    r.Expect(':');
    if (key == name && r.Peek() == '"') return r.String();
    r.Skip();
    if (r.Peek() == '}') return std::nullopt;
    r.Expect(',');
  }
}

}  // namespace seen::cli
