package seen

import (
	"errors"
	"fmt"
	"io"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"
)

// closedAtEnd is v, closed when the test ends; err, from making v, fails the test.
func closedAtEnd[T interface{ Close() error }](t testing.TB, v T, err error) T {
	t.Helper()
	must(t, err)
	t.Cleanup(func() { v.Close() })
	return v
}

// opened is open(path, readOnly), closed when the test ends.
func opened[T interface{ Close() error }](t testing.TB, open func(string, bool) (T, error), path string, readOnly bool) T {
	t.Helper()
	v, err := open(path, readOnly)
	return closedAtEnd(t, v, err)
}

// newFilter is a filter closed when the test ends.
func newFilter(t testing.TB, n uint64, fpr float64) *BloomFilter {
	t.Helper()
	f, err := NewWithSeed(n, fpr, 1234)
	return closedAtEnd(t, f, err)
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

// baseFilter is what the shared filter base gives the Bloom, counting and scalable filters.
type baseFilter interface {
	scriptFilter
	AddString(string) error
	AddStrings([]string) error
	Save(string) error
	WriteTo(io.Writer) (int64, error)
}

// addsTo are the errors of the shared base's adds of new keys to f.
func addsTo(f baseFilter) map[string]error {
	return map[string]error{
		"Add":        f.Add([]byte("new")),
		"AddString":  f.AddString("new"),
		"AddUint64":  f.AddUint64(1),
		"AddUint64s": f.AddUint64s([]uint64{1, 2}),
		"AddStrings": f.AddStrings([]string{"new"}),
		"AddKeys":    f.AddKeys(PackStrings([]string{"new"})),
	}
}

// callsAfterClose are the errors of the shared base's methods on f, closed; a single-key
// Test panics with its error.
func callsAfterClose(t *testing.T, f baseFilter) map[string]error {
	calls := map[string]error{
		"Add":         f.Add(nil),
		"AddUint64":   f.AddUint64(1),
		"AddUint64s":  f.AddUint64s([]uint64{1}),
		"TestUint64s": f.TestUint64s([]uint64{1}, make([]bool, 1)),
		"AddStrings":  f.AddStrings([]string{"a"}),
		"TestKeys":    f.TestKeys(PackStrings([]string{"a"}), make([]bool, 1)),
		"Save":        f.Save(filepath.Join(t.TempDir(), "x")),
	}
	calls["Test"] = panicOf(func() { f.Test(nil) })
	calls["TestUint64"] = panicOf(func() { f.TestUint64(1) })
	_, calls["MarshalBinary"] = f.MarshalBinary()
	_, calls["WriteTo"] = f.WriteTo(&strings.Builder{})
	return calls
}

// copyAndEqual is what every kind with Copy and Equal offers.
type copyAndEqual[T any] interface {
	Copy() (T, error)
	Equal(T) (bool, error)
	Close() error
}

// checkCopyIsEqualAndIndependent copies f and checks that the copy is Equal to f, that
// change (applied to the copy) shows in the copy only, as reported by shows, that Equal then
// says no, and that Equal with a closed filter is ErrClosed rather than an answer.
func checkCopyIsEqualAndIndependent[T copyAndEqual[T]](t *testing.T, f T, change func(T) error, shows func(T) bool) {
	t.Helper()
	c, err := f.Copy()
	must(t, err)
	defer c.Close()
	if same, err := f.Equal(c); err != nil || !same {
		t.Fatalf("a copy is not Equal to its original: %v, %v", same, err)
	}
	if shows(c) {
		t.Fatal("the copy shows the change before it was made")
	}
	must(t, change(c))
	if !shows(c) {
		t.Fatal("the change does not show in the copy")
	}
	if shows(f) {
		t.Fatal("the copy's change reached the original")
	}
	if same, err := f.Equal(c); err != nil || same {
		t.Fatalf("Equal after the copy changed: %v, %v", same, err)
	}
	must(t, c.Close())
	if _, err := f.Equal(c); !errors.Is(err, ErrClosed) {
		t.Fatalf("Equal with a closed filter: %v, want ErrClosed", err)
	}
}

// checkEqualFollowsContents checks that Equal holds between a and b, built alike, and not
// between a and c, built otherwise.
func checkEqualFollowsContents[T copyAndEqual[T]](t *testing.T, a, b, c T) {
	t.Helper()
	if same, err := a.Equal(b); err != nil || !same {
		t.Fatalf("built alike, not Equal: %v, %v", same, err)
	}
	if same, err := a.Equal(c); err != nil || same {
		t.Fatalf("built otherwise, Equal: %v, %v", same, err)
	}
}
