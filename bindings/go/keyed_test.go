package seen

import (
	"errors"
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
