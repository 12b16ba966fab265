#include "cli/input.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "cli/cli.h"
#include "core/file.h"

namespace seen::cli {

Input::Input(std::string path) : path_(std::move(path)) {
  if (!piped()) {
    file_ = MapFile(path_, false, false);
    return;
  }
  uint8_t chunk[1 << 16];
  while (true) {
    const ssize_t got = read(STDIN_FILENO, chunk, sizeof chunk);
    if (got == 0) break;
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw Error(Code::kIo, std::string("stdin: ") + std::strerror(errno));
    stdin_bytes_.insert(stdin_bytes_.end(), chunk, chunk + got);
  }
}

void StdinOnce(std::vector<std::string> inputs, const Args& args) {
  inputs.push_back(args.get("key-file", ""));
  if (std::count(inputs.begin(), inputs.end(), "-") > 1) throw UsageError{"- (stdin) is given twice: stdin can be read once"};
}

}  // namespace seen::cli
