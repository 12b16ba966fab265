package seen

import (
	"errors"
	"path/filepath"
	"testing"
)

// testOrAdder is the TestOrAdd family every filter kind has, with the read-only Open that
// refuses adds.
type testOrAdder interface {
	TestOrAdd([]byte) (bool, error)
	TestOrAddString(string) (bool, error)
	TestOrAddUint64(uint64) (bool, error)
	Save(string) error
	Close() error
}

// TestOrAdd is false for a new key and true after, in each of its three forms; on a read-only
// filter it still answers a present key (nothing to write), and refuses to add a new one.
func TestTestOrAddAddsOnlyNewKeys(t *testing.T) {
	kinds := map[string]struct {
		make     func() (testOrAdder, error)
		readOnly func(path string) (testOrAdder, error)
	}{
		"BloomFilter": {func() (testOrAdder, error) { return New(1000, 0.001) },
			func(p string) (testOrAdder, error) { return Open(p, true) }},
		"CountingFilter": {func() (testOrAdder, error) { return NewCounting(1000, 0.001) },
			func(p string) (testOrAdder, error) { return OpenCounting(p, true) }},
		"ScalableFilter": {func() (testOrAdder, error) { return NewScalable(ScalableOptions{InitialCapacity: 100, FPR: 0.001}) },
			func(p string) (testOrAdder, error) { return OpenScalable(p, true) }},
	}
	for name, kind := range kinds {
		t.Run(name, func(t *testing.T) {
			f, err := kind.make()
			must(t, err)
			defer f.Close()
			forms := map[string]func() (bool, error){
				"bytes":  func() (bool, error) { return f.TestOrAdd([]byte("k")) },
				"string": func() (bool, error) { return f.TestOrAddString("s") },
				"uint64": func() (bool, error) { return f.TestOrAddUint64(7) },
			}
			for form, testOrAdd := range forms {
				if first, err := testOrAdd(); first || err != nil {
					t.Errorf("%s: a new key gave %v, %v; want false", form, first, err)
				}
				if again, err := testOrAdd(); !again || err != nil {
					t.Errorf("%s: an added key gave %v, %v; want true", form, again, err)
				}
			}
			path := filepath.Join(t.TempDir(), "f.seen")
			must(t, f.Save(path))
			ro, err := kind.readOnly(path)
			must(t, err)
			defer ro.Close()
			if present, err := ro.TestOrAddString("s"); !present || err != nil {
				t.Errorf("read-only, present key: %v, %v; want true", present, err)
			}
			if _, err := ro.TestOrAddString("new"); !errors.Is(err, ErrReadOnly) {
				t.Errorf("read-only, new key: %v; want ErrReadOnly", err)
			}
		})
	}
}

// A counting filter's TestOrAdd counts a key once however often it is called, so a single
// Remove takes it out again; Add would have counted it twice.
func TestCountingTestOrAddCountsOnce(t *testing.T) {
	f := newCounting(t, 1000, 0.001)
	for i := 0; i < 3; i++ {
		_, err := f.TestOrAddUint64(42)
		must(t, err)
	}
	must(t, f.RemoveUint64(42))
	if f.TestUint64(42) {
		t.Error("one Remove left a key added by TestOrAdd three times")
	}
}
