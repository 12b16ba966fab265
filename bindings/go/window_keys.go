package seen

import (
	"fmt"
	"unsafe"
)

// Adds and tests of a Window, at clock `now`. Keys are the BloomFilter's: an id is the key of
// its 8 little-endian bytes, a string the key of its UTF-8 bytes, the empty key is valid.
// The single-key calls cross into C once each; the batches once per batch.

// Add records that key was shown at now.
func (w *Window) Add(key []byte, now uint32) error { return w.addBytes(bytesPtr(key), len(key), now) }

// AddString records the UTF-8 bytes of key.
func (w *Window) AddString(key string, now uint32) error {
	return w.addBytes(stringPtr(key), len(key), now)
}

// AddUint64 records an integer id.
func (w *Window) AddUint64(id uint64, now uint32) error {
	return withLive(w.live, func(h *windowHandle) error {
		return cWindowAddOneU64(h.c, id, now)
	})
}

// Test reports whether key may be in the window at now: true for every key of the
// guaranteed span, false for one never added but for the false-positive rate. Every uint32
// now is valid, so it cannot fail on an open Window, and panics on a closed one.
func (w *Window) Test(key []byte, now uint32) bool { return w.testBytes(bytesPtr(key), len(key), now) }

// TestString is Test for a string key.
func (w *Window) TestString(key string, now uint32) bool {
	return w.testBytes(stringPtr(key), len(key), now)
}

// TestUint64 is Test for an integer id.
func (w *Window) TestUint64(id uint64, now uint32) bool {
	return testOn(w.live, func(h *windowHandle) bool { return cWindowTestOneU64(h.c, id, now) })
}

func (w *Window) addBytes(key unsafe.Pointer, n int, now uint32) error {
	return withLive(w.live, func(h *windowHandle) error {
		return cWindowAddOneKey(h.c, key, n, now)
	})
}

func (w *Window) testBytes(key unsafe.Pointer, n int, now uint32) bool {
	return testOn(w.live, func(h *windowHandle) bool { return cWindowTestOneKey(h.c, key, n, now) })
}

// AddUint64s records every id, in order (in a count window, the last ones are the newest).
func (w *Window) AddUint64s(ids []uint64, now uint32) error {
	return withLive(w.live, func(h *windowHandle) error {
		return cWindowAddU64(h.c, ids, now)
	})
}

// TestUint64s sets out[i] to TestUint64 of ids[i], for every i < len(ids). out must be at
// least as long as ids.
func (w *Window) TestUint64s(ids []uint64, now uint32, out []bool) error {
	return withLive(w.live, func(h *windowHandle) error {
		if len(out) < len(ids) {
			return invalid(fmt.Sprintf("out has %d elements for %d ids", len(out), len(ids)))
		}
		return cWindowContainsU64(h.c, ids, now, boolsPtr(out))
	})
}

// AddKeys records every key of a batch, in order.
func (w *Window) AddKeys(keys Keys, now uint32) error {
	return withLive(w.live, func(h *windowHandle) error {
		if err := keys.validate(); err != nil || keys.Len() == 0 {
			return err
		}
		return cWindowAddKeys(h.c, keys.Data, keys.Offsets, now)
	})
}

// TestKeys sets out[i] to Test of key i, for every key of the batch. out must be at least
// keys.Len() long.
func (w *Window) TestKeys(keys Keys, now uint32, out []bool) error {
	return withLive(w.live, func(h *windowHandle) error {
		if err := keys.validate(); err != nil || keys.Len() == 0 {
			return err
		}
		if len(out) < keys.Len() {
			return invalid(fmt.Sprintf("out has %d elements for %d keys", len(out), keys.Len()))
		}
		return cWindowContainsKeys(h.c, keys.Data, keys.Offsets, now, boolsPtr(out))
	})
}

// AddStrings records every string, packed into one Keys batch.
func (w *Window) AddStrings(keys []string, now uint32) error {
	return w.AddKeys(PackStrings(keys), now)
}

// TestStrings sets out[i] to TestString of keys[i], through one Keys batch.
func (w *Window) TestStrings(keys []string, now uint32, out []bool) error {
	return w.TestKeys(PackStrings(keys), now, out)
}
