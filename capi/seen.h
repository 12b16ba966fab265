/*
 * seen.h: the stable C ABI of libseen.
 *
 * Conventions that hold for every function below unless its comment says otherwise:
 *  - Every fallible call returns seen_status. SEEN_OK is 0; numeric values never change.
 *    On failure, a message describes it (which file, which field, what was expected): the
 *    handle the call was made on keeps it, or the call's last `seen_error* err` receives it
 *    (see seen_error below).
 *  - Handles are opaque. Creation returns them through an out-parameter, which is set to
 *    NULL on failure. seen_*_free(NULL) is a no-op.
 *  - Pointers passed in stay owned by the caller; the library keeps none of them after the
 *    call returns, except the buffer given to seen_bloom_view (see there).
 *  - A NULL handle or a NULL array with n > 0 returns SEEN_ERR_INVALID_ARGUMENT.
 *    n == 0 is a successful no-op and may pass NULL arrays. A batch of byte keys that are
 *    all empty may pass NULL data.
 *  - Byte-key batches carry no data length: the caller guarantees offsets[n] is within data.
 *    Offsets that decrease are refused (SEEN_ERR_INVALID_ARGUMENT).
 *  - Thread safety differs by kind and is stated at the head of each kind's section: a
 *    Bloom filter takes concurrent adds, a counting filter one writer beside its queries, a
 *    scalable filter, window or index no writer beside its queries, a store any call. For
 *    every kind, free needs exclusive access (no other call on the handle may be running or
 *    start), *_last_error may run at any time, and calls on different handles are
 *    independent (two write-in-place mappings of one file excepted). Fingerprints and
 *    sketches are pure.
 *  - Snapshots: serialize and save copy the payload chunk by chunk and checksum exactly the
 *    bytes they write, so a Bloom filter's may run beside its concurrent adds (a store's save
 *    takes its locks; other kinds' saves need their writers stopped). The buffer or file
 *    always validates; it holds every add completed before the call began, and an add in
 *    flight during the call or not, as for a racing contains.
 *  - Size-versioned structs start with `size_t size`, which the caller sets to the sizeof
 *    of the struct in the header it was built with. Output structs (info, stats, saturation)
 *    get the fields that fit. Option structs accept any size from their first published
 *    layout up to 4096 bytes: fields past the caller's size take their defaults (a zero field
 *    means the default), and fields past this build's layout must be zero, as must their
 *    `reserved` fields, or the call refuses them (SEEN_ERR_INVALID_ARGUMENT).
 *  - Names: add, remove and contains are the verbs of every kind; a call on one key says
 *    `_one` (seen_bloom_add_one_u64), a batch does not (seen_bloom_add_u64). get_info is what
 *    an object is, O(1); get_stats is counted over its contents; get_saturation is measured
 *    at a clock `now`.
 *  - Keys: integer ids hash as their 8 little-endian bytes, byte keys as their bytes,
 *    with XXH3-64 and the filter's seed. A batch of byte keys is one data buffer plus n+1
 *    offsets: key i is data[offsets[i] .. offsets[i+1]).
 */
#ifndef SEEN_H
#define SEEN_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define SEEN_API __declspec(dllexport)
#else
#define SEEN_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define SEEN_VERSION_MAJOR 0
#define SEEN_VERSION_MINOR 1
#define SEEN_VERSION_PATCH 0
/* major * 10000 + minor * 100 + patch */
#define SEEN_VERSION_NUMBER (SEEN_VERSION_MAJOR * 10000 + SEEN_VERSION_MINOR * 100 + SEEN_VERSION_PATCH)

/* ------------------------------------------------------------------------------------------
 * Status codes. The numbers are part of the ABI and never change.
 * ---------------------------------------------------------------------------------------- */
typedef enum seen_status {
  SEEN_OK = 0,
  SEEN_ERR_INVALID_ARGUMENT = 1,  /* NULL pointer, fpr outside (0, 1), bad flags, ... */
  SEEN_ERR_NO_MEMORY = 2,         /* an allocation or mapping failed */
  SEEN_ERR_IO = 3,                /* open, read, write, fsync or rename failed */
  SEEN_ERR_BAD_MAGIC = 4,         /* the input is not a seen file */
  SEEN_ERR_UNSUPPORTED_VERSION = 5, /* a major format version this build cannot read */
  SEEN_ERR_TRUNCATED = 6,         /* the input ends before its declared size */
  SEEN_ERR_BAD_CHECKSUM = 7,      /* header or payload checksum mismatch */
  SEEN_ERR_INCONSISTENT = 8,      /* sizes or parameters that do not add up */
  SEEN_ERR_WRONG_KIND = 9,        /* a valid file of another kind (e.g. not a Bloom filter) */
  SEEN_ERR_TOO_LARGE = 10,        /* an absurd size: more than this library will allocate */
  SEEN_ERR_READ_ONLY = 11,        /* a write to a read-only filter */
  SEEN_ERR_INCOMPATIBLE = 12,     /* merge of filters with different parameters */
  SEEN_ERR_BUFFER_TOO_SMALL = 13, /* the caller's buffer cannot hold the result */
  SEEN_ERR_INTERNAL = 14,         /* a bug: please report it with seen_last_error() */
  SEEN_ERR_NOT_FOUND = 15,        /* a remove of a key that was certainly never added */
  SEEN_STATUS_MAX_ENUM = 0x7FFFFFFF /* not a status: keeps the type int-sized in C and C++ */
} seen_status;

/* A static, never-NULL name for a status, e.g. "SEEN_ERR_TRUNCATED". Thread-safe. */
SEEN_API const char* seen_status_string(seen_status s);

/* A failure's status and message, in memory the caller owns, so that any thread may read it
 * (docs/errors.md). A message longer than the buffer is cut, always NUL-terminated. The
 * layout never grows: a longer message would come as a seen_error_v2. */
typedef struct seen_error {
  seen_status status;
  char message[1024];
} seen_error;

/* Two channels report a failure's message, neither bound to the calling thread:
 *  - a call on a handle reports to that handle (its first argument: merge reports to dst,
 *    copy to the source): seen_bloom_last_error(f, &err) and its per-kind siblings copy the
 *    last failure on it;
 *  - a call that has no handle yet (create, open, deserialize, view, sizing, fingerprints)
 *    takes a last `seen_error* err`, filled when it fails and left alone when it succeeds;
 *    NULL asks for no copy.
 * When several threads fail on one shared handle at once, its last error is one of theirs. */

/* The message of this thread's last failed call, or "" if none failed yet: a convenience for
 * callers that stay on one thread (C, JNI, cffi), not for Go. The pointer is valid until this
 * thread's next failing call. Never NULL. Thread-safe (thread-local). */
SEEN_API const char* seen_last_error(void);

/* SEEN_VERSION_NUMBER of the library actually loaded (may differ from the header's). */
SEEN_API uint32_t seen_version_number(void);

/* ------------------------------------------------------------------------------------------
 * Blocked Bloom filter: every key sets k bits in one 64-byte block.
 *
 * Thread safety: adds (batch, single, or_blocks), contains (batch or single) and the
 * read-only queries may run concurrently from any number of threads; concurrent adds never
 * lose a bit (they take stripe locks; readers never lock). A contains racing an add may miss
 * that in-flight add, never a completed one; serialize and save may run beside adds (see
 * Snapshots). merge (on dst), clear, sync and free need exclusive access.
 * ---------------------------------------------------------------------------------------- */
typedef struct seen_bloom seen_bloom;

/* Flags for every *_open: exactly one mode, optionally | SEEN_OPEN_NO_VERIFY. A mode means
 * the same for every kind that takes it; a kind refuses a mode it does not take
 * (SEEN_ERR_INVALID_ARGUMENT):
 *   READ_ONLY       Bloom, counting and scalable filters, stores, SimHash and MinHash indexes
 *   WRITE_IN_PLACE  Bloom and counting filters: their size is fixed, so the file holds them
 *   PRIVATE_COPY    scalable filters, stores and MinHash indexes: they grow, so writes go to
 *                   memory */
#define SEEN_OPEN_READ_ONLY 1u      /* maps PROT_READ, queries in place; a write returns
                                       SEEN_ERR_READ_ONLY */
#define SEEN_OPEN_WRITE_IN_PLACE 2u /* maps shared and writable; changes reach the file on sync
                                       and free. The file is the filter: a process killed
                                       between a change and the next sync leaves it with a
                                       stale payload checksum, so it then opens only with
                                       NO_VERIFY. To keep a file that always verifies, change
                                       a copy (deserialize) and save it (crash-safe) */
#define SEEN_OPEN_NO_VERIFY 4u      /* skip the payload checksum (the header is always verified) */
#define SEEN_OPEN_PRIVATE_COPY 8u   /* a writable copy in memory; the file changes only on the
                                       next save */

/* Sizing, without creating anything. For expected_items and a target false-positive rate
 * in (0, 1): the bytes and bits per key (k) that this blocked layout needs to really deliver
 * fpr once filled to expected_items. */
SEEN_API seen_status seen_bloom_size_for(uint64_t expected_items, double fpr, uint64_t* bytes,
                                         uint32_t* k, seen_error* err);

/* The other way round: the false-positive rate predicted for expected_items in a filter of
 * `bytes` bytes (rounded up to whole 64-byte blocks), with the best k, which goes to *k
 * (k may be NULL). */
SEEN_API seen_status seen_bloom_predict_fpr(uint64_t expected_items, uint64_t bytes,
                                            double* fpr, uint32_t* k, seen_error* err);

/* The false-positive rate to pass where a caller has no reason to choose: what `seen build`
 * and every binding's default (Python's fpr argument left out, Java's create(n), Go's
 * DefaultFPR) use. A zero fpr is an error, not this default. */
#define SEEN_DEFAULT_FPR 0.01

/* A new, empty filter sized by seen_bloom_size_for. Keys hash with XXH3-64 and the seed,
 * which the file stores: deterministic and mergeable, no protection against chosen keys
 * (docs/SECURITY.md). expected_items 0 is treated as 1. */
SEEN_API seen_status seen_bloom_create(uint64_t expected_items, double fpr, uint64_t seed,
                                       seen_bloom** out, seen_error* err);

/* Keyed mode (docs/SECURITY.md): keys hash with SipHash-1-3 under a secret key of 16 to 64
 * bytes, which no file holds. Someone who chooses the keys but lacks the secret cannot aim
 * them at a block. A keyed filter's file records only a check value of the key: it opens only
 * with seen_bloom_open_keyed or seen_bloom_deserialize_keyed and the same key, and refuses a
 * missing or different key with SEEN_ERR_INCOMPATIBLE; an unkeyed file refuses a key the
 * same way. Keyed filters merge only with filters of the same key. */
SEEN_API seen_status seen_bloom_create_keyed(uint64_t expected_items, double fpr,
                                             const uint8_t* key, size_t key_len, seen_bloom** out,
                                             seen_error* err);
SEEN_API seen_status seen_bloom_open_keyed(const char* path, uint32_t flags, const uint8_t* key,
                                           size_t key_len, seen_bloom** out, seen_error* err);
SEEN_API seen_status seen_bloom_deserialize_keyed(const uint8_t* buf, size_t len,
                                                  const uint8_t* key, size_t key_len,
                                                  seen_bloom** out, seen_error* err);

/* A new, empty filter of a memory budget: `bytes` rounded up to whole 64-byte blocks, with
 * the k that minimises the predicted fpr at expected_items. */
SEEN_API seen_status seen_bloom_create_bytes(uint64_t expected_items, uint64_t bytes,
                                             uint64_t seed, seen_bloom** out, seen_error* err);

/* A new, writable filter with the same parameters and bits as f (of any kind: created,
 * mapped read-only, or a view). Thread-safe against concurrent contains. */
SEEN_API seen_status seen_bloom_copy(const seen_bloom* f, seen_bloom** out);

/* Frees the filter. A read-write mapped filter is synced first (errors are lost: call
 * seen_bloom_sync before to see them). NULL is a no-op. */
SEEN_API void seen_bloom_free(seen_bloom* f);

/* Copies the last failure of a call on f into *err (status SEEN_OK and "" if none failed yet).
 * NULL err is a no-op; NULL f gives SEEN_ERR_INVALID_ARGUMENT in *err. Thread-safe. */
SEEN_API void seen_bloom_last_error(const seen_bloom* f, seen_error* err);

/* Batch adds and queries. out[i] is 1 if key i may have been added, else 0. out has n bytes
 * and is owned by the caller. */
SEEN_API seen_status seen_bloom_add_u64(seen_bloom* f, const uint64_t* ids, size_t n);
SEEN_API seen_status seen_bloom_contains_u64(const seen_bloom* f, const uint64_t* ids, size_t n,
                                             uint8_t* out);
SEEN_API seen_status seen_bloom_add_keys(seen_bloom* f, const uint8_t* data,
                                         const uint64_t* offsets, size_t n);
SEEN_API seen_status seen_bloom_contains_keys(const seen_bloom* f, const uint8_t* data,
                                              const uint64_t* offsets, size_t n, uint8_t* out);

/* Experimental (see the README's Compatibility section): declared only when SEEN_EXPERIMENTAL
 * is defined before this header is included, exported under the version node
 * SEEN_EXPERIMENTAL, and free to change or go away in any release, like zstd's
 * ZSTD_STATIC_LINKING_ONLY part. Exclusive adds may give way to adds that need no promise. */
#ifdef SEEN_EXPERIMENTAL
/* Exclusive adds: pass 1 to promise that adds (batch or single) never run concurrently on
 * this filter: one writer thread, or the caller's own lock. Adds then skip the stripe locks
 * that make them thread-safe by default (batches take them all at once per 16,384 keys when
 * no other writer holds one, so a lone writer gains only a few percent; single adds take one
 * each). Concurrent contains stay safe. Pass 0 (the default) to make concurrent adds safe again. Not thread-safe itself:
 * call it before sharing the filter. */
SEEN_API seen_status seen_bloom_set_exclusive_adds(seen_bloom* f, int exclusive);
#endif

/* Single keys. `was_present` (may be NULL) receives 1 if every bit of the key was already set
 * before this add (test-and-add), else 0. A key of len 0 is valid (key may then be NULL). */
SEEN_API seen_status seen_bloom_add_one_u64(seen_bloom* f, uint64_t id, uint8_t* was_present);
SEEN_API seen_status seen_bloom_add_one_key(seen_bloom* f, const void* key, size_t len,
                                            uint8_t* was_present);
/* Returns 1 if the key may have been added, 0 if it certainly was not, -1 if f is NULL
 * (or key is NULL with len > 0). */
SEEN_API int seen_bloom_contains_one_u64(const seen_bloom* f, uint64_t id);
SEEN_API int seen_bloom_contains_one_key(const seen_bloom* f, const void* key, size_t len);

/* dst |= src. Both must have the same block count, k and seed, else SEEN_ERR_INCOMPATIBLE
 * naming the field that differs. dst must be writable. Not thread-safe on dst. */
SEEN_API seen_status seen_bloom_merge(seen_bloom* dst, const seen_bloom* src);

/* dst &= src, word by word: dst keeps the bits both have. A key added to both still looks
 * present (no false negatives); a key of only one may too, so the result is approximate
 * upward: its false-positive rate and its approx_items are those of its bits, at least those
 * of a filter built from the common keys alone. The shape rules of seen_bloom_merge
 * (SEEN_ERR_INCOMPATIBLE); dst must be writable. Not thread-safe on dst. */
SEEN_API seen_status seen_bloom_intersect(seen_bloom* dst, const seen_bloom* src);

/* *covers = 1 if every bit set in b is set in a, so every key b holds looks present in a,
 * else 0. 1 does not prove the keys of b a subset of the keys of a (false positives), but 0
 * proves they are not. The shape rules of seen_bloom_merge; a failure reports to a. Thread-
 * safe (a racing add may or may not be seen). */
SEEN_API seen_status seen_bloom_covers(const seen_bloom* a, const seen_bloom* b, int* covers);

/* Resets every bit to zero. Not thread-safe. */
SEEN_API seen_status seen_bloom_clear(seen_bloom* f);

/* Block-range slices: one big filter built in pieces, e.g. one Spark task per range of
 * blocks, so that no task holds the whole filter. A key sets bits in one 64-byte block only,
 * so a filter's blocks [first, first + count) depend only on the keys that map there:
 *  1. route each key to its block with seen_bloom_blocks_of_* (a filter of the final size
 *     and seed; its memory is not touched, so creating it costs no resident memory);
 *  2. add each range's keys to a filter of the same size and read the range back with
 *     seen_bloom_read_blocks (only the range's pages become resident);
 *  3. OR every range into one filter with seen_bloom_or_blocks.
 * The result is byte-identical to adding every key to one filter. */
/* blocks[i] = the block (0 .. info.blocks - 1) key i maps to. NULL arrays are
 * SEEN_ERR_INVALID_ARGUMENT unless n == 0. Thread-safe. */
SEEN_API seen_status seen_bloom_blocks_of_u64(const seen_bloom* f, const uint64_t* ids, size_t n,
                                              uint64_t* blocks);
SEEN_API seen_status seen_bloom_blocks_of_keys(const seen_bloom* f, const uint8_t* data,
                                               const uint64_t* offsets, size_t n,
                                               uint64_t* blocks);
/* Copies blocks [first, first + count) into out (count * 64 bytes, caller-owned). A range
 * outside the filter is SEEN_ERR_INVALID_ARGUMENT. Thread-safe against queries. */
SEEN_API seen_status seen_bloom_read_blocks(const seen_bloom* f, uint64_t first, uint64_t count,
                                            uint8_t* out);
/* ORs count * 64 bytes of blocks (any alignment) into the filter's blocks from first on. A
 * range outside the filter is SEEN_ERR_INVALID_ARGUMENT; a read-only filter,
 * SEEN_ERR_READ_ONLY. Thread-safe against other adds (it takes their stripe locks). */
SEEN_API seen_status seen_bloom_or_blocks(seen_bloom* f, uint64_t first, uint64_t count,
                                          const uint8_t* blocks);

/* What the filter is (its fixed parameters): O(1). Set info->size = sizeof(seen_bloom_info)
 * before the call; the library fills only the fields that fit in that size. */
typedef struct seen_bloom_info {
  size_t size;
  uint64_t bytes;          /* payload bytes: blocks * 64 */
  uint64_t blocks;
  uint32_t k;              /* bits set per key, all in one block */
  uint32_t read_only;      /* 1 for a read-only open or view */
  uint64_t seed;
  uint64_t expected_items; /* as given at creation */
  double target_fpr;       /* as given at creation (predicted, for create_bytes) */
  uint32_t keyed;          /* 1 in keyed mode (seen_bloom_create_keyed): seed is then 0 */
  uint32_t reserved;       /* 0 */
} seen_bloom_info;
SEEN_API seen_status seen_bloom_get_info(const seen_bloom* f, seen_bloom_info* info);

/* The filter's blocks where they are (info.bytes bytes, block scheme 1 of docs/FORMAT.md), for
 * a binding that answers single-key queries in its own language rather than through a foreign
 * call per key (bindings/go), and for seen_inline.h. Valid until seen_bloom_free; never write
 * through it. Adds running beside a reader change whole aligned 64-bit words, so read it a word
 * at a time. */
SEEN_API seen_status seen_bloom_get_blocks(const seen_bloom* f, const uint8_t** blocks);

/* Fill statistics: O(bytes), reads the whole filter. Same size rule as info. */
typedef struct seen_bloom_stats {
  size_t size;
  double fill_ratio;    /* set bits / all bits */
  double approx_items;  /* distinct items estimated from the fill */
  double predicted_fpr; /* false-positive rate of the filter as it is now */
} seen_bloom_stats;
SEEN_API seen_status seen_bloom_get_stats(const seen_bloom* f, seen_bloom_stats* stats);

/* Serialized form (the container format of docs/FORMAT.md). With buf NULL, *written
 * receives the bytes needed and SEEN_OK is returned. With cap too small,
 * SEEN_ERR_BUFFER_TOO_SMALL and *written = bytes needed. */
SEEN_API seen_status seen_bloom_serialize(const seen_bloom* f, uint8_t* buf, size_t cap,
                                          size_t* written);
/* A new writable filter copied from buf, after full validation. */
SEEN_API seen_status seen_bloom_deserialize(const uint8_t* buf, size_t len, seen_bloom** out,
                                            seen_error* err);
/* A read-only filter that uses buf in place, with no copy: buf must stay valid and unchanged
 * until seen_bloom_free. Validated like deserialize (flags: 0 or SEEN_OPEN_NO_VERIFY). */
SEEN_API seen_status seen_bloom_view(const uint8_t* buf, size_t len, uint32_t flags,
                                     seen_bloom** out, seen_error* err);

/* Crash-safe save: writes an unnamed temporary (O_TMPFILE) beside path, or a path.tmp-*
 * file where the file system has no O_TMPFILE or the process cannot name an unnamed file (no
 * /proc and no CAP_DAC_READ_SEARCH), fsyncs it, renames it over path, fsyncs the directory.
 * A file that replaces another keeps its mode, and its owner where the process may give it.
 * On failure the previous file at path is left intact and no temporary remains; the
 * temporaries a killed save left behind are removed by the next save of path. A snapshot
 * (see the conventions at the top): it may run beside adds. */
SEEN_API seen_status seen_bloom_save(const seen_bloom* f, const char* path);

/* Maps a saved filter. flags: SEEN_OPEN_READ_ONLY or SEEN_OPEN_WRITE_IN_PLACE, optionally
 * | SEEN_OPEN_NO_VERIFY. A mapping of 2 MiB or more is 2 MiB aligned with MADV_HUGEPAGE, and
 * saves write in 4 MiB chunks, so where the file system keeps large folios in its page cache
 * (XFS; ext4 on the Linux 6.18 measured here) a random query walks no 4 KiB page table:
 * 1.5-1.8x the random-read floor at 10^9 keys, against 2.1-2.9x on 4 KiB pages
 * (bench/results/spam.md). */
SEEN_API seen_status seen_bloom_open(const char* path, uint32_t flags, seen_bloom** out,
                                     seen_error* err);

/* For a read-write mapped filter: updates the checksums and flushes to the file (msync).
 * For any other filter: SEEN_OK, nothing to do. Not thread-safe against adds. */
SEEN_API seen_status seen_bloom_sync(seen_bloom* f);

/* ------------------------------------------------------------------------------------------
 * Exposure windows: has this item been shown to this user recently? A window guarantees
 * that the last `span` items (count mode) or the items of the last `span` seconds (time
 * mode) are always found, and forgets older ones within its slack. Time is `now`, in
 * seconds of any epoch the caller keeps (at most 2^32 - 1); a clock that goes backwards
 * never forgets anything early. Items are u64 ids or byte keys, hashed with the seed.
 *
 * Thread safety: adds need exclusive access (one writer, or the caller's lock, with no query
 * running: an add moves the ring and may grow the window). Contains, info, saturation and
 * serialize only read: they may run concurrently with each other, not with an add.
 * Serve many users from one store (below), whose calls all lock for themselves.
 * ---------------------------------------------------------------------------------------- */
typedef struct seen_window seen_window;

#define SEEN_WINDOW_COUNT 1u /* the last `span` items */
#define SEEN_WINDOW_TIME 2u  /* the last `span` seconds */

typedef struct seen_window_options {
  size_t size;             /* sizeof(seen_window_options); an older header's smaller size is
                              accepted (down to the first layout, ending at max_bytes) with
                              fields it lacks left at their 0 defaults */
  uint32_t mode;           /* SEEN_WINDOW_COUNT or SEEN_WINDOW_TIME */
  uint32_t span;           /* items or seconds always remembered */
  uint32_t expected_items; /* time mode: the most items expected within span */
  uint32_t reserved;       /* 0 */
  double fpr;              /* the total false-positive rate once full, in (0, 1) */
  double max_slack;        /* how far past the span an item may linger; 0 means 0.25 */
  uint64_t seed;
  uint64_t max_bytes;      /* count mode, if not 0: the lowest-fpr window of at most this many
                              state bytes; fpr is then ignored. Time mode: the most bytes the
                              window may grow to (0: 1 MiB; for a growing window, the larger
                              of 1 MiB and 4x its start) */
  const uint8_t* key;      /* keyed mode if not NULL: key_len (16..64) secret bytes, read
                              during the call only (docs/SECURITY.md). Items hash with
                              SipHash-1-3 under it, and a store's users pick their shard with
                              it; files hold only its check value, and open with
                              seen_window_deserialize_keyed or seen_store_open_keyed */
  size_t key_len;
} seen_window_options;

/* What a window became: its layout (1 fingerprint ring, 2 bit-sliced segments, 3 growing
 * segments, 4 fingerprint table, 5 packed fingerprint segments), its exact span, slack,
 * memory and predicted rate. A count window is the smallest of a ring, packed segments and
 * bit-sliced segments that meets fpr within max_slack. A time
 * window grows. It is a table (layout 4) when fpr can be kept at max_bytes (1% up to 2 MiB):
 * state_bytes are its first table of 16 items, which doubles as items come, and every lookup
 * reads one cache line. Else it is growing (layout 3): state_bytes are its start, sized for a
 * quarter of expected_items; a segment given more opens sub-filters. Either keeps the rate
 * under fpr for any number of items, up to max_bytes; past max_bytes it gives up its oldest
 * time, then its rate, never an item (see seen_window_saturation). Set info->size before
 * the call. */
typedef struct seen_window_info {
  size_t size;
  uint32_t mode;
  uint32_t layout;
  uint32_t span;
  uint32_t segments;
  uint64_t state_bytes;
  double slack;
  double predicted_fpr;
  uint64_t seed;
  uint64_t max_bytes;      /* table, growing: the most bytes it may take; else 0 */
  double target_fpr;       /* the rate it was sized for: opts->fpr, or for a count window
                              sized by max_bytes, the steady-state rate it reaches */
} seen_window_info;

/* A new, empty window sized from opts; `now` starts the clock of a time window. */
SEEN_API seen_status seen_window_create(const seen_window_options* opts, uint64_t now,
                                        seen_window** out, seen_error* err);
SEEN_API void seen_window_free(seen_window* w);

/* Copies the last failure of a call on w into *err (status SEEN_OK and "" if none failed yet).
 * NULL err is a no-op; NULL w gives SEEN_ERR_INVALID_ARGUMENT in *err. Thread-safe. */
SEEN_API void seen_window_last_error(const seen_window* w, seen_error* err);
SEEN_API seen_status seen_window_add_u64(seen_window* w, const uint64_t* items, size_t n,
                                         uint64_t now);
SEEN_API seen_status seen_window_contains_u64(const seen_window* w, const uint64_t* items,
                                              size_t n, uint64_t now, uint8_t* out);
SEEN_API seen_status seen_window_add_keys(seen_window* w, const uint8_t* data,
                                          const uint64_t* offsets, size_t n, uint64_t now);
SEEN_API seen_status seen_window_contains_keys(const seen_window* w, const uint8_t* data,
                                               const uint64_t* offsets, size_t n, uint64_t now,
                                               uint8_t* out);
SEEN_API seen_status seen_window_get_info(const seen_window* w, seen_window_info* info);
/* How full a window is at `now`: fill is the share of its capacity in use (ring entries, or
 * set bits of the live segments; a growing window's base; a table's slots), predicted_fpr the
 * false-positive rate at that fill (with a growing window's sub-filters). A time window of
 * an older file (layout 2) given more than expected_items shows predicted_fpr above its
 * target. effective_span is the span less what a table or growing window gave up to
 * max_bytes: every item of the last effective_span seconds is found. bytes: state and growth.
 *
 * Under max_bytes a window keeps, in this order: every completed add, then its rate, then its
 * span. It gives up its oldest segments first (span_limited, effective_span < span), but never
 * the current one, which holds the items of the current call and second; when that one alone
 * outgrows max_bytes it gives up rate (over_target, predicted_fpr above the target fpr).
 * Every item added within effective_span is found, always.
 *
 * Set sat->size before the call; filled up to it (over_target and span_limited are 0 or 1,
 * and new in 0.1: a caller built with the shorter struct gets the fields before them).
 * Returns SEEN_ERR_INVALID_ARGUMENT for a NULL w or sat, an unset size or now past 2^32 - 1.
 * Reads only: may run beside contains. */
typedef struct seen_window_saturation {
  size_t size;
  double fill;
  double predicted_fpr;
  uint32_t effective_span;
  uint32_t reserved; /* 0 */
  uint64_t bytes;
  uint32_t over_target;  /* predicted_fpr exceeds the target fpr */
  uint32_t span_limited; /* effective_span is under the span */
} seen_window_saturation;
SEEN_API seen_status seen_window_get_saturation(const seen_window* w, uint64_t now,
                                                seen_window_saturation* sat);
/* The container format, kind 4; same buffer rules as seen_bloom_serialize. */
SEEN_API seen_status seen_window_serialize(const seen_window* w, uint8_t* buf, size_t cap,
                                           size_t* written);
SEEN_API seen_status seen_window_deserialize(const uint8_t* buf, size_t len, seen_window** out,
                                             seen_error* err);
/* A keyed window's bytes, with its key (SEEN_ERR_INCOMPATIBLE for a missing or wrong one). */
SEEN_API seen_status seen_window_deserialize_keyed(const uint8_t* buf, size_t len,
                                                   const uint8_t* key, size_t key_len,
                                                   seen_window** out, seen_error* err);

#ifdef SEEN_EXPERIMENTAL
/* Windows whose every byte comes from the caller's allocator, the way zstd takes
 * ZSTD_customMem: the handle, the state and all its growth, for a host that must account for
 * its memory (the Redis module passes RedisModule_Alloc, so that maxmemory and eviction see
 * windows). alloc(opaque, n) returns n bytes aligned as malloc's, or NULL when out of memory
 * (the call then returns SEEN_ERR_OUT_OF_MEMORY and the window stays as it was before it);
 * free(opaque, p) gives back what alloc returned (never NULL). There is no realloc: a window
 * copies its growth into a new block when it grows. The window keeps a pointer to *allocator,
 * which must stay valid and unchanged until seen_window_free of every window made with it
 * (a static, say). NULL allocator: the C library's heap, as the calls without it.
 * create_with_allocator sizes from opts as seen_window_create does; deserialize_with_allocator
 * opens bytes as seen_window_deserialize, or with a key (key_len bytes, read during the call)
 * as seen_window_deserialize_keyed. Thread-safe: alloc and free are called from the thread
 * that calls into the window. */
typedef struct seen_allocator {
  void* (*alloc)(void* opaque, size_t bytes);
  void (*free)(void* opaque, void* ptr);
  void* opaque;
} seen_allocator;
SEEN_API seen_status seen_window_create_with_allocator(const seen_window_options* opts,
                                                       uint64_t now,
                                                       const seen_allocator* allocator,
                                                       seen_window** out, seen_error* err);
SEEN_API seen_status seen_window_deserialize_with_allocator(const uint8_t* buf, size_t len,
                                                            const uint8_t* key, size_t key_len,
                                                            const seen_allocator* allocator,
                                                            seen_window** out, seen_error* err);
/* seen_window_get_saturation's effective_span alone, in O(1) (saturation reads the whole
 * state): cheap enough to ask after every add. SEEN_ERR_INVALID_ARGUMENT for a NULL w or
 * span, or now past 2^32 - 1. Reads only: may run beside contains. */
SEEN_API seen_status seen_window_get_effective_span(const seen_window* w, uint64_t now,
                                                    uint32_t* span);
/* seen_window_get_saturation's bytes alone (state and growth), in O(1). A table or growing
 * window can give up time or rate only once its bytes are past half its max_bytes (a table
 * doubles), so this says cheaply which windows to measure. SEEN_ERR_INVALID_ARGUMENT for a
 * NULL w or bytes. Reads only. */
SEEN_API seen_status seen_window_get_bytes(const seen_window* w, uint64_t* bytes);
#endif

/* ------------------------------------------------------------------------------------------
 * The exposure store: one window per user id, for millions of users, in one compact arena
 * (about 15 bytes per user beside the window). A user appears on its first mark or take and
 * is dropped after idle_timeout seconds without one (hour granularity).
 *
 * Thread safety: every call but free may run concurrently from any number of threads: users
 * are spread over 64 shards, each with its own lock (filter, stats and saturation take it
 * shared, so they run beside each other).
 * ---------------------------------------------------------------------------------------- */
typedef struct seen_store seen_store;

typedef struct seen_store_options {
  size_t size;                        /* sizeof(seen_store_options); an older header's smaller
                                         size is accepted (down to the first layout, ending at
                                         expected_users) with missing fields at 0 */
  const seen_window_options* window;  /* every user's window; read during the call only */
  uint32_t idle_timeout;              /* seconds; 0 means 86400, UINT32_MAX never */
  uint32_t reserved;                  /* 0 */
  uint64_t max_bytes;                 /* memory bound; 0 unbounded. At the bound a new user
                                         evicts the least recently active of a sample. */
  uint64_t expected_users;            /* sizes the index; 0 means 2^20 */
} seen_store_options;

typedef struct seen_store_stats {
  size_t size;
  uint64_t users;
  uint64_t bytes;       /* memory held by windows, ids, times and the index */
  uint64_t evictions;   /* users dropped by the memory bound */
  uint64_t expirations; /* users dropped for idleness */
  uint64_t users_grown; /* users whose window outgrew its start (a table's first table, or a
                           growing window's base) */
  uint64_t span_drops;  /* times a window gave up its oldest time to its max_bytes */
} seen_store_stats;

SEEN_API seen_status seen_store_create(const seen_store_options* opts, seen_store** out,
                                       seen_error* err);
SEEN_API void seen_store_free(seen_store* s);

/* Copies the last failure of a call on s into *err (status SEEN_OK and "" if none failed yet).
 * NULL err is a no-op; NULL s gives SEEN_ERR_INVALID_ARGUMENT in *err. Thread-safe. */
SEEN_API void seen_store_last_error(const seen_store* s, seen_error* err);
/* out_unseen[i] = 1 if candidate i was not shown to the user (in their window), else 0. A
 * user the store has never seen has seen nothing. Does not count as activity. */
SEEN_API seen_status seen_store_filter(const seen_store* s, uint64_t user,
                                       const uint64_t* candidates, size_t n, uint64_t now,
                                       uint8_t* out_unseen);
/* Records that the items were shown to the user. */
SEEN_API seen_status seen_store_mark(seen_store* s, uint64_t user, const uint64_t* items,
                                     size_t n, uint64_t now);
/* In one atomic step: the first `want` candidates the user has not seen, in order, go to
 * out_taken (room for want ids) and are marked; *out_count says how many. Two concurrent
 * takes for one user never return the same item within the window's effective span. */
SEEN_API seen_status seen_store_take(seen_store* s, uint64_t user, const uint64_t* candidates,
                                     size_t n, size_t want, uint64_t now, uint64_t* out_taken,
                                     size_t* out_count);
/* Drops every user idle longer than idle_timeout at `now`; *dropped (may be NULL) counts them.
 * The memory they held goes back to the system. */
SEEN_API seen_status seen_store_expire(seen_store* s, uint64_t now, uint64_t* dropped);
SEEN_API seen_status seen_store_get_stats(const seen_store* s, seen_store_stats* stats);
/* How full the users' windows are at `now`: a time window given more items than its
 * expected_items holds a rate above its target, silently; this shows it. users_above_target
 * counts the users whose predicted_fpr (see seen_window_get_saturation) exceeds the target
 * fpr; mean_fill is over users, max_predicted_fpr the highest of any user;
 * users_span_limited counts those whose effective_span is under the span (their table or
 * growing window reached max_bytes and gave up older time). O(users x window bytes); runs beside
 * filters and waits for marks. Set sat->size before the call; filled up to it.
 * SEEN_ERR_INVALID_ARGUMENT for NULL s or sat, an unset size, or now past 2^32 - 1. */
typedef struct seen_store_saturation {
  size_t size;
  uint64_t users;
  uint64_t users_above_target;
  double mean_fill;
  double max_predicted_fpr;
  uint64_t users_span_limited;
} seen_store_saturation;
SEEN_API seen_status seen_store_get_saturation(const seen_store* s, uint64_t now,
                                               seen_store_saturation* sat);
/* One user's window at `now`, as seen_window_get_saturation gives it (fill, predicted_fpr,
 * effective_span, bytes). SEEN_ERR_NOT_FOUND for a user the store does not hold. */
SEEN_API seen_status seen_store_get_user_saturation(const seen_store* s, uint64_t user,
                                                    uint64_t now, seen_window_saturation* sat);
SEEN_API seen_status seen_store_get_window_info(const seen_store* s, seen_window_info* info);
/* Crash-safe, like seen_bloom_save. Takes every shard's lock for the duration. */
SEEN_API seen_status seen_store_save(const seen_store* s, const char* path);
/* Opens a saved store. SEEN_OPEN_READ_ONLY: maps it, filter only, writes return
 * SEEN_ERR_READ_ONLY. SEEN_OPEN_PRIVATE_COPY: writes stay in memory until the next save (the
 * file is never written in place). | SEEN_OPEN_NO_VERIFY skips the payload checksum: a
 * 10 GB store then opens in about a second, and a corrupt window is refused when its user is
 * touched. */
SEEN_API seen_status seen_store_open(const char* path, uint32_t flags, seen_store** out,
                                     seen_error* err);
/* A keyed store's file, with its key (SEEN_ERR_INCOMPATIBLE for a missing or wrong one). */
SEEN_API seen_status seen_store_open_keyed(const char* path, uint32_t flags, const uint8_t* key,
                                           size_t key_len, seen_store** out, seen_error* err);

/* ------------------------------------------------------------------------------------------
 * SimHash near-duplicates (docs/simhash.md): 64-bit fingerprints of text or weighted
 * features, and an index that returns every stored fingerprint within Hamming distance k.
 * Fingerprint functions are pure and thread-safe. Text is UTF-8; invalid bytes and NUL act
 * as separators, never as errors. A text with no tokens (empty, only punctuation) has
 * simhash 0 and features 0: compare such texts by their exact fingerprint.
 * ---------------------------------------------------------------------------------------- */
typedef struct seen_simhash_idf seen_simhash_idf;
typedef struct seen_simhash_index seen_simhash_index;

/* Text options. Set size = sizeof(seen_simhash_options); fields past `size` take their
 * defaults. Passing NULL options means all defaults. */
typedef struct seen_simhash_options {
  size_t size;
  uint32_t ngram;              /* CJK character shingle length, 1..8; 0 means 2 */
  uint64_t seed;               /* XXH3 seed of every feature hash; default 0 */
  const seen_simhash_idf* idf; /* token weights; NULL (default): term frequency only */
  const uint8_t* key;          /* keyed mode if not NULL: key_len (16..64) secret bytes under
                                  which features hash with SipHash-1-3, so that nobody without
                                  them can craft a text near another's fingerprint */
  size_t key_len;
} seen_simhash_options;

/* The fingerprints of one text. Set size = sizeof(seen_simhash_fingerprint) before the call;
 * only the fields that fit in `size` are written. */
typedef struct seen_simhash_fingerprint {
  size_t size;
  uint64_t simhash;    /* near-duplicate fingerprint */
  uint64_t exact_high; /* XXH3-128 of the normalized text: equal for texts that differ only */
  uint64_t exact_low;  /*   in case, width, punctuation and whitespace */
  uint64_t features;   /* tokens counted, with repeats */
} seen_simhash_fingerprint;

/* Fingerprints of `len` bytes of text (text may be NULL when len is 0). Memory stays
 * constant whatever len is. SEEN_ERR_INVALID_ARGUMENT for ngram > 8 or a bad size. */
SEEN_API seen_status seen_simhash_text(const char* text, size_t len,
                                       const seen_simhash_options* options,
                                       seen_simhash_fingerprint* out, seen_error* err);

/* n texts at once: text i is data[offsets[i] .. offsets[i+1]). simhashes has room for n;
 * exact (may be NULL) for 2n values, exact[2i] the high and exact[2i+1] the low half. */
SEEN_API seen_status seen_simhash_text_batch(const uint8_t* data, const uint64_t* offsets,
                                             size_t n, const seen_simhash_options* options,
                                             uint64_t* simhashes, uint64_t* exact, seen_error* err);

/* The fingerprint of n caller-made features: hashes[i] with weights[i] (weights NULL: all
 * 1). Weights must be finite (else SEEN_ERR_INVALID_ARGUMENT). n == 0 gives *out = 0. */
SEEN_API seen_status seen_simhash_hashes(const uint64_t* hashes, const float* weights,
                                         size_t n, uint64_t* out, seen_error* err);

/* The same with byte features (data + offsets), each hashed with XXH3-64 and seed. */
SEEN_API seen_status seen_simhash_strings(const uint8_t* data, const uint64_t* offsets,
                                          const float* weights, size_t n, uint64_t seed,
                                          uint64_t* out, seen_error* err);

/* The same, keyed (docs/SECURITY.md): each feature is hashed with SipHash-1-3 under the
 * key_len (16..64) secret bytes of key, so someone who does not know the key cannot choose
 * features that land near a given fingerprint. The key is required; its bytes are read
 * during the call only. */
SEEN_API seen_status seen_simhash_strings_keyed(const uint8_t* data, const uint64_t* offsets,
                                                const float* weights, size_t n, uint64_t seed,
                                                const uint8_t* key, size_t key_len, uint64_t* out,
                                                seen_error* err);

/* The Hamming distance: the number of differing bits, 0..64. */
SEEN_API uint32_t seen_simhash_distance(uint64_t a, uint64_t b);

/* An IDF table for seen_simhash_options: token i is data[offsets[i] .. offsets[i+1]),
 * normalized like text (so "Hello" and "hello" are one token), weighing weights[i]; every
 * other token weighs default_weight. The table copies what it needs. Immutable, so it may
 * be shared by any number of threads; it must outlive the calls that use it. */
SEEN_API seen_status seen_simhash_idf_create(const uint8_t* data, const uint64_t* offsets,
                                             const float* weights, size_t n,
                                             float default_weight, seen_simhash_idf** out,
                                             seen_error* err);
SEEN_API void seen_simhash_idf_free(seen_simhash_idf* idf);

/* A new, empty index for queries with k up to max_k (0..7). max_k sets the tables: up to 3,
 * four 16-bit blocks (about 29 B per fingerprint); above, max_k + 1 blocks (more memory and
 * larger buckets; the cost per k is in docs/simhash.md).
 *
 * The index is a multiset of (id, fingerprint) pairs: adding an id twice keeps both pairs,
 * and a query reports each. Thread safety: queries (query, any, batches, clusters, size,
 * serialize, save) may run concurrently from any number of threads; add, remove and free
 * need exclusive access. Adds are staged; the first query after them rebuilds the tables in
 * O(n) (thread-safe, once), or call seen_simhash_index_build to do it up front. */
SEEN_API seen_status seen_simhash_index_create(uint32_t max_k, seen_simhash_index** out,
                                               seen_error* err);
SEEN_API void seen_simhash_index_free(seen_simhash_index* index);

/* Copies the last failure of a call on index into *err (status SEEN_OK and "" if none failed yet).
 * NULL err is a no-op; NULL index gives SEEN_ERR_INVALID_ARGUMENT in *err. Thread-safe. */
SEEN_API void seen_simhash_index_last_error(const seen_simhash_index* index, seen_error* err);

/* Adds n pairs (fingerprints[i], ids[i]). SEEN_ERR_READ_ONLY on a mapped or viewed index;
 * SEEN_ERR_TOO_LARGE past 2^32 - 1 pairs. */
SEEN_API seen_status seen_simhash_index_add(seen_simhash_index* index,
                                            const uint64_t* fingerprints, const uint64_t* ids,
                                            size_t n);
/* Removes every pair whose id is among the n ids; *removed (may be NULL) counts the pairs
 * removed. Ids not in the index are ignored. O(size + n): batch removals. */
SEEN_API seen_status seen_simhash_index_remove(seen_simhash_index* index, const uint64_t* ids,
                                               size_t n, uint64_t* removed);
/* Rebuilds the tables now if pairs were added or removed since the last build. */
SEEN_API seen_status seen_simhash_index_build(seen_simhash_index* index);

/* Every pair within k (k <= max_k, else SEEN_ERR_INVALID_ARGUMENT) of fingerprint, sorted by
 * distance then id: ids[i] and distances[i] (distances may be NULL) for i < min(*found, cap).
 * *found receives the number of matches; if it exceeds cap the first cap are written and
 * SEEN_ERR_BUFFER_TOO_SMALL is returned. ids may be NULL when cap is 0 (a count). */
SEEN_API seen_status seen_simhash_index_query(const seen_simhash_index* index,
                                              uint64_t fingerprint, uint32_t k, uint64_t* ids,
                                              uint32_t* distances, size_t cap, size_t* found);

/* out[i] = 1 if any pair lies within k of fingerprints[i], else 0; stops at the first match
 * of each. */
SEEN_API seen_status seen_simhash_index_any(const seen_simhash_index* index,
                                            const uint64_t* fingerprints, size_t n, uint32_t k,
                                            uint8_t* out);

/* Every match of n queries: the matches of query i are ids[offsets[i] .. offsets[i+1]) (and
 * distances likewise; distances may be NULL), each sorted like seen_simhash_index_query.
 * offsets (room for n + 1) is always filled; when offsets[n] > cap nothing else is written
 * and SEEN_ERR_BUFFER_TOO_SMALL is returned, so a caller can size and call again. */
SEEN_API seen_status seen_simhash_index_query_batch(const seen_simhash_index* index,
                                                    const uint64_t* fingerprints, size_t n,
                                                    uint32_t k, uint64_t* offsets,
                                                    uint64_t* ids, uint32_t* distances,
                                                    size_t cap);

/* All-pairs clustering that never chains: each group has a representative, its pair with the
 * smallest id, and every two members are within k of each other (a diameter of at most k).
 * Leaders go in id order: a pair not yet in a group starts one and takes, in id order, each
 * pair within k of it not yet in a group that is within k of every member taken so far. For every pair of the index, ids[i] and groups[i] (i < *count =
 * the index size); groups are numbered 0, 1, ... in the order the ids are listed, and a pair
 * with no neighbour is a group of one.
 * cap < size: SEEN_ERR_BUFFER_TOO_SMALL with *count = size (ids/groups may then be NULL).
 * Runs one query per pair, spread over every core (up to 8 threads). */
SEEN_API seen_status seen_simhash_index_clusters(const seen_simhash_index* index, uint32_t k,
                                                 uint64_t* ids, uint32_t* groups, size_t cap,
                                                 size_t* count);

/* Size and memory. Same size rule as seen_bloom_info. */
typedef struct seen_simhash_index_info {
  size_t size;
  uint64_t count;     /* pairs, staged ones included */
  uint32_t max_k;
  uint32_t read_only; /* 1 for an opened or viewed index */
  uint64_t bytes;     /* memory of the built tables (builds them if needed) */
} seen_simhash_index_info;
SEEN_API seen_status seen_simhash_index_get_info(const seen_simhash_index* index,
                                                 seen_simhash_index_info* info);

/* Serialized form (kind 6 of docs/FORMAT.md), the same rules as seen_bloom_serialize. */
SEEN_API seen_status seen_simhash_index_serialize(const seen_simhash_index* index, uint8_t* buf,
                                                  size_t cap, size_t* written);
/* A new writable index copied from buf, after full validation. */
SEEN_API seen_status seen_simhash_index_deserialize(const uint8_t* buf, size_t len,
                                                    seen_simhash_index** out, seen_error* err);
/* A read-only index using buf in place (no copy): buf must stay valid and unchanged until
 * free. flags: 0 or SEEN_OPEN_NO_VERIFY. */
SEEN_API seen_status seen_simhash_index_view(const uint8_t* buf, size_t len, uint32_t flags,
                                             seen_simhash_index** out, seen_error* err);
/* Crash-safe save, like seen_bloom_save. */
SEEN_API seen_status seen_simhash_index_save(const seen_simhash_index* index, const char* path);
/* Maps a saved index read-only and queries it in place. flags: SEEN_OPEN_READ_ONLY, optionally
 * | SEEN_OPEN_NO_VERIFY (bucket offsets are still checked, so a damaged file cannot make a
 * query read outside it). To change it, deserialize a copy. */
SEEN_API seen_status seen_simhash_index_open(const char* path, uint32_t flags,
                                             seen_simhash_index** out, seen_error* err);

/* ------------------------------------------------------------------------------------------
 * Counting filter (docs/counting.md): the blocked Bloom filter with a 4-bit saturating
 * counter per bit, so keys can be removed. Same blocks, k, answers and false-positive rate
 * as a seen_bloom of the same expected_items and fpr (queries read that Bloom filter, kept
 * beside the counters), in 5x the memory.
 *
 * The remove rule: remove only keys that were added. A remove of a key with a zero counter
 * (certainly never added) changes nothing and reports SEEN_ERR_NOT_FOUND. A remove of a
 * never-added key that looks present (a false positive) can make another key a false
 * negative: that is the caller's hazard to avoid. A saturated counter never changes again,
 * so adds and removes of added keys never make a false negative.
 *
 * Thread safety differs from seen_bloom: adds, removes (batch or single), clear, sync and
 * free need exclusive access (one writer at a time). Contains and test may run concurrently
 * with each other and with that one writer; they never miss a completed add. get_stats,
 * serialize and save read the counters: run them with no writer active (a counter and its
 * presence bit change in two steps, and a file must never hold one without the other).
 * ---------------------------------------------------------------------------------------- */
typedef struct seen_counting seen_counting;

/* A new, empty filter with the blocks and k of seen_bloom_create(expected_items, fpr):
 * SEEN_ERR_INVALID_ARGUMENT for fpr outside (0, 1), SEEN_ERR_TOO_LARGE past 16 TiB of
 * counters. expected_items 0 is treated as 1. The caller frees *out with seen_counting_free. */
SEEN_API seen_status seen_counting_create(uint64_t expected_items, double fpr, uint64_t seed,
                                          seen_counting** out, seen_error* err);

/* Frees the filter (a read-write mapped one is synced first; errors are lost: call
 * seen_counting_sync before). NULL is a no-op. */
SEEN_API void seen_counting_free(seen_counting* f);

/* Copies the last failure of a call on f into *err (status SEEN_OK and "" if none failed yet).
 * NULL err is a no-op; NULL f gives SEEN_ERR_INVALID_ARGUMENT in *err. Thread-safe. */
SEEN_API void seen_counting_last_error(const seen_counting* f, seen_error* err);

/* Batch adds, removes and queries, in key order (a key repeated in a batch counts each time).
 * out[i] is 1 if key i may be present, else 0; out has n bytes, owned by the caller.
 * remove: removed[i] (removed may be NULL) is 1 if key i was removed, 0 if it was certainly
 * absent and nothing changed for it; the call processes every key and returns
 * SEEN_ERR_NOT_FOUND if any key was certainly absent, else SEEN_OK.
 * Writes to a read-only filter return SEEN_ERR_READ_ONLY. n == 0 is a no-op. */
SEEN_API seen_status seen_counting_add_u64(seen_counting* f, const uint64_t* ids, size_t n);
SEEN_API seen_status seen_counting_remove_u64(seen_counting* f, const uint64_t* ids, size_t n,
                                              uint8_t* removed);
SEEN_API seen_status seen_counting_contains_u64(const seen_counting* f, const uint64_t* ids,
                                                size_t n, uint8_t* out);
SEEN_API seen_status seen_counting_add_keys(seen_counting* f, const uint8_t* data,
                                            const uint64_t* offsets, size_t n);
SEEN_API seen_status seen_counting_remove_keys(seen_counting* f, const uint8_t* data,
                                               const uint64_t* offsets, size_t n,
                                               uint8_t* removed);
SEEN_API seen_status seen_counting_contains_keys(const seen_counting* f, const uint8_t* data,
                                                 const uint64_t* offsets, size_t n,
                                                 uint8_t* out);

/* Single keys. add_one adds one key. remove_one removes one: SEEN_ERR_NOT_FOUND (nothing
 * changed) if it was certainly absent. A key of len 0 is valid (key may then be NULL). */
SEEN_API seen_status seen_counting_add_one_u64(seen_counting* f, uint64_t id);
SEEN_API seen_status seen_counting_add_one_key(seen_counting* f, const void* key, size_t len);
SEEN_API seen_status seen_counting_remove_one_u64(seen_counting* f, uint64_t id);
SEEN_API seen_status seen_counting_remove_one_key(seen_counting* f, const void* key, size_t len);
/* Returns 1 if the key may be present, 0 if it certainly is not, -1 if f is NULL (or key is
 * NULL with len > 0). */
SEEN_API int seen_counting_contains_one_u64(const seen_counting* f, uint64_t id);
SEEN_API int seen_counting_contains_one_key(const seen_counting* f, const void* key, size_t len);

/* Resets every counter to zero. Exclusive access. */
SEEN_API seen_status seen_counting_clear(seen_counting* f);

/* What the filter is (its fixed parameters), O(1). Set info->size = sizeof(seen_counting_info)
 * before the call; only the fields that fit in that size are filled. */
typedef struct seen_counting_info {
  size_t size;
  uint64_t bytes;          /* payload bytes: blocks * 320 (64 presence + 256 counters) */
  uint64_t blocks;         /* as many as seen_bloom_create would use */
  uint32_t k;              /* counters per key, all in one 256-byte counter block */
  uint32_t read_only;      /* 1 for a read-only open or view */
  uint64_t seed;
  uint64_t expected_items; /* as given at creation */
  double target_fpr;       /* as given at creation */
  uint32_t counter_bits;   /* 4 */
  uint32_t keyed;          /* 1 in keyed mode (seen_counting_create_keyed): seed is then 0 */
} seen_counting_info;
SEEN_API seen_status seen_counting_get_info(const seen_counting* f, seen_counting_info* info);

/* The presence blocks (info.blocks * 64 bytes at the payload's start, block scheme 1 of
 * docs/FORMAT.md), which answer every query, lent as seen_bloom_get_blocks lends a Bloom
 * filter's, with its rules: valid until seen_counting_free, read-only, a word at a time. */
SEEN_API seen_status seen_counting_get_presence_blocks(const seen_counting* f,
                                                       const uint8_t** blocks);

/* Statistics: O(bytes), reads every counter. Same size rule as info. */
typedef struct seen_counting_stats {
  size_t size;
  double approx_items;    /* sum of counters / k: exact while nothing saturated */
  uint64_t saturated;     /* counters stuck at 15 (they never decrement) */
  double fill_ratio;      /* non-zero counters / all counters */
  double predicted_fpr;   /* false-positive rate of the filter as it is now */
} seen_counting_stats;
SEEN_API seen_status seen_counting_get_stats(const seen_counting* f, seen_counting_stats* stats);

/* Serialized form (kind 2 of docs/FORMAT.md), with the buffer rules of seen_bloom_serialize. */
SEEN_API seen_status seen_counting_serialize(const seen_counting* f, uint8_t* buf, size_t cap,
                                             size_t* written);
/* A new writable filter copied from buf, after full validation. */
SEEN_API seen_status seen_counting_deserialize(const uint8_t* buf, size_t len,
                                               seen_counting** out, seen_error* err);
/* A read-only filter using buf in place (no copy): buf must stay valid and unchanged until
 * free. flags: 0 or SEEN_OPEN_NO_VERIFY. */
SEEN_API seen_status seen_counting_view(const uint8_t* buf, size_t len, uint32_t flags,
                                        seen_counting** out, seen_error* err);
/* Crash-safe save, like seen_bloom_save. */
SEEN_API seen_status seen_counting_save(const seen_counting* f, const char* path);
/* Maps a saved filter, with the flags of seen_bloom_open: READ_ONLY refuses every add and
 * remove (SEEN_ERR_READ_ONLY); WRITE_IN_PLACE changes the file on sync and free. */
SEEN_API seen_status seen_counting_open(const char* path, uint32_t flags, seen_counting** out,
                                        seen_error* err);
/* Keyed mode, as for seen_bloom_create_keyed and its open and deserialize. */
SEEN_API seen_status seen_counting_create_keyed(uint64_t expected_items, double fpr,
                                                const uint8_t* key, size_t key_len,
                                                seen_counting** out, seen_error* err);
SEEN_API seen_status seen_counting_open_keyed(const char* path, uint32_t flags,
                                              const uint8_t* key, size_t key_len,
                                              seen_counting** out, seen_error* err);
SEEN_API seen_status seen_counting_deserialize_keyed(const uint8_t* buf, size_t len,
                                                     const uint8_t* key, size_t key_len,
                                                     seen_counting** out, seen_error* err);
/* For a read-write mapped filter: updates the checksums and flushes (msync). Otherwise
 * SEEN_OK, nothing to do. Exclusive access. */
SEEN_API seen_status seen_counting_sync(seen_counting* f);

/* ------------------------------------------------------------------------------------------
 * Scalable filter (docs/counting.md): blocked Bloom sub-filters that grow. When the newest
 * holds its capacity a new one is added, `growth` times larger with `tightening` times the
 * false-positive rate, so the total rate stays within the bound it was created with, at
 * any size. Adds of keys that already look present change nothing and do not count.
 *
 * Thread safety: adds (batch or single) and free need exclusive access; queries, info,
 * serialize and save may run concurrently with each other, not with an add.
 * ---------------------------------------------------------------------------------------- */
typedef struct seen_scalable seen_scalable;

typedef struct seen_scalable_options {
  size_t size;               /* sizeof(seen_scalable_options); an older header's smaller size
                                is accepted (down to the first layout, ending at seed) with
                                fields it lacks left at their 0 defaults */
  uint64_t initial_capacity; /* keys the first sub-filter holds, >= 1 */
  double fpr;                /* the bound on the total false-positive rate, in (0, 1) */
  double growth;             /* capacity ratio of consecutive sub-filters, in [1, 64]; 0 means 2 */
  double tightening;         /* fpr ratio of consecutive sub-filters, in (0, 1); 0 means 0.5 */
  uint64_t seed;
  const uint8_t* key;        /* keyed mode if not NULL, as in seen_window_options: key_len
                                (16..64) secret bytes; the file then opens with
                                seen_scalable_open_keyed or seen_scalable_deserialize_keyed */
  size_t key_len;
} seen_scalable_options;

/* What a scalable filter holds now. Set info->size before the call; only the fields that fit
 * are filled. O(sub-filters). */
typedef struct seen_scalable_info {
  size_t size;
  uint64_t items;          /* distinct keys added (those that changed the filter) */
  uint32_t subfilters;     /* 1..64 */
  uint32_t read_only;      /* 1 for a read-only open */
  uint64_t bytes;          /* blocks of every sub-filter */
  double predicted_fpr;    /* sum of the sub-filters' rates at their loads; <= fpr */
  uint64_t initial_capacity;
  double fpr;
  double growth;
  double tightening;
  uint64_t seed;
} seen_scalable_info;

/* A new filter with one empty sub-filter. SEEN_ERR_INVALID_ARGUMENT names an option out of
 * range (or opts NULL, or opts->size too small). The caller frees *out. */
SEEN_API seen_status seen_scalable_create(const seen_scalable_options* opts,
                                          seen_scalable** out, seen_error* err);
/* NULL is a no-op. */
SEEN_API void seen_scalable_free(seen_scalable* f);

/* Copies the last failure of a call on f into *err (status SEEN_OK and "" if none failed yet).
 * NULL err is a no-op; NULL f gives SEEN_ERR_INVALID_ARGUMENT in *err. Thread-safe. */
SEEN_API void seen_scalable_last_error(const seen_scalable* f, seen_error* err);

/* Batch adds and queries over every sub-filter; out[i] is 1 if key i may have been added.
 * An add past 64 sub-filters returns SEEN_ERR_TOO_LARGE (keys before it stay added).
 * A read-only filter returns SEEN_ERR_READ_ONLY. n == 0 is a no-op. */
SEEN_API seen_status seen_scalable_add_u64(seen_scalable* f, const uint64_t* ids, size_t n);
SEEN_API seen_status seen_scalable_contains_u64(const seen_scalable* f, const uint64_t* ids,
                                                size_t n, uint8_t* out);
SEEN_API seen_status seen_scalable_add_keys(seen_scalable* f, const uint8_t* data,
                                            const uint64_t* offsets, size_t n);
SEEN_API seen_status seen_scalable_contains_keys(const seen_scalable* f, const uint8_t* data,
                                                 const uint64_t* offsets, size_t n,
                                                 uint8_t* out);
/* Single keys. was_present (may be NULL) receives 1 if the key already looked present (then
 * nothing changed), else 0. A key of len 0 is valid. */
SEEN_API seen_status seen_scalable_add_one_u64(seen_scalable* f, uint64_t id,
                                               uint8_t* was_present);
SEEN_API seen_status seen_scalable_add_one_key(seen_scalable* f, const void* key, size_t len,
                                               uint8_t* was_present);
/* 1 if the key may have been added, 0 if not, -1 if f is NULL (or key NULL with len > 0). */
SEEN_API int seen_scalable_contains_one_u64(const seen_scalable* f, uint64_t id);
SEEN_API int seen_scalable_contains_one_key(const seen_scalable* f, const void* key, size_t len);

SEEN_API seen_status seen_scalable_get_info(const seen_scalable* f, seen_scalable_info* info);

/* Serialized form (kind 3 of docs/FORMAT.md), with the buffer rules of seen_bloom_serialize. */
SEEN_API seen_status seen_scalable_serialize(const seen_scalable* f, uint8_t* buf, size_t cap,
                                             size_t* written);
/* A new writable filter copied from buf, after full validation. */
SEEN_API seen_status seen_scalable_deserialize(const uint8_t* buf, size_t len,
                                               seen_scalable** out, seen_error* err);
/* Crash-safe save, like seen_bloom_save. */
SEEN_API seen_status seen_scalable_save(const seen_scalable* f, const char* path);
/* Opens a saved filter. SEEN_OPEN_READ_ONLY maps it and queries in place; adds return
 * SEEN_ERR_READ_ONLY. SEEN_OPEN_PRIVATE_COPY reads a private copy that may grow; the
 * file changes only on the next seen_scalable_save. | SEEN_OPEN_NO_VERIFY skips the payload
 * checksum. */
SEEN_API seen_status seen_scalable_open(const char* path, uint32_t flags, seen_scalable** out,
                                        seen_error* err);
/* A keyed filter's bytes or file, with its key (SEEN_ERR_INCOMPATIBLE for a missing or wrong
 * one). */
SEEN_API seen_status seen_scalable_deserialize_keyed(const uint8_t* buf, size_t len,
                                                     const uint8_t* key, size_t key_len,
                                                     seen_scalable** out, seen_error* err);
SEEN_API seen_status seen_scalable_open_keyed(const char* path, uint32_t flags,
                                              const uint8_t* key, size_t key_len,
                                              seen_scalable** out, seen_error* err);

/* ------------------------------------------------------------------------------------------
 * MinHash near-duplicates (docs/minhash.md): the Jaccard similarity of two texts' shingle
 * sets, from fixed-size sketches, and an LSH index that returns every stored text at or
 * above a similarity threshold, each match verified. Right where SimHash is not: short
 * texts, and texts with an inserted header, footer or advert. Sketching is pure and
 * thread-safe. Thread safety of an index: queries, size, serialize and save may run
 * concurrently with each other (the first after an add settles the tables under a lock);
 * add, remove and free need exclusive access.
 * ---------------------------------------------------------------------------------------- */
typedef struct seen_minhash_index seen_minhash_index;

typedef struct seen_minhash_options {
  size_t size;        /* sizeof(seen_minhash_options); fields past a smaller size default */
  uint32_t bins;      /* K, a power of two in 16..1024; 0 means 128 */
  uint32_t shingle;   /* tokens per shingle (words, or CJK characters), 1..8; 0 means 2 */
  uint64_t seed;
  double threshold;   /* the index's Jaccard threshold, in (0, 1]; 0 means 0.8 */
  const uint8_t* key; /* keyed mode if not NULL: key_len (16..64) secret bytes */
  size_t key_len;
} seen_minhash_options;

/* The sketch of a UTF-8 text: bins (opts->bins of them, 128 by default) into out. opts may
 * be NULL for the defaults. SEEN_ERR_BUFFER_TOO_SMALL if cap is under the bins. */
SEEN_API seen_status seen_minhash_sketch_text(const char* text, size_t len,
                                              const seen_minhash_options* opts, uint32_t* out,
                                              size_t cap, seen_error* err);
/* The Jaccard estimate of two sketches of `bins` bins (0 for an empty text's). */
SEEN_API double seen_minhash_similarity(const uint32_t* a, const uint32_t* b, size_t bins);

SEEN_API seen_status seen_minhash_index_create(const seen_minhash_options* opts,
                                               seen_minhash_index** out, seen_error* err);
SEEN_API void seen_minhash_index_free(seen_minhash_index* index);

/* Copies the last failure of a call on index into *err (status SEEN_OK and "" if none failed yet).
 * NULL err is a no-op; NULL index gives SEEN_ERR_INVALID_ARGUMENT in *err. Thread-safe. */
SEEN_API void seen_minhash_index_last_error(const seen_minhash_index* index, seen_error* err);
/* Adds a text under id, replacing what id held. */
SEEN_API seen_status seen_minhash_index_add_text(seen_minhash_index* index, uint64_t id,
                                                 const char* text, size_t len);
/* *removed (may be NULL) is 1 if id was stored, else 0. */
SEEN_API seen_status seen_minhash_index_remove(seen_minhash_index* index, uint64_t id,
                                               int* removed);
/* Every stored text whose estimated Jaccard similarity to `text` is at least the threshold,
 * most similar first (ties by id): ids[i] and similarities[i] (may be NULL) for
 * i < min(*found, cap). If *found exceeds cap the first cap are written and
 * SEEN_ERR_BUFFER_TOO_SMALL is returned; ids may be NULL when cap is 0 (a count). */
SEEN_API seen_status seen_minhash_index_query_text(const seen_minhash_index* index,
                                                   const char* text, size_t len, uint64_t* ids,
                                                   double* similarities, size_t cap,
                                                   size_t* found);
/* Texts stored, and the bytes the index holds. */
SEEN_API seen_status seen_minhash_index_size(const seen_minhash_index* index, uint64_t* texts,
                                             uint64_t* bytes);

/* Serialized form (kind 7 of docs/FORMAT.md), the same rules as seen_bloom_serialize: the
 * sketch options, the threshold and every stored text's sketch and band entries; removed and
 * replaced texts leave nothing behind. */
SEEN_API seen_status seen_minhash_index_serialize(const seen_minhash_index* index, uint8_t* buf,
                                                  size_t cap, size_t* written);
/* A new writable index copied from buf, after full validation. A keyed index needs its key
 * (key_len bytes; NULL and 0 for an unkeyed one): else SEEN_ERR_INCOMPATIBLE. */
SEEN_API seen_status seen_minhash_index_deserialize(const uint8_t* buf, size_t len,
                                                    const uint8_t* key, size_t key_len,
                                                    seen_minhash_index** out, seen_error* err);
/* Crash-safe save, as seen_bloom_save. */
SEEN_API seen_status seen_minhash_index_save(const seen_minhash_index* index, const char* path);
/* Opens a saved index, with the key rule of seen_minhash_index_deserialize. flags:
 * SEEN_OPEN_READ_ONLY maps the file and queries its tables in place (only the band
 * directories, about bands / 4 bytes per text, are built); adds and removes return
 * SEEN_ERR_READ_ONLY. SEEN_OPEN_PRIVATE_COPY copies the tables into a writable index; the file
 * changes only on the next save. | SEEN_OPEN_NO_VERIFY skips the payload checksum (the tables
 * are still checked, so a damaged file cannot make a query read outside them). */
SEEN_API seen_status seen_minhash_index_open(const char* path, uint32_t flags, const uint8_t* key,
                                             size_t key_len, seen_minhash_index** out,
                                             seen_error* err);

#ifdef __cplusplus
}
#endif

#endif /* SEEN_H */
