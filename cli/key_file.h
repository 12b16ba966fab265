// --key-file: the secret key of keyed mode (docs/SECURITY.md), read from a file so that it
// never appears in a command line, a shell history or `ps`.
#pragma once

#include <optional>

#include "cli/cli.h"
#include "core/hash.h"

namespace seen::cli {

// The key of --key-file PATH, or none without the option. The file (stdin for -, so that a
// key can come down a pipe from a secret store and never touch the disk) holds 16 to 64
// bytes, raw or as hex text (such as `openssl rand -hex 32 > key`); anything else is an
// Error naming the file.
std::optional<SecretKey> KeyFile(const Args& args);

}  // namespace seen::cli
