// make_keys: writes N distinct keys of 16 hex characters, one per line, to stdout, for the
// `seen build` benchmark.   make_keys N
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_keys N\n");
    return 2;
  }
  const unsigned long long n = std::strtoull(argv[1], nullptr, 10);
  static const char digits[] = "0123456789abcdef";
  std::vector<char> buffer;
  buffer.reserve(17 << 16);
  for (unsigned long long i = 0; i < n; ++i) {
    // An odd multiplier is a bijection: every key is distinct.
    unsigned long long x = i * 0x9E3779B97F4A7C15ULL;
    for (int d = 0; d < 16; ++d) buffer.push_back(digits[(x >> (60 - 4 * d)) & 15]);
    buffer.push_back('\n');
    if (buffer.size() >= (17u << 16)) {
      std::fwrite(buffer.data(), 1, buffer.size(), stdout);
      buffer.clear();
    }
  }
  std::fwrite(buffer.data(), 1, buffer.size(), stdout);
  return 0;
}
