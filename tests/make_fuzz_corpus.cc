// Writes the fuzzers' seed corpus, one small valid file of every kind and layout
// (tests/sample_files.h), into a directory: make_fuzz_corpus DIR. Run at build time.
#include <cstdio>
#include <string>

#include "tests/sample_files.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_fuzz_corpus DIR\n");
    return 2;
  }
  const std::string dir = argv[1];
  for (const auto& [name, kind, bytes] : seen::test::SampleFiles(dir + "/store.tmp")) {
    if (bytes.size() < 64) {
      std::fprintf(stderr, "make_fuzz_corpus: the %s sample was not made: %s\n", name.c_str(), seen_last_error());
      return 1;
    }
    FILE* file = std::fopen((dir + "/" + name + ".seen").c_str(), "wb");
    if (file == nullptr || std::fwrite(bytes.data(), 1, bytes.size(), file) != bytes.size() || std::fclose(file) != 0) {
      std::perror(name.c_str());
      return 1;
    }
  }
  return 0;
}
