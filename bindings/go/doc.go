// Package seen is the Go binding of libseen: blocked Bloom filters that answer "has this
// been seen before?" for integer ids and byte keys, in one cache line per key; exposure
// windows (Window) that remember what one user was shown recently, the last N items or the
// last N seconds; the exposure store (ExposureStore), one window per user for millions of users; and
// SimHash near-duplicate detection: 64-bit fingerprints of Chinese and English text (SimHash,
// FingerprintText) and an index (SimHashIndex) that finds every fingerprint within k bits.
// Two filters handle sets that change: CountingFilter, whose keys can be removed, and
// ScalableFilter, which grows past its initial capacity within a false-positive bound.
//
// Every call goes through libseen's stable C API (seen.h); hashing and layout live only
// there, so a filter or window built here is byte-identical to one built by the C++, Python
// or Java code from the same keys and seed, and each reads the others' files.
//
// One cgo call costs tens of nanoseconds, so hot paths should use the batch methods
// (AddUint64s, TestUint64s, AddKeys, TestKeys; ExposureStore.Filter, Mark and Take), which cross
// into C once per batch.
//
// Windows and stores take the time as `now`, uint32 seconds of the caller's epoch
// (UnixSeconds converts a time.Time), so tests control the clock.
//
// Filters, windows and stores live in C memory or in mapped files. Close frees them; a
// finalizer is only a backstop. Errors are *Error values carrying a Status; compare with
// errors.Is against the Err... statuses or ErrClosed.
package seen
