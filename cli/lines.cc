#include "cli/lines.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/error.h"

namespace seen::cli {
namespace {

constexpr size_t kChunkBytes = size_t{64} << 20;

[[noreturn]] void Fail(const std::string& path, const std::string& what) {
  throw Error(Code::kIo, path + ": " + what + ": " + std::strerror(errno));
}

class MappedSource : public LineSource {
 public:
  MappedSource(const char* data, uint64_t size) : data_(data), size_(size) {}
  ~MappedSource() override {
    if (size_ > 0) munmap(const_cast<char*>(data_), size_);
  }
  uint64_t size() const override { return size_; }
  bool Next(const char** begin, const char** end) override {
    if (pos_ >= size_) return false;
    uint64_t stop = std::min<uint64_t>(size_, pos_ + kChunkBytes);
    if (stop < size_) {
      const void* nl = std::memchr(data_ + stop, '\n', size_ - stop);
      stop = nl ? static_cast<uint64_t>(static_cast<const char*>(nl) - data_) + 1 : size_;
    }
    *begin = data_ + pos_;
    *end = data_ + stop;
    pos_ = stop;
    return true;
  }

 private:
  const char* data_;
  uint64_t size_;
  uint64_t pos_ = 0;
};

class StreamSource : public LineSource {
 public:
  StreamSource(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  ~StreamSource() override {
    if (fd_ != STDIN_FILENO) close(fd_);
  }
  uint64_t size() const override { return 0; }
  bool Next(const char** begin, const char** end) override {
    // Keep the partial last line of the previous chunk, then fill up.
    buffer_.erase(buffer_.begin(), buffer_.begin() + static_cast<long>(consumed_));
    consumed_ = 0;
    while (!eof_ && buffer_.size() < kChunkBytes) {
      const size_t old = buffer_.size();
      buffer_.resize(old + (size_t{1} << 20));
      const ssize_t got = read(fd_, buffer_.data() + old, size_t{1} << 20);
      if (got < 0 && errno == EINTR) {
        buffer_.resize(old);
        continue;
      }
      if (got < 0) Fail(path_, "read");
      buffer_.resize(old + static_cast<size_t>(got));
      eof_ = got == 0;
    }
    if (buffer_.empty()) return false;
    size_t stop = buffer_.size();
    if (!eof_) {
      const auto* last = static_cast<const char*>(memrchr(buffer_.data(), '\n', buffer_.size()));
      if (last != nullptr) stop = static_cast<size_t>(last - buffer_.data()) + 1;
    }
    *begin = buffer_.data();
    *end = buffer_.data() + stop;
    consumed_ = stop;
    return true;
  }

 private:
  int fd_;
  std::string path_;
  std::vector<char> buffer_;
  size_t consumed_ = 0;
  bool eof_ = false;
};

}  // namespace

void KeyBatch::Add(const char* key, size_t len) {
  data.insert(data.end(), key, key + len);
  offsets.push_back(data.size());
  lines.emplace_back(key, len);
}

void KeyBatch::Clear() {
  data.clear();
  offsets.assign(1, 0);
  lines.clear();
}

void ForEachBatch(const char* begin, const char* end,
                  const std::function<void(const KeyBatch&)>& sink) {
  KeyBatch batch;
  while (begin < end) {
    const auto* nl = static_cast<const char*>(std::memchr(begin, '\n', static_cast<size_t>(end - begin)));
    const char* line_end = nl ? nl : end;
    size_t len = static_cast<size_t>(line_end - begin);
    if (len > 0 && begin[len - 1] == '\r') --len;
    if (len > 0) batch.Add(begin, len);
    if (batch.size() == kBatchKeys) {
      sink(batch);
      batch.Clear();
    }
    begin = nl ? nl + 1 : end;
  }
  if (batch.size() > 0) sink(batch);
}

std::unique_ptr<LineSource> LineSource::Open(const std::string& path) {
  if (path == "-") return std::make_unique<StreamSource>(STDIN_FILENO, "stdin");
  const int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) Fail(path, "cannot open");
  struct stat st;
  if (fstat(fd, &st) != 0) Fail(path, "cannot stat");
  if (S_ISDIR(st.st_mode)) {
    close(fd);
    throw Error(Code::kInvalidArgument, path + ": is a directory; pass the files in it, e.g. " + path + "/*");
  }
  if (!S_ISREG(st.st_mode)) return std::make_unique<StreamSource>(fd, path);
  const auto size = static_cast<uint64_t>(st.st_size);
  if (size == 0) {
    close(fd);
    return std::make_unique<MappedSource>(nullptr, 0);
  }
  void* data = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (data == MAP_FAILED) Fail(path, "cannot map");
  madvise(data, size, MADV_SEQUENTIAL);
  return std::make_unique<MappedSource>(static_cast<const char*>(data), size);
}

}  // namespace seen::cli
