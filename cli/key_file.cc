#include "cli/key_file.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "core/error.h"

namespace seen::cli {
namespace {

// Hex text (an even number of hex digits, with surrounding whitespace) as bytes, or the
// file's bytes as they are.
std::vector<uint8_t> KeyBytes(const std::string& content) {
  const size_t first = content.find_first_not_of(" \t\r\n");
  const size_t last = content.find_last_not_of(" \t\r\n");
  const std::string text = first == std::string::npos ? "" : content.substr(first, last - first + 1);
  const bool hex = !text.empty() && text.size() % 2 == 0 &&
                   std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isxdigit(c) != 0; });
  if (!hex) return {content.begin(), content.end()};
  std::vector<uint8_t> bytes;
  for (size_t i = 0; i < text.size(); i += 2) bytes.push_back(static_cast<uint8_t>(std::stoi(text.substr(i, 2), nullptr, 16)));
  return bytes;
}

}  // namespace

std::optional<SecretKey> KeyFile(const Args& args) {
  const std::string path = args.get("key-file", "");
  if (path.empty()) return std::nullopt;
  const std::string name = path == "-" ? "stdin" : path;
  std::ifstream file;
  if (path != "-") file.open(path, std::ios::binary);
  std::istream& in = path == "-" ? std::cin : file;
  if (!in) throw Error(Code::kIo, name + ": cannot read the key file");
  const std::string content{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const std::vector<uint8_t> bytes = KeyBytes(content);
  try {
    return SecretKey::FromBytes(bytes.data(), bytes.size());
  } catch (const Error& e) {
    throw Error(e.code(), name + ": " + e.what() + " (raw, or as hex text)");
  }
}

}  // namespace seen::cli
