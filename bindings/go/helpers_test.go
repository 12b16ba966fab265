package seen

import (
	"errors"
	"fmt"
	"math/rand"
	"testing"
)

// newFilter is a filter closed when the test ends.
func newFilter(t testing.TB, n uint64, fpr float64) *BloomFilter {
	t.Helper()
	f, err := NewWithSeed(n, fpr, 1234)
	if err != nil {
		t.Fatalf("NewWithSeed(%d, %g): %v", n, fpr, err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// distinctIDs are n distinct pseudo-random ids from a fixed seed.
func distinctIDs(seed int64, n int) []uint64 {
	r := rand.New(rand.NewSource(seed))
	seen := make(map[uint64]bool, n)
	ids := make([]uint64, 0, n)
	for len(ids) < n {
		id := r.Uint64()
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids
}

// must fails the test on err.
func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// wantEach fails the test for every named call whose error is not want, called wantName in
// the message; when says in what state the calls were made ("after Close").
func wantEach(t testing.TB, calls map[string]error, want error, wantName, when string) {
	t.Helper()
	for name, err := range calls {
		if !errors.Is(err, want) {
			t.Errorf("%s %s: %v, want %s", name, when, err, wantName)
		}
	}
}

// panicOf is the error that call panics with, or nil if it returns: a single-key Test panics
// on a closed filter, and its panic value is the ErrClosed the other calls return.
func panicOf(call func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err, _ = r.(error)
			if err == nil {
				err = fmt.Errorf("panic with a non-error: %v", r)
			}
		}
	}()
	call()
	return nil
}
