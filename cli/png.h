// A PNG writer with no compression library: 8-bit RGB, filter type 0 on every row, and a zlib
// stream of "stored" (uncompressed) deflate blocks, CRC-32 and Adler-32 computed here. Files
// are about 3 bytes a pixel, which is fine for a plot.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace seen::cli {

// Writes a width x height image to path, replacing the file. rgb holds 3 bytes a pixel, rows
// top first. Throws Error(Code::kIo, "<path>: ...") if the file cannot be written.
void WritePng(const std::string& path, int width, int height, const std::vector<uint8_t>& rgb);

}  // namespace seen::cli
