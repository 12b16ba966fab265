package seen_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/seen-bloom/seen/bindings/go"
)

// The examples of the counting and scalable filters; docs/go.md quotes them like those of
// example_test.go.

func ExampleCountingFilter_Remove() {
	f, err := seen.NewCounting(1_000_000, 0.01)
	if err != nil {
		panic(err)
	}
	defer f.Close()

	f.AddString("alice@example.com")
	f.AddString("bob@example.com")
	f.RemoveString("bob@example.com") // bob left

	for _, key := range []string{"alice@example.com", "bob@example.com"} {
		present := f.TestString(key)
		fmt.Println(key, present)
	}
	err = f.RemoveString("carol@example.com") // never added: refused, nothing changes
	fmt.Println(errors.Is(err, seen.ErrNotFound))
	// Output:
	// alice@example.com true
	// bob@example.com false
	// true
}

// A batch remove processes every id and says which it removed.
func ExampleCountingFilter_RemoveUint64s() {
	f, _ := seen.NewCounting(1000, 0.001)
	defer f.Close()
	f.AddUint64s([]uint64{1, 2, 3})

	removed := make([]bool, 3)
	err := f.RemoveUint64s([]uint64{1, 2, 99}, removed)
	fmt.Println(removed, errors.Is(err, seen.ErrNotFound))

	present := make([]bool, 3)
	f.TestUint64s([]uint64{1, 2, 3}, present)
	fmt.Println(present)
	// Output:
	// [true true false] true
	// [false false true]
}

// A query role maps the file read-only; every add and remove is refused.
func ExampleOpenCounting() {
	dir, _ := os.MkdirTemp("", "seen")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "senders.seen")

	f, _ := seen.NewCounting(1_000_000, 0.01)
	f.AddString("alice@example.com")
	f.Save(path)
	f.Close()

	q, err := seen.OpenCounting(path, true)
	if err != nil {
		panic(err)
	}
	defer q.Close()
	known := q.TestString("alice@example.com")
	fmt.Println("known:", known)
	err = q.RemoveString("alice@example.com")
	fmt.Println("read-only:", errors.Is(err, seen.ErrReadOnly))
	// Output:
	// known: true
	// read-only: true
}

func ExampleNewScalable() {
	f, err := seen.NewScalable(seen.ScalableOptions{
		InitialCapacity: 1000, // keys of the first sub-filter
		FPR:             0.01, // the bound on the total false-positive rate, at any size
		Growth:          2,    // each new sub-filter holds twice as many keys (0 means 2)
		Tightening:      0.5,  // at half the rate of the one before (0 means 0.5)
	})
	if err != nil {
		panic(err)
	}
	defer f.Close()

	ids := make([]uint64, 100_000) // 100 times the initial capacity
	for i := range ids {
		ids[i] = uint64(i)
	}
	f.AddUint64s(ids)

	found := make([]bool, len(ids))
	f.TestUint64s(ids, found)
	missing := 0
	for _, ok := range found {
		if !ok {
			missing++
		}
	}
	info, _ := f.Info()
	fmt.Println("sub-filters:", info.SubFilters, "missing:", missing)
	fmt.Println("predicted rate within the bound:", info.PredictedFPR <= 0.01)
	// Output:
	// sub-filters: 7 missing: 0
	// predicted rate within the bound: true
}
