/* The MinHash C API, compiled as C: sketches and their similarity, an index that returns a
 * near-duplicate verified above the threshold and not an unrelated text, removal, the buffer
 * rules of queries, and bad arguments. Prints TAP. */
#include <string.h>

#include "seen.h"
#include "tap.h"

static const char kBase[] =
    "The committee met on Tuesday to review the annual budget and approved the new library "
    "hours, the repaving of Elm Street, and a grant for the youth football league this summer.";
static const char kEdited[] =
    "The committee met on Tuesday to review the annual budget and approved the new library "
    "hours, the repaving of Oak Street, and a grant for the youth football league this summer.";
static const char kOther[] =
    "Rain is expected across the region on Friday, with strong winds along the coast and "
    "snow at higher elevations; drivers are advised to check conditions before they travel.";

int main(void) {
  uint32_t a[128], b[128];
  seen_minhash_options opts;
  seen_minhash_index* index = NULL;
  uint64_t ids[4], texts = 0, bytes = 0;
  double sims[4];
  size_t found = 0;
  int removed = -1;
  check(seen_minhash_sketch_text(kBase, strlen(kBase), NULL, a, 128) == SEEN_OK &&
            seen_minhash_sketch_text(kEdited, strlen(kEdited), NULL, b, 128) == SEEN_OK,
        "sketches with the defaults");
  check(seen_minhash_similarity(a, b, 128) > 0.7 && seen_minhash_similarity(a, a, 128) == 1.0,
        "an edited copy is similar, a text to itself exactly");
  check(seen_minhash_sketch_text(kBase, strlen(kBase), NULL, a, 64) == SEEN_ERR_BUFFER_TOO_SMALL,
        "a short buffer is refused");
  memset(&opts, 0, sizeof opts);
  opts.size = sizeof opts;
  opts.bins = 100;
  check(seen_minhash_sketch_text(kBase, strlen(kBase), &opts, a, 128) == SEEN_ERR_INVALID_ARGUMENT &&
            strstr(seen_last_error(), "bins") != NULL,
        "bins not a power of two is refused by name");
  opts.bins = 0;
  opts.threshold = 0.7;
  check(seen_minhash_index_create(&opts, &index) == SEEN_OK, "an index at 0.7");
  check(seen_minhash_index_add_text(index, 1, kBase, strlen(kBase)) == SEEN_OK &&
            seen_minhash_index_add_text(index, 2, kOther, strlen(kOther)) == SEEN_OK,
        "two texts added");
  check(seen_minhash_index_query_text(index, kEdited, strlen(kEdited), ids, sims, 4, &found) == SEEN_OK &&
            found == 1 && ids[0] == 1 && sims[0] >= 0.7,
        "the edited copy finds its original, verified, and not the unrelated text");
  check(seen_minhash_index_query_text(index, kBase, strlen(kBase), NULL, NULL, 0, &found) ==
                SEEN_ERR_BUFFER_TOO_SMALL &&
            found == 1,
        "cap 0 counts the matches");
  check(seen_minhash_index_remove(index, 1, &removed) == SEEN_OK && removed == 1 &&
            seen_minhash_index_remove(index, 1, &removed) == SEEN_OK && removed == 0,
        "remove says whether the id was there");
  check(seen_minhash_index_query_text(index, kEdited, strlen(kEdited), ids, sims, 4, &found) == SEEN_OK &&
            found == 0,
        "a removed text is not found");
  check(seen_minhash_index_size(index, &texts, &bytes) == SEEN_OK && texts == 1 && bytes > 0, "size");
  check(seen_minhash_index_add_text(NULL, 1, kBase, 1) == SEEN_ERR_INVALID_ARGUMENT &&
            seen_minhash_index_query_text(index, NULL, 5, ids, sims, 4, &found) == SEEN_ERR_INVALID_ARGUMENT,
        "NULL arguments are refused");
  opts.threshold = 1.5;
  seen_minhash_index* bad = NULL;
  check(seen_minhash_index_create(&opts, &bad) == SEEN_ERR_INVALID_ARGUMENT && bad == NULL,
        "a threshold above 1 is refused");
  seen_minhash_index_free(index);
  seen_minhash_index_free(NULL);
  return tap_finish();
}
