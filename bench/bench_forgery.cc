// SimHash forgery (docs/SECURITY.md): an attacker wants a junk text whose fingerprint lies
// within Hamming distance 3 of a victim's text, so that dedupe drops the victim's as a copy.
// The probe: hill-climbing over 201-word texts drawn from the victim's corpus, one word
// changed per try, a change kept when it does not move the fingerprint the attacker can
// compute further from the victim's. Unkeyed, that is the real fingerprint (seed 0, public).
// Keyed, the attacker lacks the key and steers by the unkeyed fingerprint, their best guess;
// the real one is the keyed fingerprint. Beside both, random texts: no steering at all.
// Victims are 500-character passages of the GPL-3 text Debian ships; fixed seeds.
//   bench_forgery [--tries N] [--victims V] [--corpus PATH]     one JSON line per mode
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/simhash.h"

namespace {

constexpr int kWords = 201;
constexpr uint32_t kNear = 3;
const seen::SecretKey kKey{0x243f6a8885a308d3ULL, 0x13198a2e03707344ULL};

uint32_t Distance(uint64_t a, uint64_t b) { return static_cast<uint32_t>(__builtin_popcountll(a ^ b)); }

uint64_t Fingerprint(const std::string& text, bool keyed) {
  seen::TextOptions options;
  if (keyed) options.key = kKey;
  return seen::FingerprintText(text.data(), text.size(), options).simhash;
}

std::string Join(const std::vector<std::string>& words) {
  std::string text;
  for (const auto& w : words) text += w + " ";
  return text;
}

struct Outcome {
  uint64_t tries_to_near = 0;  // 0: not reached
  uint32_t closest = 64;
};

// Up to `tries` texts; `steered` keeps a change when the attacker's fingerprint (unkeyed)
// gets no further from the victim's; the real fingerprint (keyed or not) decides success.
Outcome Attack(const std::string& victim, const std::vector<std::string>& vocabulary, bool keyed, bool steered,
               uint64_t tries, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<size_t> word(0, vocabulary.size() - 1), slot(0, kWords - 1);
  const uint64_t real_target = Fingerprint(victim, keyed), guess_target = Fingerprint(victim, false);
  std::vector<std::string> words(kWords);
  for (auto& w : words) w = vocabulary[word(rng)];
  uint32_t guess = Distance(Fingerprint(Join(words), false), guess_target);
  Outcome out;
  for (uint64_t t = 1; t <= tries; ++t) {
    std::vector<std::string> next = words;
    if (steered) {
      next[slot(rng)] = vocabulary[word(rng)];
    } else {
      for (auto& w : next) w = vocabulary[word(rng)];
    }
    const std::string text = Join(next);
    const uint32_t real = Distance(Fingerprint(text, keyed), real_target);
    out.closest = std::min(out.closest, real);
    if (real <= kNear) {
      out.tries_to_near = t;
      return out;
    }
    const uint32_t next_guess = Distance(Fingerprint(text, false), guess_target);
    if (steered && next_guess <= guess) words = std::move(next), guess = next_guess;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t tries = 100000;
  size_t victims = 10;
  std::string corpus = "/usr/share/common-licenses/GPL-3";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--tries") == 0) tries = std::stoull(argv[i + 1]);
    if (std::strcmp(argv[i], "--victims") == 0) victims = std::stoull(argv[i + 1]);
    if (std::strcmp(argv[i], "--corpus") == 0) corpus = argv[i + 1];
  }
  std::ifstream in(corpus);
  if (!in) {
    std::fprintf(stderr, "%s: cannot read the corpus\n", corpus.c_str());
    return 1;
  }
  std::stringstream all;
  all << in.rdbuf();
  const std::string text = all.str();
  std::vector<std::string> vocabulary;
  std::istringstream words(text);
  for (std::string w; words >> w;) vocabulary.push_back(w);
  struct Mode {
    const char* name;
    bool keyed, steered;
  };
  for (const Mode& mode : {Mode{"unkeyed, steered", false, true}, Mode{"keyed, steered by the unkeyed fingerprint", true, true},
                           Mode{"keyed, random texts", true, false}}) {
    uint64_t reached = 0, tries_sum = 0;
    std::vector<uint32_t> closest;
    for (size_t v = 0; v < victims; ++v) {
      const std::string victim = text.substr(v * text.size() / victims, 500);
      const Outcome o = Attack(victim, vocabulary, mode.keyed, mode.steered, tries, 1000 + v);
      reached += o.tries_to_near != 0;
      tries_sum += o.tries_to_near;
      closest.push_back(o.closest);
    }
    std::sort(closest.begin(), closest.end());
    std::printf("{\"bench\": \"simhash_forgery\", \"mode\": \"%s\", \"victims\": %zu, \"tries_per_victim\": %llu, "
                "\"forged_within_3\": %llu, \"mean_tries_when_forged\": %.0f, \"median_closest_distance\": %u}\n",
                mode.name, victims, static_cast<unsigned long long>(tries), static_cast<unsigned long long>(reached),
                reached ? static_cast<double>(tries_sum) / reached : 0.0, closest[closest.size() / 2]);
    std::fflush(stdout);
  }
  return 0;
}
