#include "cli/png.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/error.h"

namespace seen::cli {
namespace {

constexpr size_t kMaxStoredBlock = 65535;  // LEN is 16 bits

constexpr std::array<uint32_t, 256> MakeCrcTable() {
  std::array<uint32_t, 256> table{};
  for (uint32_t n = 0; n < 256; ++n) {
    uint32_t c = n;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    table[n] = c;
  }
  return table;
}

constexpr std::array<uint32_t, 256> kCrcTable = MakeCrcTable();

uint32_t Crc32(const uint8_t* data, size_t size) {
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < size; ++i) c = kCrcTable[(c ^ data[i]) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

uint32_t Adler32(const std::vector<uint8_t>& data) {
  constexpr uint32_t kMod = 65521;
  uint32_t a = 1, b = 0;
  for (uint8_t byte : data) {
    a = (a + byte) % kMod;
    b = (b + a) % kMod;
  }
  return b << 16 | a;
}

// PNG and zlib store integers big-endian; deflate's LEN and NLEN are little-endian.
void AppendBigEndian32(std::vector<uint8_t>& out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<uint8_t>(v >> shift));
}

void AppendLittleEndian16(std::vector<uint8_t>& out, uint16_t v) {
  out.push_back(static_cast<uint8_t>(v));
  out.push_back(static_cast<uint8_t>(v >> 8));
}

// Length, type, data, and the CRC of type and data.
void AppendChunk(std::vector<uint8_t>& out, const char (&type)[5],
                 const std::vector<uint8_t>& data) {
  AppendBigEndian32(out, static_cast<uint32_t>(data.size()));
  const size_t crc_start = out.size();
  out.insert(out.end(), type, type + 4);
  out.insert(out.end(), data.begin(), data.end());
  AppendBigEndian32(out, Crc32(out.data() + crc_start, out.size() - crc_start));
}

// A zlib stream holding raw as stored deflate blocks: each a header byte (BFINAL on the last,
// BTYPE 00), then LEN and its complement NLEN, then LEN bytes as they are.
std::vector<uint8_t> ZlibStored(const std::vector<uint8_t>& raw) {
  std::vector<uint8_t> out = {0x78, 0x01};  // deflate, 32 KiB window; header check multiple of 31
  size_t pos = 0;
  do {
    const size_t len = std::min(kMaxStoredBlock, raw.size() - pos);
    const bool last = pos + len == raw.size();
    out.push_back(last ? 1 : 0);
    AppendLittleEndian16(out, static_cast<uint16_t>(len));
    AppendLittleEndian16(out, static_cast<uint16_t>(~len));
    const auto block = raw.begin() + static_cast<long>(pos);
    out.insert(out.end(), block, block + static_cast<long>(len));
    pos += len;
  } while (pos < raw.size());
  AppendBigEndian32(out, Adler32(raw));
  return out;
}

std::vector<uint8_t> EncodePng(int width, int height, const std::vector<uint8_t>& rgb) {
  std::vector<uint8_t> header;
  AppendBigEndian32(header, static_cast<uint32_t>(width));
  AppendBigEndian32(header, static_cast<uint32_t>(height));
  // 8-bit RGB, deflate, filter method 0, no interlace.
  header.insert(header.end(), {8, 2, 0, 0, 0});

  const size_t row_bytes = size_t{3} * static_cast<size_t>(width);
  std::vector<uint8_t> scanlines;
  scanlines.reserve(static_cast<size_t>(height) * (1 + row_bytes));
  for (size_t row = 0; row < static_cast<size_t>(height); ++row) {
    scanlines.push_back(0);  // filter type None
    const auto begin = rgb.begin() + static_cast<long>(row * row_bytes);
    scanlines.insert(scanlines.end(), begin, begin + static_cast<long>(row_bytes));
  }

  std::vector<uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  AppendChunk(png, "IHDR", header);
  AppendChunk(png, "IDAT", ZlibStored(scanlines));
  AppendChunk(png, "IEND", {});
  return png;
}

}  // namespace

void WritePng(const std::string& path, int width, int height, const std::vector<uint8_t>& rgb) {
  const std::vector<uint8_t> png = EncodePng(width, height, rgb);
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) throw Error(Code::kIo, path + ": cannot create: " + std::strerror(errno));
  const bool written = std::fwrite(png.data(), 1, png.size(), file) == png.size();
  const int write_errno = errno;
  const bool closed = std::fclose(file) == 0;  // flushes, so a full disk can show up only here
  if (!written || !closed) {
    const int error = written ? errno : write_errno;
    throw Error(Code::kIo, path + ": cannot write: " + std::strerror(error));
  }
}

}  // namespace seen::cli
