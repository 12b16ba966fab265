// A file the CLI reads whole (a filter, window or index), or stdin for "-", so a file can come
// down a pipe: `curl -s URL | seen info -`. A file is mapped and opened in place; stdin is
// read into memory and parsed from there.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/region.h"

namespace seen::cli {

class Input {
 public:
  // Maps path (lazily), or reads every byte of stdin for "-". Errors name the path.
  explicit Input(std::string path);

  // "stdin" for "-", else the path: what messages name.
  std::string name() const { return piped() ? "stdin" : path_; }
  const uint8_t* data() const { return piped() ? stdin_bytes_.data() : file_.data(); }
  uint64_t size() const { return piped() ? stdin_bytes_.size() : file_.size(); }

  // The object the input holds: open(path) for a file, which maps it in place, or
  // parse(data, size) over stdin's bytes, its errors prefixed with "stdin: ".
  template <typename Open, typename Parse>
  auto Load(Open open, Parse parse) const -> decltype(open(std::string())) {
    if (!piped()) return open(path_);
    try {
      return parse(stdin_bytes_.data(), static_cast<uint64_t>(stdin_bytes_.size()));
    } catch (const Error& e) {
      throw Error(e.code(), std::string("stdin: ") + e.what());
    }
  }

 private:
  bool piped() const { return path_ == "-"; }

  std::string path_;
  std::vector<uint8_t> stdin_bytes_;
  Region file_;
};

class Args;

// Refuses a command line that reads stdin twice: two of `inputs` (the files the command reads)
// are -, as in `seen merge - -`, or one is and so is --key-file.
void StdinOnce(std::vector<std::string> inputs, const Args& args);

}  // namespace seen::cli
