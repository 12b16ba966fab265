// The scatter plot writer (cli/plot.h): a valid PNG (signature, IHDR, every chunk's CRC-32,
// stored deflate blocks whose Adler-32 matches) with each marker where PointPixel says, in its
// colour. The checksums here are computed bit by bit, apart from the table-driven ones in
// cli/png.cc, and checked against published values first.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "cli/plot.h"
#include "core/error.h"

namespace seen::cli {
namespace {

uint32_t ReferenceCrc32(const uint8_t* data, size_t size) {
  uint32_t crc = 0xFFFFFFFFu;
  for (size_t i = 0; i < size; ++i) {
    crc ^= data[i];
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1)));
  }
  return ~crc;
}

uint32_t ReferenceAdler32(const std::vector<uint8_t>& data) {
  uint64_t a = 1, b = 0;
  for (uint8_t byte : data) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return static_cast<uint32_t>(b << 16 | a);
}

uint32_t BigEndian32(const uint8_t* p) {
  return uint32_t{p[0]} << 24 | uint32_t{p[1]} << 16 | uint32_t{p[2]} << 8 | p[3];
}

std::vector<uint8_t> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct DecodedPng {
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> scanlines;  // a filter byte, then 3 bytes a pixel, for each row
  size_t stored_blocks = 0;

  // 0xRRGGBB at column x, row y.
  uint32_t At(int x, int y) const {
    const uint8_t* p = &scanlines[static_cast<size_t>(y) * (1 + 3 * width) + 1 + 3 * x];
    return uint32_t{p[0]} << 16 | uint32_t{p[1]} << 8 | p[2];
  }
};

// Checks the file's structure on the way: signature, IHDR first (8-bit RGB), every CRC, IEND
// last, a zlib stream of stored blocks only, and its Adler-32.
void Decode(const std::vector<uint8_t>& file, DecodedPng* png) {
  const uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  ASSERT_GE(file.size(), 8u);
  ASSERT_TRUE(std::equal(kSignature, kSignature + 8, file.begin()));

  std::vector<std::string> types;
  std::vector<uint8_t> zlib;
  for (size_t pos = 8; pos < file.size();) {
    ASSERT_LE(pos + 12, file.size());
    const uint32_t length = BigEndian32(&file[pos]);
    ASSERT_LE(pos + 12 + length, file.size());
    const uint8_t* type_and_data = &file[pos + 4];
    const std::string type(type_and_data, type_and_data + 4);
    EXPECT_EQ(BigEndian32(type_and_data + 4 + length), ReferenceCrc32(type_and_data, 4 + length))
        << "CRC of chunk " << types.size() << " (" << type << ")";
    const uint8_t* data = type_and_data + 4;
    if (type == "IHDR") {
      ASSERT_EQ(length, 13u);
      png->width = BigEndian32(data);
      png->height = BigEndian32(data + 4);
      EXPECT_EQ(std::vector<uint8_t>(data + 8, data + 13), (std::vector<uint8_t>{8, 2, 0, 0, 0}));
    }
    if (type == "IDAT") zlib.insert(zlib.end(), data, data + length);
    types.push_back(type);
    pos += 12 + length;
  }
  ASSERT_GE(types.size(), 3u);
  EXPECT_EQ(types.front(), "IHDR");
  EXPECT_EQ(types.back(), "IEND");

  ASSERT_GE(zlib.size(), 2u);
  EXPECT_EQ(zlib[0] & 0x0F, 8) << "compression method deflate";
  EXPECT_EQ((zlib[0] << 8 | zlib[1]) % 31, 0) << "zlib header check";
  EXPECT_EQ(zlib[1] & 0x20, 0) << "no preset dictionary";
  size_t pos = 2;
  for (bool last_block = false; !last_block;) {
    ASSERT_LE(pos + 5, zlib.size());
    // Each stored block starts on a byte: BFINAL in bit 0, BTYPE 00, the rest padding.
    ASSERT_EQ(zlib[pos] & ~1, 0) << "block " << png->stored_blocks << " is not stored";
    last_block = zlib[pos] & 1;
    const uint16_t len = static_cast<uint16_t>(zlib[pos + 1] | zlib[pos + 2] << 8);
    const uint16_t nlen = static_cast<uint16_t>(zlib[pos + 3] | zlib[pos + 4] << 8);
    ASSERT_EQ(len, static_cast<uint16_t>(~nlen));
    ASSERT_LE(pos + 5 + len, zlib.size());
    png->scanlines.insert(png->scanlines.end(), &zlib[pos + 5], &zlib[pos + 5] + len);
    pos += 5 + len;
    ++png->stored_blocks;
  }
  ASSERT_EQ(pos + 4, zlib.size()) << "Adler-32, then the end of the stream";
  EXPECT_EQ(BigEndian32(&zlib[pos]), ReferenceAdler32(png->scanlines));
}

std::string TempPath(const std::string& name) { return ::testing::TempDir() + name; }

const std::vector<PlotPoint> kLogLogPoints = {
    {8, 0.021, "blocked"}, {10, 0.0082, "classic"}, {40, 4e-5, "xor8"}, {100, 3.5e-6, "ribbon"}};

TEST(Plot, ReferenceChecksumsMatchPublishedValues) {
  const std::string check = "123456789";
  EXPECT_EQ(ReferenceCrc32(reinterpret_cast<const uint8_t*>(check.data()), check.size()),
            0xCBF43926u);
  const std::string wikipedia = "Wikipedia";
  EXPECT_EQ(ReferenceAdler32({wikipedia.begin(), wikipedia.end()}), 0x11E60398u);
}

TEST(Plot, WritesAValidPngOfTheRequestedSize) {
  PlotSpec spec;
  spec.title = "False positives";
  spec.x_label = "bits per key";
  spec.y_label = "rate";
  spec.log_x = true;
  spec.width = 640;
  spec.height = 480;
  const std::string path = TempPath("seen_plot_valid.png");
  WriteScatterPng(path, spec, kLogLogPoints);

  DecodedPng png;
  ASSERT_NO_FATAL_FAILURE(Decode(ReadFile(path), &png));
  EXPECT_EQ(png.width, 640u);
  EXPECT_EQ(png.height, 480u);
  ASSERT_EQ(png.scanlines.size(), size_t{480} * (1 + 3 * 640));
  EXPECT_GT(png.stored_blocks, 1u) << "more than 65535 bytes need several blocks";
  for (size_t row = 0; row < 480; ++row) {
    ASSERT_EQ(png.scanlines[row * (1 + 3 * 640)], 0) << "filter byte of row " << row;
  }
}

void ExpectMarkersInTheirColours(const PlotSpec& spec, const std::vector<PlotPoint>& points,
                                 const std::string& name) {
  const std::string path = TempPath(name);
  WriteScatterPng(path, spec, points);
  DecodedPng png;
  ASSERT_NO_FATAL_FAILURE(Decode(ReadFile(path), &png));
  ASSERT_EQ(png.scanlines.size(), png.height * (1 + 3 * size_t{png.width}));
  for (size_t i = 0; i < points.size(); ++i) {
    const Pixel at = PointPixel(spec, points, i);
    ASSERT_GE(at.x, 0);
    ASSERT_GE(at.y, 0);
    ASSERT_LT(at.x, spec.width);
    ASSERT_LT(at.y, spec.height);
    EXPECT_EQ(png.At(at.x, at.y), PointColor(i)) << points[i].label;
    EXPECT_EQ(png.At(at.x + 2, at.y - 2), PointColor(i)) << points[i].label << ", off centre";
  }
  EXPECT_EQ(png.At(0, 0), 0xFFFFFFu) << "the background is white";
}

TEST(Plot, MarkersAreWherePointPixelSaysInTheirColours) {
  PlotSpec spec;
  spec.log_x = true;
  ExpectMarkersInTheirColours(spec, kLogLogPoints, "seen_plot_loglog.png");

  PlotSpec linear;
  linear.log_y = false;
  linear.title = "Throughput";
  ExpectMarkersInTheirColours(linear, {{1, 95.5, "one"}, {4, 340, "four"}, {16, 700, "sixteen"}},
                              "seen_plot_linear.png");
}

TEST(Plot, PointPixelFollowsTheData) {
  PlotSpec spec;
  spec.log_x = true;
  const Pixel blocked = PointPixel(spec, kLogLogPoints, 0);
  const Pixel ribbon = PointPixel(spec, kLogLogPoints, 3);
  EXPECT_LT(blocked.x, ribbon.x) << "x grows to the right";
  EXPECT_LT(blocked.y, ribbon.y) << "y grows upward, rows downward";
  // On log axes equal ratios are equal distances: 10 -> 100 spans what 4e-5 -> 4e-4 does on y.
  const std::vector<PlotPoint> decade = {{10, 4e-5, ""}, {100, 4e-4, ""}, {1000, 4e-3, ""}};
  spec.width = spec.height = 700;
  const Pixel a = PointPixel(spec, decade, 0), b = PointPixel(spec, decade, 1),
              c = PointPixel(spec, decade, 2);
  EXPECT_NEAR(b.x - a.x, c.x - b.x, 1);
  EXPECT_NEAR(a.y - b.y, b.y - c.y, 1);
}

TEST(Plot, RejectsValuesALogAxisCannotShow) {
  PlotSpec spec;  // log y
  try {
    WriteScatterPng(TempPath("seen_plot_rejected.png"), spec, {{1, 0, "zero"}});
    FAIL() << "a zero on a log axis was drawn";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), Code::kInvalidArgument);
    EXPECT_NE(std::string(e.what()).find("zero"), std::string::npos) << e.what();
  }
}

TEST(Plot, UnwritablePathIsAnIoErrorNamingIt) {
  const std::string path = TempPath("no-such-directory/plot.png");
  try {
    WriteScatterPng(path, PlotSpec{}, kLogLogPoints);
    FAIL() << "wrote into a missing directory";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), Code::kIo);
    EXPECT_EQ(std::string(e.what()).rfind(path + ": ", 0), 0u) << e.what();
  }
}

}  // namespace
}  // namespace seen::cli
