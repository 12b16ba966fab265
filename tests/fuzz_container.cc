// libFuzzer targets: arbitrary bytes through every entry point that reads a container
// (tests/every_kind.h: a kind's deserialize and view, and its open in every mode) must give a
// status, never a crash, a hang or an allocation the input does not justify. Whatever loads
// is queried and added to. Built once per kind, SEEN_FUZZ_TARGET naming it (a Target of
// every_kind.h), and once as fuzz_container over every kind.
//
// A per-kind target is made cheap per input: the bytes reach a later entry point only while
// it could load them (Reach::kWhereLoadable: one refused call, in memory, for most inputs),
// and the opens read one memfd rewritten in place. fuzz_container, the CI smoke pass, makes
// every call and checks that the skipped ones would have refused (Reach::kEveryChecked).
//
// Hostile files carry valid checksums, so the custom mutator re-signs what libFuzzer mutates
// (the header checksum, and the payload checksum over whatever payload the header declares),
// except for one mutation in eight, so the checksum checks stay fuzzed too. docs/FUZZING.md.
#include <cstdint>
#include <cstring>

#include <xxhash.h>

#include "seen.h"
#include "tests/every_kind.h"

namespace {

uint64_t Load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// The checksums of docs/FORMAT.md, recomputed where the declared sizes fit in the input.
void Resign(uint8_t* data, size_t size) {
  if (size < 64) return;
  const uint64_t params_size = Load64(data + 16);
  const uint64_t offset = Load64(data + 24);
  const uint64_t payload_size = Load64(data + 32);
  if (offset <= size && payload_size <= size - offset) {
    const uint64_t sum = XXH3_64bits(data + offset, payload_size);
    std::memcpy(data + 40, &sum, 8);
  }
  if (params_size <= size - 64) {
    XXH3_state_t* state = XXH3_createState();
    XXH3_64bits_reset(state);
    XXH3_64bits_update(state, data, 56);
    XXH3_64bits_update(state, data + 64, params_size);
    const uint64_t sum = XXH3_64bits_digest(state);
    XXH3_freeState(state);
    std::memcpy(data + 56, &sum, 8);
  }
}

}  // namespace

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
  size = LLVMFuzzerMutate(data, size, max_size);
  if (seed % 8 != 0) Resign(data, size);
  return size;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static seen::test::ScratchFile file = seen::test::ScratchFile::Anonymous();
#ifdef SEEN_FUZZ_TARGET
  seen::test::Exercise exercise(SEEN_OK, seen::test::Reach::kWhereLoadable);
  exercise.One<static_cast<seen::test::Target>(SEEN_FUZZ_TARGET)>(data, size, file);
#else
  seen::test::Exercise exercise(SEEN_OK, seen::test::Reach::kEveryChecked);
  exercise.All(data, size, file);
#endif
  return 0;
}
