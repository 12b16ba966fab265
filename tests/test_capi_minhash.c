/* The MinHash C API, compiled as C: sketches and their similarity, an index that returns a
 * near-duplicate verified above the threshold and not an unrelated text, removal, the buffer
 * rules of queries, saving and reopening (with and without a key), and bad arguments. Prints
 * TAP. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
  check(seen_minhash_sketch_text(kBase, strlen(kBase), NULL, a, 128, NULL) == SEEN_OK &&
            seen_minhash_sketch_text(kEdited, strlen(kEdited), NULL, b, 128, NULL) == SEEN_OK,
        "sketches with the defaults");
  check(seen_minhash_similarity(a, b, 128) > 0.7 && seen_minhash_similarity(a, a, 128) == 1.0,
        "an edited copy is similar, a text to itself exactly");
  check(seen_minhash_sketch_text(kBase, strlen(kBase), NULL, a, 64, NULL) == SEEN_ERR_BUFFER_TOO_SMALL,
        "a short buffer is refused");
  memset(&opts, 0, sizeof opts);
  opts.size = sizeof opts;
  opts.bins = 100;
  check(seen_minhash_sketch_text(kBase, strlen(kBase), &opts, a, 128, NULL) == SEEN_ERR_INVALID_ARGUMENT &&
            strstr(seen_last_error(), "bins") != NULL,
        "bins not a power of two is refused by name");
  opts.bins = 0;
  opts.threshold = 0.7;
  check(seen_minhash_index_create(&opts, &index, NULL) == SEEN_OK, "an index at 0.7");
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
  size_t needed = 0;
  check(seen_minhash_index_serialize(index, NULL, 0, &needed) == SEEN_OK && needed > 128, "serialized size");
  uint8_t* buf = malloc(needed);
  size_t written = 0;
  seen_minhash_index* copy = NULL;
  check(seen_minhash_index_serialize(index, buf, needed - 1, &written) == SEEN_ERR_BUFFER_TOO_SMALL &&
            seen_minhash_index_serialize(index, buf, needed, &written) == SEEN_OK && written == needed &&
            seen_minhash_index_deserialize(buf, written, NULL, 0, &copy, NULL) == SEEN_OK,
        "serialize and deserialize");
  check(seen_minhash_index_query_text(copy, kOther, strlen(kOther), ids, sims, 4, &found) == SEEN_OK &&
            found == 1 && ids[0] == 2 && seen_minhash_index_size(copy, &texts, NULL) == SEEN_OK && texts == 1,
        "the copy holds what the index held, and not the removed text");
  buf[written - 1] ^= 1;
  seen_minhash_index* damaged = NULL;
  check(seen_minhash_index_deserialize(buf, written, NULL, 0, &damaged, NULL) == SEEN_ERR_BAD_CHECKSUM && damaged == NULL,
        "a damaged copy is refused");
  check(seen_minhash_index_deserialize(buf, 100, NULL, 0, &damaged, NULL) == SEEN_ERR_TRUNCATED, "a cut one too");
  free(buf);
  char path[64];
  snprintf(path, sizeof path, "/tmp/seen_capi_minhash_%d.seen", (int)getpid());
  seen_minhash_index* opened = NULL;
  check(seen_minhash_index_save(copy, path) == SEEN_OK &&
            seen_minhash_index_open(path, SEEN_OPEN_PRIVATE_COPY, NULL, 0, &opened, NULL) == SEEN_OK &&
            seen_minhash_index_add_text(opened, 3, kBase, strlen(kBase)) == SEEN_OK &&
            seen_minhash_index_query_text(opened, kEdited, strlen(kEdited), ids, sims, 4, &found) == SEEN_OK &&
            found == 1 && ids[0] == 3,
        "save, open a private copy, and the opened index takes adds");
  seen_minhash_index* mapped = NULL;
  check(seen_minhash_index_open(path, SEEN_OPEN_READ_ONLY | SEEN_OPEN_NO_VERIFY, NULL, 0, &mapped, NULL) == SEEN_OK &&
            seen_minhash_index_query_text(mapped, kOther, strlen(kOther), ids, sims, 4, &found) == SEEN_OK &&
            found == 1 && ids[0] == 2 && seen_minhash_index_size(mapped, &texts, NULL) == SEEN_OK && texts == 1,
        "a read-only open answers from the mapped file");
  check(seen_minhash_index_add_text(mapped, 4, kBase, strlen(kBase)) == SEEN_ERR_READ_ONLY &&
            seen_minhash_index_remove(mapped, 2, &removed) == SEEN_ERR_READ_ONLY,
        "a read-only index refuses adds and removes");
  seen_minhash_index_free(mapped);
  mapped = NULL;
  check(seen_minhash_index_open(path, 0, NULL, 0, &mapped, NULL) == SEEN_ERR_INVALID_ARGUMENT && mapped == NULL &&
            seen_minhash_index_open(path, SEEN_OPEN_WRITE_IN_PLACE, NULL, 0, &mapped, NULL) == SEEN_ERR_INVALID_ARGUMENT &&
            strstr(seen_last_error(), "flags") != NULL,
        "open needs one mode it takes, and says so");
  static const uint8_t key[16] = "sixteen byte key";
  seen_minhash_options keyed = opts;
  keyed.key = key;
  keyed.key_len = sizeof key;
  seen_minhash_index* secret = NULL;
  check(seen_minhash_index_create(&keyed, &secret, NULL) == SEEN_OK &&
            seen_minhash_index_add_text(secret, 1, kBase, strlen(kBase)) == SEEN_OK &&
            seen_minhash_index_save(secret, path) == SEEN_OK,
        "a keyed index saved");
  seen_minhash_index_free(opened);
  opened = NULL;
  check(seen_minhash_index_open(path, SEEN_OPEN_READ_ONLY, NULL, 0, &opened, NULL) == SEEN_ERR_INCOMPATIBLE &&
            opened == NULL && seen_minhash_index_open(path, SEEN_OPEN_READ_ONLY, key, sizeof key, &opened, NULL) == SEEN_OK,
        "a keyed file opens only with its key");
  check(seen_minhash_index_open(NULL, SEEN_OPEN_READ_ONLY, NULL, 0, &damaged, NULL) == SEEN_ERR_INVALID_ARGUMENT &&
            seen_minhash_index_save(NULL, path) == SEEN_ERR_INVALID_ARGUMENT &&
            seen_minhash_index_serialize(NULL, NULL, 0, &needed) == SEEN_ERR_INVALID_ARGUMENT,
        "NULL arguments to the file calls are refused");
  remove(path);
  seen_minhash_index_free(opened);
  seen_minhash_index_free(secret);
  seen_minhash_index_free(copy);
  opts.threshold = 1.5;
  seen_minhash_index* bad = NULL;
  check(seen_minhash_index_create(&opts, &bad, NULL) == SEEN_ERR_INVALID_ARGUMENT && bad == NULL,
        "a threshold above 1 is refused");
  seen_minhash_index_free(index);
  seen_minhash_index_free(NULL);
  return tap_finish();
}
