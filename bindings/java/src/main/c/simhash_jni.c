/* JNI glue for io.seen.NativeSimHash: SimHash fingerprints, IDF tables and the near-duplicate
 * index, translated into seen.h calls and nothing else (see bloom_jni.c for the conventions).
 *
 * No call here pins a Java array. Fingerprinting runs at about 100 MB/s, so one long text
 * pinned by GetPrimitiveArrayCritical would hold the garbage collector off for as long as it
 * takes; and the first index query after an add rebuilds the tables (tens of milliseconds per
 * million pairs) while other queries wait for it. So texts, ids and fingerprints are copied
 * into native memory (Get<Type>ArrayRegion, about 0.1 ns a byte) chunk by chunk, and answers
 * copied back, as store_jni.c does. A failed allocation throws OutOfMemoryError. */
#include <limits.h>
#include <stdlib.h>

#include "jni_batch.h"

#define IDF(h) ((const seen_simhash_idf*)(intptr_t)(h))
#define INDEX(h) ((seen_simhash_index*)(intptr_t)(h))
#define JNI(ret, name) JNIEXPORT ret JNICALL Java_io_seen_NativeSimHash_##name

JNI_LAST_ERROR(seen_simhash_index)

/* Texts per batch chunk, and the bytes a chunk copies at most (unless one text is longer). */
enum { TEXT_CHUNK = KEY_CHUNK, TEXT_CHUNK_BYTES = 1 << 20 };
/* Matches of one query held on the stack before a larger query mallocs. */
enum { QUERY_STACK = 64 };
/* The largest Java array. */
#define MAX_JAVA_ARRAY (INT_MAX - 8)

static const char OOM[] = "seen: no native memory for a SimHash call";

static seen_simhash_options text_options(jint ngram, jlong seed, jlong idf) {
  seen_simhash_options o;
  memset(&o, 0, sizeof o);
  o.size = sizeof o;
  o.ngram = (uint32_t)ngram;
  o.seed = (uint64_t)seed;
  o.idf = IDF(idf);
  return o;
}

/* A native copy of the elements off .. off+len of a primitive array whose elements are
 * elem_size bytes, or NULL with an exception pending (an out-of-range slice throws, as JNI's
 * Get<Type>ArrayRegion would). One function for every element type: a critical section reads
 * any of them alike. */
static void* copy_elements(JNIEnv* env, jarray a, jint off, jint len, size_t elem_size) {
  if (off < 0 || len < 0 || off > (*env)->GetArrayLength(env, a) - len) {
    throw_class(env, "java/lang/ArrayIndexOutOfBoundsException", "seen: slice outside the array");
    return NULL;
  }
  uint8_t* p = alloc_or_throw(env, (size_t)len * elem_size, OOM);
  const uint8_t* src = p == NULL ? NULL : (*env)->GetPrimitiveArrayCritical(env, a, NULL);
  if (src == NULL) {
    free(p);
    return NULL;
  }
  memcpy(p, src + (size_t)off * elem_size, (size_t)len * elem_size);
  (*env)->ReleasePrimitiveArrayCritical(env, a, (void*)src, JNI_ABORT);
  return p;
}

static uint8_t* copy_bytes(JNIEnv* env, jbyteArray a, jint off, jint len) {
  return copy_elements(env, a, off, len, 1);
}

static uint64_t* copy_longs(JNIEnv* env, jlongArray a, jint off, jint len) {
  return copy_elements(env, a, off, len, sizeof(uint64_t));
}

/* Weights w[off .. off+len), or NULL (all 1) when w is NULL; *failed is set on an exception. */
static float* copy_weights(JNIEnv* env, jfloatArray w, jint off, jint len, int* failed) {
  float* p = w == NULL ? NULL : copy_elements(env, w, off, len, sizeof(float));
  *failed = w != NULL && p == NULL;
  return p;
}

/* The byte strings first .. first+count of data + int offsets (validated by Java), copied:
 * *data_out and the widened, rebased offsets in *offsets_out (count + 1). */
static int copy_strings(JNIEnv* env, jbyteArray data, jintArray offsets, jint first, jint count,
                        uint8_t** data_out, uint64_t** offsets_out) {
  jint* narrow = alloc_or_throw(env, ((size_t)count + 1) * sizeof *narrow, OOM);
  if (narrow == NULL) return 0;
  (*env)->GetIntArrayRegion(env, offsets, first, count + 1, narrow);
  uint64_t* wide = NULL;
  uint8_t* bytes = NULL;
  if (!(*env)->ExceptionCheck(env)) {
    wide = alloc_or_throw(env, ((size_t)count + 1) * sizeof *wide, OOM);
  }
  if (wide != NULL) {
    for (jint i = 0; i <= count; i++) wide[i] = (uint64_t)(narrow[i] - narrow[0]);
    bytes = copy_bytes(env, data, narrow[0], narrow[count] - narrow[0]);
  }
  free(narrow);
  if (bytes == NULL) {
    free(wide);
    return 0;
  }
  *data_out = bytes;
  *offsets_out = wide;
  return 1;
}

JNI(jint, distance)(JNIEnv* env, jclass cls, jlong a, jlong b) {
  return (jint)seen_simhash_distance((uint64_t)a, (uint64_t)b);
}

/* out: simhash, exact_high, exact_low, features. */
JNI(jint, text)(JNIEnv* env, jclass cls, jbyteArray text, jint off, jint len, jint ngram,
                jlong seed, jlong idf, jlongArray out) {
  uint8_t* p = copy_bytes(env, text, off, len);
  if (p == NULL) return JAVA_EXCEPTION_PENDING;
  seen_simhash_options o = text_options(ngram, seed, idf);
  seen_simhash_fingerprint fp = {.size = sizeof fp};
  seen_error err;
  seen_status s = seen_simhash_text((const char*)p, (size_t)len, &o, &fp, &err);
  free(p);
  if (s != SEEN_OK) return checked(env, s, &err);
  jlong v[4] = {(jlong)fp.simhash, (jlong)fp.exact_high, (jlong)fp.exact_low, (jlong)fp.features};
  (*env)->SetLongArrayRegion(env, out, 0, 4, v);
  return SEEN_OK;
}

/* Texts first .. first+count of data + int offsets (validated by Java): simhashes from
 * simhashes[out_off], and when exact is not NULL the exact halves from exact[2 * out_off].
 * Each chunk is at most TEXT_CHUNK texts and TEXT_CHUNK_BYTES bytes (or one longer text). */
JNI(jint, textBatch)(JNIEnv* env, jclass cls, jbyteArray data, jintArray offsets, jint first,
                     jint count, jint ngram, jlong seed, jlong idf, jlongArray simhashes,
                     jint out_off, jlongArray exact) {
  seen_simhash_options o = text_options(ngram, seed, idf);
  jint narrow[TEXT_CHUNK + 1];
  uint64_t wide[TEXT_CHUNK + 1];
  uint64_t sims[TEXT_CHUNK];
  uint64_t halves[2 * TEXT_CHUNK];
  uint8_t* buf = NULL;
  size_t buf_cap = 0;
  seen_status s = SEEN_OK;
  seen_error err;
  for (jint done = 0; done < count && s == SEEN_OK;) {
    jint n = count - done < TEXT_CHUNK ? count - done : TEXT_CHUNK;
    (*env)->GetIntArrayRegion(env, offsets, first + done, n + 1, narrow);
    if ((*env)->ExceptionCheck(env)) break;
    while (n > 1 && narrow[n] - narrow[0] > TEXT_CHUNK_BYTES) n--;
    size_t bytes = (size_t)(narrow[n] - narrow[0]);
    if (bytes > buf_cap || buf == NULL) {
      free(buf);
      buf_cap = bytes > TEXT_CHUNK_BYTES ? bytes : TEXT_CHUNK_BYTES;
      buf = alloc_or_throw(env, buf_cap, OOM);
      if (buf == NULL) break;
    }
    (*env)->GetByteArrayRegion(env, data, narrow[0], (jsize)bytes, (jbyte*)buf);
    if ((*env)->ExceptionCheck(env)) break;
    for (jint i = 0; i <= n; i++) wide[i] = (uint64_t)(narrow[i] - narrow[0]);
    s = seen_simhash_text_batch(buf, wide, (size_t)n, &o, sims, exact == NULL ? NULL : halves, &err);
    if (s != SEEN_OK) break;
    (*env)->SetLongArrayRegion(env, simhashes, out_off + done, n, (const jlong*)sims);
    if (exact != NULL) {
      (*env)->SetLongArrayRegion(env, exact, 2 * (out_off + done), 2 * n, (const jlong*)halves);
    }
    if ((*env)->ExceptionCheck(env)) break;
    done += n;
  }
  free(buf);
  return (*env)->ExceptionCheck(env) ? JAVA_EXCEPTION_PENDING : checked(env, s, &err);
}

/* The fingerprint of hashes[off .. off+len) with weights[off ..] (NULL: all 1) to out[0]. */
JNI(jint, hashes)(JNIEnv* env, jclass cls, jlongArray hashes, jfloatArray weights, jint off,
                  jint len, jlongArray out) {
  uint64_t* h = copy_longs(env, hashes, off, len);
  if (h == NULL) return JAVA_EXCEPTION_PENDING;
  int failed;
  float* w = copy_weights(env, weights, off, len, &failed);
  if (failed) {
    free(h);
    return JAVA_EXCEPTION_PENDING;
  }
  uint64_t fp = 0;
  seen_error err;
  seen_status s = seen_simhash_hashes(h, w, (size_t)len, &fp, &err);
  free(w);
  free(h);
  if (s == SEEN_OK) (*env)->SetLongArrayRegion(env, out, 0, 1, (const jlong*)&fp);
  return checked(env, s, &err);
}

/* The fingerprint of byte features first .. first+count, weights[0 .. count) (NULL: all 1),
 * to out[0]; hashed under key unless it is NULL, else with seed. */
JNI(jint, strings)(JNIEnv* env, jclass cls, jbyteArray data, jintArray offsets, jint first,
                   jint count, jfloatArray weights, jlong seed, jbyteArray key, jlongArray out) {
  uint8_t* bytes;
  uint64_t* wide;
  if (!copy_strings(env, data, offsets, first, count, &bytes, &wide)) return JAVA_EXCEPTION_PENDING;
  int failed;
  float* w = copy_weights(env, weights, 0, count, &failed);
  call_key k = {NULL, NULL, 0};
  if (!failed) {  /* no JNI call may follow a pending exception */
    k = key_open(env, key);
    failed = key_failed(&k);
  }
  seen_status s = SEEN_OK;
  uint64_t fp = 0;
  seen_error err;
  if (!failed) {
    s = k.bytes == NULL ? seen_simhash_strings(bytes, wide, w, (size_t)count, (uint64_t)seed,
                                               &fp, &err)
                        : seen_simhash_strings_keyed(bytes, wide, w, (size_t)count,
                                                     (uint64_t)seed, (const uint8_t*)k.bytes,
                                                     k.len, &fp, &err);
  }
  key_close(env, &k);
  free(w);
  free(wide);
  free(bytes);
  if (failed) return JAVA_EXCEPTION_PENDING;
  if (s == SEEN_OK) (*env)->SetLongArrayRegion(env, out, 0, 1, (const jlong*)&fp);
  return checked(env, s, &err);
}

/* The handle goes to out[0]. */
JNI(jint, idfCreate)(JNIEnv* env, jclass cls, jbyteArray data, jintArray offsets, jint count,
                     jfloatArray weights, jfloat default_weight, jlongArray out) {
  uint8_t* bytes;
  uint64_t* wide;
  if (!copy_strings(env, data, offsets, 0, count, &bytes, &wide)) return JAVA_EXCEPTION_PENDING;
  int failed;
  float* w = copy_weights(env, weights, 0, count, &failed);
  seen_simhash_idf* idf = NULL;
  seen_status s = SEEN_OK;
  seen_error err;
  if (!failed) s = seen_simhash_idf_create(bytes, wide, w, (size_t)count, default_weight, &idf, &err);
  free(w);
  free(wide);
  free(bytes);
  if (failed) return JAVA_EXCEPTION_PENDING;
  return handle_out(env, out, s, idf, &err);
}

JNI(void, idfFree)(JNIEnv* env, jclass cls, jlong h) {
  seen_simhash_idf_free((seen_simhash_idf*)(intptr_t)h);
}

/* ---- the index ---- */

JNI(jint, indexCreate)(JNIEnv* env, jclass cls, jint max_k, jlongArray out) {
  seen_simhash_index* index = NULL;
  seen_error err;
  seen_status s = seen_simhash_index_create((uint32_t)max_k, &index, &err);
  return handle_out(env, out, s, index, &err);
}

JNI(void, indexFree)(JNIEnv* env, jclass cls, jlong h) {
  seen_simhash_index_free(INDEX(h));
}

JNI(jint, addOne)(JNIEnv* env, jclass cls, jlong h, jlong id, jlong fp) {
  uint64_t f = (uint64_t)fp, i = (uint64_t)id;
  return seen_simhash_index_add(INDEX(h), &f, &i, 1);
}

JNI(jint, add)(JNIEnv* env, jclass cls, jlong h, jlongArray ids, jlongArray fps, jint off,
               jint len) {
  jint chunk = len < ID_CHUNK ? len : ID_CHUNK;
  uint64_t* buf = alloc_or_throw(env, (size_t)chunk * 2 * sizeof *buf, OOM);
  if (buf == NULL) return JAVA_EXCEPTION_PENDING;
  seen_status s = SEEN_OK;
  for (jint done = 0; done < len && s == SEEN_OK; done += ID_CHUNK) {
    jint n = len - done < ID_CHUNK ? len - done : ID_CHUNK;
    (*env)->GetLongArrayRegion(env, ids, off + done, n, (jlong*)buf);
    (*env)->GetLongArrayRegion(env, fps, off + done, n, (jlong*)(buf + chunk));
    if ((*env)->ExceptionCheck(env)) break;
    s = seen_simhash_index_add(INDEX(h), buf + chunk, buf, (size_t)n);
  }
  free(buf);
  return (*env)->ExceptionCheck(env) ? JAVA_EXCEPTION_PENDING : (jint)s;
}

/* The pairs removed, or below 0 the negated status. A removal costs O(size), so the ids go
 * to the C API in one call, not in chunks. */
JNI(jlong, remove)(JNIEnv* env, jclass cls, jlong h, jlongArray ids, jint off, jint len) {
  uint64_t* p = copy_longs(env, ids, off, len);
  if (p == NULL) return JAVA_EXCEPTION_PENDING;
  uint64_t removed = 0;
  seen_status s = seen_simhash_index_remove(INDEX(h), p, (size_t)len, &removed);
  free(p);
  return s == SEEN_OK ? (jlong)removed : -(jlong)s;
}

JNI(jint, build)(JNIEnv* env, jclass cls, jlong h) {
  return seen_simhash_index_build(INDEX(h));
}

/* The number of matches within k (written: the first min(found, cap) to ids and distances),
 * or below 0 the negated status. */
JNI(jlong, query)(JNIEnv* env, jclass cls, jlong h, jlong fp, jint k, jlongArray ids,
                  jintArray distances, jint cap) {
  uint64_t stack_ids[QUERY_STACK];
  uint32_t stack_d[QUERY_STACK];
  uint64_t* id_buf = stack_ids;
  uint32_t* d_buf = stack_d;
  if (cap > QUERY_STACK) {
    id_buf = alloc_or_throw(env, (size_t)cap * (sizeof *id_buf + sizeof *d_buf), OOM);
    if (id_buf == NULL) return JAVA_EXCEPTION_PENDING;
    d_buf = (uint32_t*)(id_buf + cap);
  }
  size_t found = 0;
  seen_status s = seen_simhash_index_query(INDEX(h), (uint64_t)fp, (uint32_t)k, id_buf, d_buf,
                                           (size_t)cap, &found);
  if (s == SEEN_OK || s == SEEN_ERR_BUFFER_TOO_SMALL) {
    jint written = found < (size_t)cap ? (jint)found : cap;
    (*env)->SetLongArrayRegion(env, ids, 0, written, (const jlong*)id_buf);
    (*env)->SetIntArrayRegion(env, distances, 0, written, (const jint*)d_buf);
    s = SEEN_OK;
  }
  if (id_buf != stack_ids) free(id_buf);
  if ((*env)->ExceptionCheck(env)) return JAVA_EXCEPTION_PENDING;
  return s == SEEN_OK ? (jlong)found : -(jlong)s;
}

/* 1 if a pair lies within k of fp, 0 if none, below 0 the negated status. */
JNI(jint, anyOne)(JNIEnv* env, jclass cls, jlong h, jlong fp, jint k) {
  uint64_t f = (uint64_t)fp;
  uint8_t found = 0;
  seen_status s = seen_simhash_index_any(INDEX(h), &f, 1, (uint32_t)k, &found);
  return s == SEEN_OK ? found : -(jint)s;
}

/* The index and k of an any batch, for its chunks. */
typedef struct {
  seen_simhash_index* index;
  uint32_t k;
} any_batch;

static seen_status any_chunk(void* ctx, const uint64_t* fps, size_t n, uint8_t* found) {
  const any_batch* b = ctx;
  return seen_simhash_index_any(b->index, fps, n, b->k, found);
}

JNI(jint, any)(JNIEnv* env, jclass cls, jlong h, jlongArray fps, jint off, jint len, jint k,
               jbooleanArray out, jint out_off) {
  any_batch b = {INDEX(h), (uint32_t)k};
  return copied_ids_batch(env, fps, off, len, out, out_off, OOM, any_chunk, &b);
}

/* Every match of fps[off .. off+len) in one C call: out[0] = int[len + 1] offsets,
 * out[1] = long[] ids, out[2] = int[] distances, made here at their exact sizes. */
JNI(jint, queryBatch)(JNIEnv* env, jclass cls, jlong h, jlongArray fps, jint off, jint len,
                      jint k, jobjectArray out) {
  uint64_t* q = copy_longs(env, fps, off, len);
  if (q == NULL) return JAVA_EXCEPTION_PENDING;
  uint64_t* offsets = alloc_or_throw(env, ((size_t)len + 1) * sizeof *offsets, OOM);
  size_t cap = 2 * (size_t)len + 64; /* most queries find 0 or 1: one pass, seldom two */
  uint64_t* ids = NULL;
  seen_status s = SEEN_ERR_NO_MEMORY;
  for (int pass = 0; pass < 2 && offsets != NULL; pass++) {
    ids = alloc_or_throw(env, cap * (sizeof *ids + sizeof(uint32_t)), OOM);
    if (ids == NULL) break;
    s = seen_simhash_index_query_batch(INDEX(h), q, (size_t)len, (uint32_t)k, offsets, ids,
                                       (uint32_t*)(ids + cap), cap);
    if (s != SEEN_ERR_BUFFER_TOO_SMALL) break;
    /* Writers need exclusive access, so the second pass finds exactly offsets[len]. */
    cap = (size_t)offsets[len];
    free(ids);
    ids = NULL;
    if (cap > MAX_JAVA_ARRAY) {
      throw_class(env, "java/lang/IllegalStateException",
                  "seen: the matches of this batch do not fit a Java array: split it");
      break;
    }
  }
  if (s == SEEN_OK && !(*env)->ExceptionCheck(env)) {
    jint total = (jint)offsets[len];
    jintArray jo = (*env)->NewIntArray(env, len + 1);
    jlongArray ji = jo == NULL ? NULL : (*env)->NewLongArray(env, total);
    jintArray jd = ji == NULL ? NULL : (*env)->NewIntArray(env, total);
    if (jd != NULL) {
      /* offsets are at most total, so they fit an int; narrowed in place. */
      jint* narrow = (jint*)offsets;
      for (jint i = 0; i <= len; i++) narrow[i] = (jint)offsets[i];
      (*env)->SetIntArrayRegion(env, jo, 0, len + 1, narrow);
      (*env)->SetLongArrayRegion(env, ji, 0, total, (const jlong*)ids);
      (*env)->SetIntArrayRegion(env, jd, 0, total, (const jint*)(ids + cap));
      (*env)->SetObjectArrayElement(env, out, 0, jo);
      (*env)->SetObjectArrayElement(env, out, 1, ji);
      (*env)->SetObjectArrayElement(env, out, 2, jd);
    }
  }
  free(ids);
  free(offsets);
  free(q);
  return (*env)->ExceptionCheck(env) ? JAVA_EXCEPTION_PENDING : (jint)s;
}

/* All-pairs clustering: out[0] = long[] ids, out[1] = int[] groups, one per pair. */
JNI(jint, clusters)(JNIEnv* env, jclass cls, jlong h, jint k, jobjectArray out) {
  size_t count = 0;
  seen_status s = seen_simhash_index_clusters(INDEX(h), (uint32_t)k, NULL, NULL, 0, &count);
  if (s != SEEN_OK && s != SEEN_ERR_BUFFER_TOO_SMALL) return s;
  if (count > MAX_JAVA_ARRAY) {
    throw_class(env, "java/lang/IllegalStateException",
                "seen: the index holds more pairs than a Java array");
    return JAVA_EXCEPTION_PENDING;
  }
  uint64_t* ids = alloc_or_throw(env, count * (sizeof *ids + sizeof(uint32_t)), OOM);
  if (ids == NULL) return JAVA_EXCEPTION_PENDING;
  uint32_t* groups = (uint32_t*)(ids + count);
  size_t written = 0;
  s = count == 0 ? SEEN_OK
                 : seen_simhash_index_clusters(INDEX(h), (uint32_t)k, ids, groups, count, &written);
  if (s == SEEN_OK) {
    jlongArray ji = (*env)->NewLongArray(env, (jsize)count);
    jintArray jg = ji == NULL ? NULL : (*env)->NewIntArray(env, (jsize)count);
    if (jg != NULL) {
      (*env)->SetLongArrayRegion(env, ji, 0, (jsize)count, (const jlong*)ids);
      (*env)->SetIntArrayRegion(env, jg, 0, (jsize)count, (const jint*)groups);
      (*env)->SetObjectArrayElement(env, out, 0, ji);
      (*env)->SetObjectArrayElement(env, out, 1, jg);
    }
  }
  free(ids);
  return (*env)->ExceptionCheck(env) ? JAVA_EXCEPTION_PENDING : (jint)s;
}

/* out: count, max_k, read_only, bytes. */
JNI(jint, info)(JNIEnv* env, jclass cls, jlong h, jlongArray out) {
  seen_simhash_index_info info = {.size = sizeof info};
  seen_status s = seen_simhash_index_get_info(INDEX(h), &info);
  if (s != SEEN_OK) return s;
  jlong v[4] = {(jlong)info.count, info.max_k, info.read_only, (jlong)info.bytes};
  (*env)->SetLongArrayRegion(env, out, 0, 4, v);
  return SEEN_OK;
}

/* Bytes needed to serialize, or -status. */
JNI(jlong, serializedSize)(JNIEnv* env, jclass cls, jlong h) {
  size_t written = 0;
  seen_status s = seen_simhash_index_serialize(INDEX(h), NULL, 0, &written);
  return s == SEEN_OK ? (jlong)written : -(jlong)s;
}

/* Serializes into native memory, then copies: queries may wait on a rebuild. */
JNI(jint, serialize)(JNIEnv* env, jclass cls, jlong h, jbyteArray out) {
  jsize cap = (*env)->GetArrayLength(env, out);
  uint8_t* p = alloc_or_throw(env, (size_t)cap, OOM);
  if (p == NULL) return JAVA_EXCEPTION_PENDING;
  size_t written = 0;
  seen_status s = seen_simhash_index_serialize(INDEX(h), p, (size_t)cap, &written);
  if (s == SEEN_OK) (*env)->SetByteArrayRegion(env, out, 0, (jsize)written, (const jbyte*)p);
  free(p);
  return (*env)->ExceptionCheck(env) ? JAVA_EXCEPTION_PENDING : (jint)s;
}

JNI(jint, deserialize)(JNIEnv* env, jclass cls, jbyteArray buf, jint len, jlongArray out) {
  uint8_t* p = copy_bytes(env, buf, 0, len);
  if (p == NULL) return JAVA_EXCEPTION_PENDING;
  seen_simhash_index* index = NULL;
  seen_error err;
  seen_status s = seen_simhash_index_deserialize(p, (size_t)len, &index, &err);
  free(p);
  return handle_out(env, out, s, index, &err);
}

JNI(jint, save)(JNIEnv* env, jclass cls, jlong h, jbyteArray path) {
  jbyte* p = (*env)->GetByteArrayElements(env, path, NULL);
  if (p == NULL) return JAVA_EXCEPTION_PENDING;
  seen_status s = seen_simhash_index_save(INDEX(h), (const char*)p);
  (*env)->ReleaseByteArrayElements(env, path, p, JNI_ABORT);
  return s;
}

JNI(jint, open)(JNIEnv* env, jclass cls, jbyteArray path, jint flags, jlongArray out) {
  jbyte* p = (*env)->GetByteArrayElements(env, path, NULL);
  if (p == NULL) return JAVA_EXCEPTION_PENDING;
  seen_simhash_index* opened = NULL;
  seen_error err;
  seen_status s = seen_simhash_index_open((const char*)p, (uint32_t)flags, &opened, &err);
  (*env)->ReleaseByteArrayElements(env, path, p, JNI_ABORT);
  return handle_out(env, out, s, opened, &err);
}

JNI(jint, addDirect)(JNIEnv* env, jclass cls, jlong h, jobject ids, jlong ids_pos, jobject fps,
                     jlong fps_pos, jlong n) {
  return seen_simhash_index_add(INDEX(h), (const uint64_t*)direct(env, fps, fps_pos),
                                (const uint64_t*)direct(env, ids, ids_pos), (size_t)n);
}

JNI(jint, anyDirect)(JNIEnv* env, jclass cls, jlong h, jobject fps, jlong pos, jlong n, jint k,
                     jobject out, jlong out_pos) {
  return seen_simhash_index_any(INDEX(h), (const uint64_t*)direct(env, fps, pos), (size_t)n,
                                (uint32_t)k, direct(env, out, out_pos));
}
