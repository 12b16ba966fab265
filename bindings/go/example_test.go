package seen_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"seen.local/seen"
)

func Example() {
	f, err := seen.New(1_000_000, 0.01) // a million keys at 1% false positives
	if err != nil {
		panic(err)
	}
	defer f.Close()

	f.AddString("alice@example.com")
	f.AddUint64(42)

	for _, key := range []string{"alice@example.com", "bob@example.com"} {
		seenBefore, _ := f.TestString(key)
		fmt.Println(key, seenBefore)
	}
	// Output:
	// alice@example.com true
	// bob@example.com false
}

func ExampleFilter_TestAndAdd() {
	f, _ := seen.New(1000, 0.001)
	defer f.Close()
	for _, event := range []string{"login:7", "login:8", "login:7"} {
		duplicate, _ := f.TestAndAdd([]byte(event))
		fmt.Println(event, duplicate)
	}
	// Output:
	// login:7 false
	// login:8 false
	// login:7 true
}

// Batches cross into C once for the whole slice: the fast path for many ids.
func ExampleFilter_TestUint64s() {
	f, _ := seen.New(1_000_000, 0.01)
	defer f.Close()
	f.AddUint64s([]uint64{10, 20, 30})

	candidates := []uint64{10, 11, 20, 21}
	shown := make([]bool, len(candidates))
	f.TestUint64s(candidates, shown)
	fmt.Println(shown)
	// Output: [true false true false]
}

// String batches are packed once into one buffer plus offsets; reuse a seen.Keys to pack
// without allocating.
func ExampleFilter_TestKeys() {
	f, _ := seen.New(1000, 0.01)
	defer f.Close()
	f.AddStrings([]string{"新闻", "news"})

	var batch seen.Keys
	for _, k := range []string{"news", "sport", "新闻"} {
		batch.AppendString(k)
	}
	out := make([]bool, batch.Len())
	f.TestKeys(batch, out)
	fmt.Println(out)
	// Output: [true false true]
}

// Save writes a file crash-safely; Open maps it, here read-only for a query role.
func ExampleOpen() {
	dir, _ := os.MkdirTemp("", "seen")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "spam.seen")

	f, _ := seen.New(1_000_000, 0.01)
	f.AddString("spammer@example.com")
	f.Save(path)
	f.Close()

	q, err := seen.Open(path, true)
	if err != nil {
		panic(err)
	}
	defer q.Close()
	spam, _ := q.TestString("spammer@example.com")
	fmt.Println("spam:", spam)
	err = q.AddString("someone@example.com")
	fmt.Println("read-only:", errors.Is(err, seen.ErrReadOnly))
	// Output:
	// spam: true
	// read-only: true
}

func ExampleFilter_WriteTo() {
	f, _ := seen.New(1000, 0.01)
	defer f.Close()
	f.AddString("kept")

	var buf bytes.Buffer
	f.WriteTo(&buf)

	var g seen.Filter // a zero Filter can be read into
	g.ReadFrom(&buf)
	defer g.Close()
	kept, _ := g.TestString("kept")
	fmt.Println(kept)
	// Output: true
}

// Errors carry the library's status and message; errors.Is matches the status.
func ExampleError() {
	var f seen.Filter
	err := f.UnmarshalBinary(bytes.Repeat([]byte("not a filter "), 100))
	fmt.Println(errors.Is(err, seen.ErrBadMagic))

	var e *seen.Error
	if errors.As(err, &e) {
		fmt.Println(e.Status)
	}
	// Output:
	// true
	// SEEN_ERR_BAD_MAGIC
}
