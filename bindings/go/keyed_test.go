package seen

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
)

var (
	testKey  = []byte("0123456789abcdef")
	otherKey = []byte("0123456789abcdeg")
	shortKey = []byte("01234567")
)

// A keyed filter finds every key it holds, reads keys never added as present at about the
// target rate, and its bytes and file open only with its key.
func TestKeyedFilter(t *testing.T) {
	f, err := NewKeyed(20000, 0.01, testKey)
	must(t, err)
	defer f.Close()
	if p := f.Params(); !p.Keyed || p.Seed != 0 {
		t.Errorf("a keyed filter's Params say Keyed %v, Seed %d", p.Keyed, p.Seed)
	}
	present := 0
	for i := uint64(0); i < 20000; i++ {
		must(t, f.AddUint64(i))
	}
	for i := uint64(0); i < 20000; i++ {
		if !f.TestUint64(i) {
			t.Fatalf("key %d was added but is not found", i)
		}
		if f.TestUint64(1e9 + i) {
			present++
		}
	}
	// 1% of 20,000 is 200 +- 14: 260 is four standard deviations.
	if present >= 260 {
		t.Errorf("%d false positives in 20,000", present)
	}
	data, err := f.MarshalBinary()
	must(t, err)
	var plain BloomFilter
	if err := plain.UnmarshalBinary(data); !errors.Is(err, ErrIncompatible) {
		t.Errorf("unmarshal without the key: %v, want ErrIncompatible", err)
	}
	if _, err := UnmarshalKeyed(data, otherKey); !errors.Is(err, ErrIncompatible) {
		t.Errorf("unmarshal with another key: %v, want ErrIncompatible", err)
	}
	g, err := UnmarshalKeyed(data, testKey)
	must(t, err)
	defer g.Close()
	if !g.TestUint64(19999) {
		t.Error("the copy lost a key")
	}
	path := filepath.Join(t.TempDir(), "keyed.seen")
	must(t, f.Save(path))
	if _, err := Open(path, true); !errors.Is(err, ErrIncompatible) {
		t.Errorf("open without the key: %v, want ErrIncompatible", err)
	}
	h, err := OpenKeyed(path, true, testKey)
	must(t, err)
	defer h.Close()
	if !h.TestUint64(7) {
		t.Error("the opened file lost a key")
	}
	if !h.Params().Keyed || newFilter(t, 10, 0.01).Params().Keyed {
		t.Error("Params().Keyed does not follow the file's keying")
	}
	if _, err := NewKeyed(10, 0.01, shortKey); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("a short key: %v, want ErrInvalidArgument", err)
	}
}

// A keyed filter's copy keeps the key: it finds the original's keys, takes adds of its own
// and equals the original until then (bytes alone would not open without the key).
func TestKeyedFilterCopy(t *testing.T) {
	f, err := NewKeyed(1000, 0.01, testKey)
	must(t, err)
	defer f.Close()
	must(t, f.AddString("a"))
	checkCopyIsEqualAndIndependent(t, f,
		func(c *BloomFilter) error { return c.AddString("b") },
		func(c *BloomFilter) bool { return c.TestString("b") })
}

// checkKeyAbsent fails if the key's bytes appear anywhere in data: a keyed file records only
// a check value of its key.
func checkKeyAbsent(t *testing.T, data []byte) {
	t.Helper()
	if at := bytes.Index(data, testKey); at >= 0 {
		t.Fatalf("the key is in the serialized bytes at %d", at)
	}
}

// checkIncompatible fails unless err is ErrIncompatible with a message saying more.
func checkIncompatible(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, ErrIncompatible) {
		t.Fatalf("%s: %v, want ErrIncompatible", what, err)
	}
	if err.Error() == ErrIncompatible.Error() {
		t.Errorf("%s: the error %q says no more than its status", what, err)
	}
}

func TestKeyedFilterBytesHideTheKey(t *testing.T) {
	f, err := NewKeyed(1000, 0.01, testKey)
	must(t, err)
	defer f.Close()
	data, err := f.MarshalBinary()
	must(t, err)
	checkKeyAbsent(t, data)
}

// keyedFilter is what checkKeyedFilter uses of a counting or scalable filter.
type keyedFilter interface {
	AddUint64(uint64) error
	TestUint64(uint64) bool
	MarshalBinary() ([]byte, error)
	Save(string) error
	Close() error
}

// keyedKind reads one kind's bytes with a key, and its files without one (which must fail)
// and with one; its bytes without a key are read by UnmarshalBinary.
type keyedKind[F keyedFilter] struct {
	unmarshalKeyed func(data, key []byte) (F, error)
	openPlain      func(path string, readOnly bool) (F, error)
	openKeyed      func(path string, readOnly bool, key []byte) (F, error)
}

// checkKeyedFilter adds n ids to a keyed filter f and checks that it finds them at about the
// target rate, and that its bytes and file open only with its key, then find everything; then
// that a short key is refused (by newKeyed) and that f's copy keeps the key.
func checkKeyedFilter[T any, F interface {
	*T
	keyedFilter
	copyAndEqual[F]
	UnmarshalBinary([]byte) error
	AddString(string) error
	TestString(string) bool
}](t *testing.T, f F, n uint64, kind keyedKind[F], newKeyed func(key []byte) (F, error)) {
	t.Helper()
	for i := uint64(0); i < n; i++ {
		must(t, f.AddUint64(i))
	}
	present := 0
	for i := uint64(0); i < n; i++ {
		if !f.TestUint64(i) {
			t.Fatalf("key %d was added but is not found", i)
		}
		if f.TestUint64(1e9 + i) {
			present++
		}
	}
	// 1% of 5,000 is 50 +- 7: 80 is four standard deviations.
	if present >= 80 {
		t.Errorf("%d false positives in %d", present, n)
	}
	findsAll := func(what string, g F, err error) {
		t.Helper()
		must(t, err)
		defer g.Close()
		for i := uint64(0); i < n; i++ {
			if !g.TestUint64(i) {
				t.Fatalf("%s lost key %d", what, i)
			}
		}
	}
	data, err := f.MarshalBinary()
	must(t, err)
	checkKeyAbsent(t, data)
	var plain T
	checkIncompatible(t, "unmarshal without the key", F(&plain).UnmarshalBinary(data))
	_, err = kind.unmarshalKeyed(data, otherKey)
	checkIncompatible(t, "unmarshal with another key", err)
	g, err := kind.unmarshalKeyed(data, testKey)
	findsAll("the unmarshaled filter", g, err)

	path := filepath.Join(t.TempDir(), "keyed.seen")
	must(t, f.Save(path))
	_, err = kind.openPlain(path, true)
	checkIncompatible(t, "open without the key", err)
	_, err = kind.openKeyed(path, true, otherKey)
	checkIncompatible(t, "open with another key", err)
	h, err := kind.openKeyed(path, true, testKey)
	findsAll("the opened file", h, err)
	if _, err := newKeyed(shortKey); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("a short key: %v, want ErrInvalidArgument", err)
	}
	checkCopyIsEqualAndIndependent(t, f,
		func(c F) error { return c.AddString("not among the ids") },
		func(c F) bool { return c.TestString("not among the ids") })
}

// A keyed counting filter finds what it holds; its bytes and file open only with its key,
// then find everything; its copy keeps the key.
func TestKeyedCountingFilter(t *testing.T) {
	f, err := NewCountingKeyed(5000, 0.01, testKey)
	must(t, err)
	defer f.Close()
	checkKeyedFilter(t, f, 5000, keyedKind[*CountingFilter]{UnmarshalCountingKeyed, OpenCounting, OpenCountingKeyed},
		func(key []byte) (*CountingFilter, error) { return NewCountingKeyed(10, 0.01, key) })
}

// The same for a keyed scalable filter, grown past its first sub-filter so that every
// sub-filter is checked; a missing key is refused too (nil would otherwise mean no key).
func TestKeyedScalableFilter(t *testing.T) {
	opts := ScalableOptions{InitialCapacity: 100, FPR: 0.01}
	f, err := NewScalableKeyed(opts, testKey)
	must(t, err)
	defer f.Close()
	newKeyed := func(key []byte) (*ScalableFilter, error) { return NewScalableKeyed(opts, key) }
	checkKeyedFilter(t, f, 5000, keyedKind[*ScalableFilter]{UnmarshalScalableKeyed, OpenScalable, OpenScalableKeyed},
		newKeyed)
	if f.SubFilters() < 2 {
		t.Fatalf("%d sub-filters after 5,000 keys, want growth", f.SubFilters())
	}
	for _, key := range [][]byte{nil, {}} {
		if _, err := newKeyed(key); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("key %q: %v, want ErrInvalidArgument", key, err)
		}
	}
}

// The keyed opens and unmarshals of every filter refuse a missing or malformed key with
// ErrInvalidArgument, even for a plain filter's file or bytes, which they would otherwise
// read as plain: a caller who meant to pass a key never gets an unkeyed filter.
func TestKeyedFilterReadsRefuseBadKeys(t *testing.T) {
	dir := t.TempDir()
	plain := func(f interface {
		MarshalBinary() ([]byte, error)
		Save(string) error
	}) (path string, data []byte) {
		path = filepath.Join(dir, fmt.Sprintf("%T", f))
		must(t, f.Save(path))
		data, err := f.MarshalBinary()
		must(t, err)
		return path, data
	}
	bloomPath, bloomData := plain(newFilter(t, 100, 0.01))
	countingPath, countingData := plain(newCounting(t, 100, 0.01))
	scalablePath, scalableData := plain(newScalable(t, ScalableOptions{InitialCapacity: 100, FPR: 0.01}))
	for name, read := range map[string]func(key []byte) error{
		"OpenKeyed":              func(key []byte) error { _, err := OpenKeyed(bloomPath, true, key); return err },
		"UnmarshalKeyed":         func(key []byte) error { _, err := UnmarshalKeyed(bloomData, key); return err },
		"OpenCountingKeyed":      func(key []byte) error { _, err := OpenCountingKeyed(countingPath, true, key); return err },
		"UnmarshalCountingKeyed": func(key []byte) error { _, err := UnmarshalCountingKeyed(countingData, key); return err },
		"OpenScalableKeyed":      func(key []byte) error { _, err := OpenScalableKeyed(scalablePath, true, key); return err },
		"UnmarshalScalableKeyed": func(key []byte) error { _, err := UnmarshalScalableKeyed(scalableData, key); return err },
	} {
		checkBadKeys(t, name, read)
	}
}
