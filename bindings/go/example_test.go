package seen_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/seen-bloom/seen/bindings/go"
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
		seenBefore := f.TestString(key)
		fmt.Println(key, seenBefore)
	}
	// Output:
	// alice@example.com true
	// bob@example.com false
}

func ExampleBloomFilter_TestAndAdd() {
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
func ExampleBloomFilter_TestUint64s() {
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
func ExampleBloomFilter_TestKeys() {
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
	spam := q.TestString("spammer@example.com")
	fmt.Println("spam:", spam)
	err = q.AddString("someone@example.com")
	fmt.Println("read-only:", errors.Is(err, seen.ErrReadOnly))
	// Output:
	// spam: true
	// read-only: true
}

func ExampleBloomFilter_WriteTo() {
	f, _ := seen.New(1000, 0.01)
	defer f.Close()
	f.AddString("kept")

	var buf bytes.Buffer
	f.WriteTo(&buf)

	var g seen.BloomFilter // a zero BloomFilter can be read into
	g.ReadFrom(&buf)
	defer g.Close()
	kept := g.TestString("kept")
	fmt.Println(kept)
	// Output: true
}

// Errors carry the library's status and message; errors.Is matches the status.
func ExampleError() {
	var f seen.BloomFilter
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

// A count window remembers the last n items shown to one user; older ones fade out.
func ExampleNewCountWindow() {
	w, err := seen.NewCountWindow(500, 0.01) // the last 500 items, 1% false positives in total
	if err != nil {
		panic(err)
	}
	defer w.Close()

	for item := uint64(1); item <= 1000; item++ {
		w.AddUint64(item, 0) // a count window ignores the clock
	}
	recent := w.TestUint64(900, 0)
	old := w.TestUint64(100, 0)
	fmt.Println("item 900:", recent, "item 100:", old)

	info := w.Info()
	fmt.Println(info.Span, info.Layout, info.PredictedFPR <= 0.01, info.StateBytes <= 880)
	// Output:
	// item 900: true item 100: false
	// 500 packed true true
}

// A time window remembers the last span seconds. The clock is an argument, so a test (or a
// replay) controls it.
func ExampleNewTimeWindow() {
	start := seen.UnixSeconds(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	w, _ := seen.NewTimeWindow(3600, 1000, 0.01, start) // the last hour, sized to start for 1000 items
	defer w.Close()

	w.AddString("video:7", start)
	for _, minutes := range []uint32{30, 60, 180} {
		shown := w.TestString("video:7", start+minutes*60)
		fmt.Println(minutes, "minutes later:", shown)
	}
	// Output:
	// 30 minutes later: true
	// 60 minutes later: true
	// 180 minutes later: false
}

// A recall request: drop the candidates the user was already shown, then record what is
// shown now.
func ExampleExposureStore_Filter() {
	store, err := seen.NewExposureStore(seen.StoreOptions{
		Window:      seen.LastItems(500, 0.01), // every user's window
		IdleTimeout: 30 * 24 * time.Hour,       // forget users idle for a month
	})
	if err != nil {
		panic(err)
	}
	defer store.Close()

	const user, now = 42, 1_700_000_000
	store.Mark(user, []uint64{2, 4}, now) // shown earlier

	candidates := []uint64{1, 2, 3, 4, 5}
	unseen := make([]bool, len(candidates))
	store.Filter(user, candidates, now, unseen)
	fmt.Println(unseen)
	// Output: [true false true false true]
}

// Take is a feed page: the first unseen candidates, marked in the same atomic step, so two
// concurrent requests for one user never show the same item.
func ExampleExposureStore_Take() {
	store, _ := seen.NewExposureStore(seen.StoreOptions{Window: seen.LastItems(500, 0.01)})
	defer store.Close()

	now := seen.UnixSeconds(time.Now())
	candidates := []uint64{101, 102, 103, 104, 105, 106}
	page1, _ := store.Take(7, candidates, 4, now)
	page2, _ := store.Take(7, candidates, 4, now)
	fmt.Println(page1, page2)
	// Output: [101 102 103 104] [105 106]
}

// Save writes the store crash-safely; OpenExposureStore maps it back, here read-only for a replica
// that only filters.
func ExampleOpenExposureStore() {
	dir, _ := os.MkdirTemp("", "seen")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "exposure.seen")

	store, _ := seen.NewExposureStore(seen.StoreOptions{Window: seen.LastItems(500, 0.01)})
	store.Mark(42, []uint64{7}, 1000)
	store.Save(path)
	store.Close()

	replica, err := seen.OpenExposureStore(path, true, true) // read-only, checksum verified
	if err != nil {
		panic(err)
	}
	defer replica.Close()
	unseen := make([]bool, 2)
	replica.Filter(42, []uint64{7, 8}, 1000, unseen)
	fmt.Println(unseen)
	err = replica.Mark(42, []uint64{8}, 1000)
	fmt.Println("read-only:", errors.Is(err, seen.ErrReadOnly))
	// Output:
	// [false true]
	// read-only: true
}

func ExampleSimHash() {
	a, _ := seen.SimHash("The quick brown fox jumps over the lazy dog.")
	b, _ := seen.SimHash("The quick brown fox jumped over the lazy dog!")
	fmt.Printf("%016x %016x\n", a, b)
	// A short sentence has few tokens, so one changed word moves many bits.
	fmt.Println(seen.Hamming(a, b))

	long := strings.Repeat("近日，某市召开新闻发布会，介绍了今年以来全市经济运行的总体情况。", 20)
	c, _ := seen.SimHash(long)
	d, _ := seen.SimHash(strings.Replace(long, "发布会", "发表会", 1))
	fmt.Println(seen.Hamming(c, d) <= 3)
	// Output:
	// 84048682805292e3 800cc480104a9063
	// 11
	// true
}

func ExampleFingerprintText() {
	a, _ := seen.FingerprintText("Hello, World!")
	b, _ := seen.FingerprintText("ＨＥＬＬＯ，ｗｏｒｌｄ！") // full width, other case
	fmt.Println(a.Exact == b.Exact, a.SimHash == b.SimHash, a.Features)
	fmt.Println(a.Exact)
	// Output:
	// true true 2
	// df8d09e93f874900a99b8775cc15b6c7
}

func ExampleSimHashIndex() {
	articles := []string{
		strings.Repeat("近日，某市召开新闻发布会，介绍了今年以来全市经济运行的总体情况。", 10),
		strings.Repeat("The committee approved the budget for next year after a long debate. ", 10),
	}
	fps, _ := seen.SimHashStrings(articles) // one C call for the whole batch

	index, _ := seen.NewSimHashIndex(3) // finds everything within 3 bits
	defer index.Close()
	index.AddMany([]uint64{100, 200}, fps)

	edited := strings.Replace(articles[0], "发布会", "发表会", 1) // a copy with one edit
	fp, _ := seen.SimHash(edited)
	matches, _ := index.Query(fp)
	fmt.Println(len(matches), matches[0].ID, matches[0].Distance <= 3)

	unrelated, _ := seen.SimHash("Something else entirely, about gardening and tomatoes.")
	found, _ := index.Any(unrelated)
	fmt.Println(found)
	// Output:
	// 1 100 true
	// false
}

func ExampleSimHashIndex_Clusters() {
	index, _ := seen.NewSimHashIndex(3)
	defer index.Close()
	index.AddMany(
		[]uint64{1, 2, 3, 4},
		[]uint64{0xf0f0, 0xf0f1, 0xf0f3, 0xffff_0000_0000})
	groups, _ := index.Clusters() // every two of 1, 2 and 3 are within 3 bits: one group
	for _, g := range groups {
		fmt.Println(g)
	}
	// Output:
	// [1 2 3]
	// [4]
}
