#include "integrations/redis/ids.h"

#include <cstring>

namespace seen::redis {

bool ParseDecimalU64(const char* s, size_t len, uint64_t* out) {
  if (len == 0 || len > 20 || (len > 1 && s[0] == '0')) return false;
  uint64_t value = 0;
  for (size_t i = 0; i < len; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    const uint64_t digit = static_cast<uint64_t>(s[i] - '0');
    if (value > (UINT64_MAX - digit) / 10) return false;
    value = value * 10 + digit;
  }
  *out = value;
  return true;
}

KeyBatch KeysFromArguments(RedisModuleString** argv, size_t n) {
  KeyBatch batch;
  batch.offsets.reserve(n + 1);
  batch.offsets.push_back(0);
  for (size_t i = 0; i < n; ++i) {
    size_t len = 0;
    const char* s = RedisModule_StringPtrLen(argv[i], &len);
    uint64_t id = 0;
    if (ParseDecimalU64(s, len, &id)) {
      for (int b = 0; b < 8; ++b) batch.data.push_back(static_cast<uint8_t>(id >> (8 * b)));
    } else {
      batch.data.insert(batch.data.end(), s, s + len);
    }
    batch.offsets.push_back(batch.data.size());
  }
  return batch;
}

bool UnpackIds(const char* packed, size_t len, std::vector<uint64_t>* ids) {
  if (len % 8 != 0) return false;
  ids->resize(len / 8);
  if (kLittleEndianHost) {  // the packed form is the host's own layout: one copy
    if (len != 0) std::memcpy(ids->data(), packed, len);
    return true;
  }
  const auto* bytes = reinterpret_cast<const uint8_t*>(packed);
  for (size_t i = 0; i < ids->size(); ++i) {
    uint64_t id = 0;
    for (int b = 7; b >= 0; --b) id = (id << 8) | bytes[8 * i + b];
    (*ids)[i] = id;
  }
  return true;
}

void PackIds(const uint64_t* ids, size_t n, std::vector<char>* out) {
  out->resize(8 * n);
  if (kLittleEndianHost) {
    if (n != 0) std::memcpy(out->data(), ids, 8 * n);
    return;
  }
  for (size_t i = 0; i < n; ++i) {
    for (int b = 0; b < 8; ++b) (*out)[8 * i + b] = static_cast<char>(ids[i] >> (8 * b));
  }
}

}  // namespace seen::redis
