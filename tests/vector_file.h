// The shared test vectors of tests/vectors/: a .vec text file says how to build a filter or
// a window and what it must answer; the .seen file beside it is what every language must
// produce byte for byte. Format (one directive per line, '#' starts a comment):
//   kind bloom|window|counting|scalable | expected_items N | fpr P | seed S
//   windows only: mode count|time | span N | max_slack X | now T (the clock from here on)
//   scalable only: capacity N (initial) | growth G | tightening T (fpr is the bound)
//   add_u64 ID | add_key HEX (- for the empty key)
//   counting only: remove_u64 ID 0|1 | remove_key HEX 0|1 (1: removed, 0: certainly absent)
//   query_u64 ID 0|1 | query_key HEX 0|1
// Directives apply in order (for a window, adds and queries happen at the latest `now`).
#pragma once

#include <cstdint>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace seen::test {

struct Query {
  bool is_key;
  uint64_t id;
  std::string key;
  int expected;
};

// One add, query or remove in script order, at clock `now`. A remove's item.expected is
// whether it removed the key.
struct Step {
  bool is_query;
  Query item;
  uint32_t now;
  bool is_remove = false;
};

struct Vector {
  std::string kind;
  std::string mode;
  uint32_t span = 0;
  double max_slack = 0;
  std::vector<Step> steps;
  uint32_t start = 0;  // the first `now`: when the window was created
  uint64_t expected_items = 0;
  double fpr = 0;
  uint64_t seed = 0;
  uint64_t capacity = 0;
  double growth = 0;
  double tightening = 0;
  std::vector<uint64_t> add_ids;
  std::vector<std::string> add_keys;
  std::vector<Query> queries;
};

inline std::string FromHex(const std::string& hex) {
  if (hex == "-") return "";
  std::string bytes;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    bytes.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return bytes;
}

inline std::string ToHex(const std::string& bytes) {
  if (bytes.empty()) return "-";
  static const char* digits = "0123456789abcdef";
  std::string hex;
  for (unsigned char c : bytes) {
    hex.push_back(digits[c >> 4]);
    hex.push_back(digits[c & 15]);
  }
  return hex;
}

inline Vector ReadVector(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  Vector v;
  uint32_t now = 0;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string directive, arg;
    int expected = 0;
    words >> directive >> arg;
    if (directive == "kind") v.kind = arg;
    if (directive == "mode") v.mode = arg;
    if (directive == "span") v.span = static_cast<uint32_t>(std::stoul(arg));
    if (directive == "max_slack") v.max_slack = std::stod(arg);
    if (directive == "now") {
      now = static_cast<uint32_t>(std::stoul(arg));
      if (v.steps.empty() && v.start == 0) v.start = now;
    }
    if (directive == "expected_items") v.expected_items = std::stoull(arg);
    if (directive == "fpr") v.fpr = std::stod(arg);
    if (directive == "seed") v.seed = std::stoull(arg);
    if (directive == "capacity") v.capacity = std::stoull(arg);
    if (directive == "growth") v.growth = std::stod(arg);
    if (directive == "tightening") v.tightening = std::stod(arg);
    if (directive == "remove_u64" && words >> expected) {
      v.steps.push_back({false, {false, std::stoull(arg), "", expected}, now, true});
    }
    if (directive == "remove_key" && words >> expected) {
      v.steps.push_back({false, {true, 0, FromHex(arg), expected}, now, true});
    }
    if (directive == "add_u64") {
      v.add_ids.push_back(std::stoull(arg));
      v.steps.push_back({false, {false, v.add_ids.back(), "", 0}, now});
    }
    if (directive == "add_key") {
      v.add_keys.push_back(FromHex(arg));
      v.steps.push_back({false, {true, 0, v.add_keys.back(), 0}, now});
    }
    if (directive == "query_u64" && words >> expected) {
      v.queries.push_back({false, std::stoull(arg), "", expected});
      v.steps.push_back({true, v.queries.back(), now});
    }
    if (directive == "query_key" && words >> expected) {
      v.queries.push_back({true, 0, FromHex(arg), expected});
      v.steps.push_back({true, v.queries.back(), now});
    }
  }
  return v;
}

inline std::vector<uint8_t> ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

}  // namespace seen::test
