// Writes a copy of a container file with bytes replaced at an offset and both checksums
// recomputed, so that a reader reaches the field check instead of stopping at a checksum:
//   set_field IN OFFSET HEX OUT
// The CLI tests use it to make files whose one bad field `seen info` must name.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "core/format.h"

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: set_field IN OFFSET HEX OUT\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::perror(argv[1]);
    return 1;
  }
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string hex = argv[3];
  const size_t offset = std::strtoull(argv[2], nullptr, 10);
  if (hex.size() % 2 != 0 || offset + hex.size() / 2 > bytes.size()) {
    std::fprintf(stderr, "set_field: cannot set %zu bytes at %zu of %s\n", hex.size() / 2, offset, argv[1]);
    return 1;
  }
  for (size_t i = 0; i < hex.size() / 2; ++i) {
    bytes[offset + i] = static_cast<uint8_t>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
  }
  seen::ResealContainer(bytes.data(), bytes.size());
  std::ofstream out(argv[4], std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return out.good() ? 0 : 1;
}
