/* The error channels of seen.h, compiled as C: a call on a handle reports to that handle, a
 * call without one to the caller's seen_error, and neither depends on the thread that asks.
 * Threads that fail at the same time on their own handles, with different messages, each read
 * their own; a failure read on another thread than the one that failed is still there. Prints
 * TAP. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "seen.h"
#include "tap.h"

enum { ROUNDS = 2000 };

static int mentions(const seen_error* err, seen_status status, const char* text) {
  return err->status == status && strstr(err->message, text) != NULL;
}

/* A thread that fails ROUNDS times, on its own window and on a create, each time with
 * messages of its own, and counts the rounds in which it read anything else. Racer 0 passes a
 * `now` past 2^32 - 1 and fpr 3; racer 1 passes NULL items and fpr 5. */
typedef struct {
  int id;
  seen_window* window;
  int wrong;
} racer;

static void* fail_repeatedly(void* arg) {
  racer* r = arg;
  const uint64_t item = 1;
  const uint64_t* items = r->id == 0 ? &item : NULL;
  const uint64_t now = r->id == 0 ? (uint64_t)1 << 40 : 0;
  const char* window_says = r->id == 0 ? "now is past" : "items is NULL";
  const char* create_says = r->id == 0 ? "got 3" : "got 5";
  int i;
  for (i = 0; i < ROUNDS; ++i) {
    seen_error err;
    seen_bloom* none = NULL;
    if (seen_window_add_u64(r->window, items, 1, now) != SEEN_ERR_INVALID_ARGUMENT) ++r->wrong;
    seen_window_last_error(r->window, &err);
    if (!mentions(&err, SEEN_ERR_INVALID_ARGUMENT, window_says)) ++r->wrong;
    if (seen_bloom_create(100, r->id == 0 ? 3.0 : 5.0, 0, &none, &err) != SEEN_ERR_INVALID_ARGUMENT) ++r->wrong;
    if (!mentions(&err, SEEN_ERR_INVALID_ARGUMENT, create_says)) ++r->wrong;
  }
  return NULL;
}

static seen_window* count_window(void) {
  const seen_window_options o = {
      .size = sizeof o, .mode = SEEN_WINDOW_COUNT, .span = 1000, .expected_items = 1000, .fpr = 0.01};
  seen_window* w = NULL;
  return seen_window_create(&o, 0, &w, NULL) == SEEN_OK ? w : NULL;
}

static void handle_less_calls(void) {
  seen_error err;
  seen_bloom* f = NULL;
  check(seen_bloom_create(100, 2.0, 0, &f, &err) == SEEN_ERR_INVALID_ARGUMENT && f == NULL,
        "a create with fpr 2 fails");
  check(mentions(&err, SEEN_ERR_INVALID_ARGUMENT, "fpr"), "and its seen_error names fpr");
  check(strcmp(seen_last_error(), err.message) == 0, "seen_last_error() says the same on this thread");
  check(seen_bloom_create(100, 2.0, 0, &f, NULL) == SEEN_ERR_INVALID_ARGUMENT, "NULL err is allowed");

  seen_bloom* g = NULL;
  check(seen_bloom_open("/nonexistent/dir/x.seen", SEEN_OPEN_READ_ONLY, &g, &err) == SEEN_ERR_IO,
        "an open of a missing file fails with SEEN_ERR_IO");
  check(mentions(&err, SEEN_ERR_IO, "/nonexistent/dir/x.seen"), "and its seen_error names the path");

  strcpy(err.message, "untouched");
  err.status = SEEN_ERR_INTERNAL;
  check(seen_bloom_create(100, 0.01, 0, &f, &err) == SEEN_OK, "a good create succeeds");
  check(err.status == SEEN_ERR_INTERNAL && strcmp(err.message, "untouched") == 0,
        "and leaves the caller's seen_error alone");
  seen_bloom_free(f);
}

static void per_handle_calls(void) {
  seen_error err;
  seen_bloom* f = NULL;
  seen_bloom* other = NULL;
  uint8_t buf[256];
  size_t written = 0;
  check(seen_bloom_create(10000, 0.01, 0, &f, NULL) == SEEN_OK &&
            seen_bloom_create(100, 0.01, 0, &other, NULL) == SEEN_OK,
        "two filters");
  seen_bloom_last_error(f, &err);
  check(err.status == SEEN_OK && err.message[0] == '\0', "a new handle has no last error");
  check(seen_bloom_serialize(f, buf, sizeof buf, &written) == SEEN_ERR_BUFFER_TOO_SMALL,
        "a serialize into too small a buffer fails");
  seen_bloom_last_error(f, &err);
  check(mentions(&err, SEEN_ERR_BUFFER_TOO_SMALL, "cap is 256"), "its handle keeps the message");
  seen_bloom_last_error(other, &err);
  check(err.status == SEEN_OK, "another handle's last error is untouched");
  seen_bloom_last_error(NULL, &err);
  check(err.status == SEEN_ERR_INVALID_ARGUMENT, "a NULL handle's last error is an invalid argument");
  seen_bloom_last_error(f, NULL); /* must not crash */
  seen_bloom_free(f);
  seen_bloom_free(other);
}

/* A failure on a thread that then ends is read from this one. */
static void* fail_once(void* arg) {
  uint64_t item = 1;
  seen_window_add_u64(arg, &item, 1, (uint64_t)1 << 40);
  return NULL;
}

static void read_on_another_thread(void) {
  seen_window* w = count_window();
  pthread_t t;
  seen_error err;
  pthread_create(&t, NULL, fail_once, w);
  pthread_join(t, NULL);
  seen_window_last_error(w, &err);
  check(mentions(&err, SEEN_ERR_INVALID_ARGUMENT, "now is past"),
        "a failure on another thread is read here through its handle");
  seen_window_free(w);
}

static void concurrent_failures(void) {
  racer racers[2];
  pthread_t threads[2];
  int i;
  for (i = 0; i < 2; ++i) {
    racers[i].id = i;
    racers[i].window = count_window();
    racers[i].wrong = 0;
    pthread_create(&threads[i], NULL, fail_repeatedly, &racers[i]);
  }
  for (i = 0; i < 2; ++i) pthread_join(threads[i], NULL);
  for (i = 0; i < 2; ++i) {
    check(racers[i].wrong == 0, i == 0 ? "racer 0 read only its own messages, failing at once with racer 1"
                                       : "racer 1 read only its own messages, failing at once with racer 0");
    seen_window_free(racers[i].window);
  }
}

int main(void) {
  handle_less_calls();
  per_handle_calls();
  read_on_another_thread();
  concurrent_failures();
  return tap_finish();
}
