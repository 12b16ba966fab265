// Out-of-range arguments get SEEN_ERR_INVALID_ARGUMENT (or SEEN_ERR_TOO_LARGE for a size past
// a stated limit) and a message that names the argument, never a status about some derived
// quantity the caller never passed (a count window of span 2^32 - 1 once said "segment span
// is 0").
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>

#include "seen.h"

namespace {

struct Case {
  const char* what;
  std::function<seen_status()> call;
  seen_status status;
  const char* names;  // a word the message must contain
};

seen_window_options Window(uint32_t mode, uint32_t span) {
  seen_window_options o = {};
  o.size = sizeof o;
  o.mode = mode;
  o.span = span;
  o.expected_items = 1000;
  o.fpr = 0.01;
  return o;
}

seen_status CreateWindow(seen_window_options o) {
  seen_window* w = nullptr;
  const seen_status status = seen_window_create(&o, 0, &w, nullptr);
  seen_window_free(w);
  return status;
}

seen_status CreateScalable(uint64_t capacity, double fpr, double growth, double tightening,
                           size_t size = sizeof(seen_scalable_options)) {
  seen_scalable_options o = {size, capacity, fpr, growth, tightening, 0, nullptr, 0};
  seen_scalable* f = nullptr;
  const seen_status status = seen_scalable_create(&o, &f, nullptr);
  seen_scalable_free(f);
  return status;
}

// A valid count window's options, changed by `change`.
seen_window_options WindowWith(const std::function<void(seen_window_options&)>& change) {
  seen_window_options o = Window(SEEN_WINDOW_COUNT, 100);
  change(o);
  return o;
}
seen_window_options Window() { return WindowWith([](auto&) {}); }

seen_status CreateStore(seen_window_options window, const std::function<void(seen_store_options&)>& change) {
  seen_store_options o = {};
  o.size = sizeof o;
  o.window = &window;
  o.expected_users = 1000;
  change(o);
  seen_store* s = nullptr;
  const seen_status status = seen_store_create(&o, &s, nullptr);
  seen_store_free(s);
  return status;
}

seen_status CreateMinhash(size_t size) {
  seen_minhash_options o = {};
  o.size = size;
  seen_minhash_index* index = nullptr;
  const seen_status status = seen_minhash_index_create(&o, &index, nullptr);
  seen_minhash_index_free(index);
  return status;
}

seen_status SimhashText(size_t size) {
  seen_simhash_options o = {};
  o.size = size;
  seen_simhash_fingerprint fp = {};
  fp.size = sizeof fp;
  return seen_simhash_text("a text", 6, &o, &fp, nullptr);
}

TEST(ArgumentErrors, NameTheArgument) {
  seen_bloom* bloom = nullptr;
  seen_counting* counting = nullptr;
  seen_simhash_index* index = nullptr;
  const Case cases[] = {
      {"count window span 2^32-1", [] { return CreateWindow(Window(SEEN_WINDOW_COUNT, UINT32_MAX)); },
       SEEN_ERR_INVALID_ARGUMENT, "span"},
      {"count window span 0", [] { return CreateWindow(Window(SEEN_WINDOW_COUNT, 0)); }, SEEN_ERR_INVALID_ARGUMENT,
       "span"},
      {"time window span 2^32-1", [] { return CreateWindow(Window(SEEN_WINDOW_TIME, UINT32_MAX)); },
       SEEN_ERR_INVALID_ARGUMENT, "span"},
      {"time window span 1", [] { return CreateWindow(Window(SEEN_WINDOW_TIME, 1)); }, SEEN_ERR_INVALID_ARGUMENT,
       "span"},
      {"window fpr 2", [] { auto o = Window(SEEN_WINDOW_COUNT, 100); o.fpr = 2; return CreateWindow(o); },
       SEEN_ERR_INVALID_ARGUMENT, "fpr"},
      {"window slack -1", [] { auto o = Window(SEEN_WINDOW_COUNT, 100); o.max_slack = -1; return CreateWindow(o); },
       SEEN_ERR_INVALID_ARGUMENT, "max_slack"},
      {"window mode 7", [] { return CreateWindow(Window(7, 100)); }, SEEN_ERR_INVALID_ARGUMENT, "mode"},
      {"bloom fpr NaN", [&] { return seen_bloom_create(100, NAN, 0, &bloom, nullptr); }, SEEN_ERR_INVALID_ARGUMENT, "fpr"},
      {"bloom 2^64-1 items", [&] { return seen_bloom_create(UINT64_MAX, 0.01, 0, &bloom, nullptr); }, SEEN_ERR_TOO_LARGE,
       "items"},
      {"bloom 0 bytes", [&] { return seen_bloom_create_bytes(100, 0, 0, &bloom, nullptr); }, SEEN_ERR_INVALID_ARGUMENT,
       "byte"},
      {"counting fpr 1.5", [&] { return seen_counting_create(100, 1.5, 0, &counting, nullptr); }, SEEN_ERR_INVALID_ARGUMENT,
       "fpr"},
      {"scalable capacity 0", [] { return CreateScalable(0, 0.01, 2, 0.5); }, SEEN_ERR_INVALID_ARGUMENT,
       "capacity"},
      {"scalable growth 0.5", [] { return CreateScalable(100, 0.01, 0.5, 0.5); }, SEEN_ERR_INVALID_ARGUMENT,
       "growth"},
      {"scalable tightening 1.5", [] { return CreateScalable(100, 0.01, 2, 1.5); }, SEEN_ERR_INVALID_ARGUMENT,
       "tightening"},
      // A size whose end pointer would wrap, and reserved fields documented as 0.
      {"window options size SIZE_MAX", [] { return CreateWindow(WindowWith([](auto& o) { o.size = SIZE_MAX; })); },
       SEEN_ERR_INVALID_ARGUMENT, "size"},
      {"window reserved 1", [] { return CreateWindow(WindowWith([](auto& o) { o.reserved = 1; })); },
       SEEN_ERR_INVALID_ARGUMENT, "reserved"},
      {"store options size SIZE_MAX", [] { return CreateStore(Window(), [](auto& o) { o.size = SIZE_MAX; }); },
       SEEN_ERR_INVALID_ARGUMENT, "size"},
      {"store reserved 1", [] { return CreateStore(Window(), [](auto& o) { o.reserved = 1; }); },
       SEEN_ERR_INVALID_ARGUMENT, "reserved"},
      {"store's window reserved 1",
       [] { return CreateStore(WindowWith([](auto& o) { o.reserved = 1; }), [](auto&) {}); },
       SEEN_ERR_INVALID_ARGUMENT, "reserved"},
      {"scalable options size SIZE_MAX", [] { return CreateScalable(100, 0.01, 2, 0.5, SIZE_MAX); },
       SEEN_ERR_INVALID_ARGUMENT, "size"},
      {"minhash options size SIZE_MAX", [] { return CreateMinhash(SIZE_MAX); }, SEEN_ERR_INVALID_ARGUMENT, "size"},
      {"simhash options size SIZE_MAX", [] { return SimhashText(SIZE_MAX); }, SEEN_ERR_INVALID_ARGUMENT, "size"},
      {"simhash max_k 100", [&] { return seen_simhash_index_create(100, &index, nullptr); }, SEEN_ERR_INVALID_ARGUMENT,
       "max_k"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(c.call(), c.status) << c.what;
    EXPECT_NE(std::string(seen_last_error()).find(c.names), std::string::npos)
        << c.what << ": \"" << seen_last_error() << "\" does not name " << c.names;
  }
}

}  // namespace
