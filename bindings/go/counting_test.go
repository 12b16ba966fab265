package seen

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// newCounting is a counting filter closed when the test ends.
func newCounting(t testing.TB, n uint64, fpr float64) *CountingFilter {
	t.Helper()
	f, err := NewCountingWithSeed(n, fpr, 4321)
	return closedAtEnd(t, f, err)
}

// Random adds and removes, singly and in batches, against an exact multiset: every key with a
// positive count is always found, and keys removed as often as added are mostly gone again.
func TestCountingNoFalseNegatives(t *testing.T) {
	const n = 4000
	f := newCounting(t, n, 0.01)
	r := rand.New(rand.NewSource(11))
	pool := distinctIDs(12, 3000)
	counts := map[uint64]int{}
	var batch []uint64
	var removed []bool
	for round := 0; round < 200; round++ {
		batch = batch[:0]
		for i := 0; i < 40; i++ {
			batch = append(batch, pool[r.Intn(len(pool))])
		}
		switch round % 4 {
		case 0, 1: // adds, in one batch or one by one
			if round%4 == 0 {
				must(t, f.AddUint64s(batch))
			}
			for _, id := range batch {
				if round%4 == 1 {
					must(t, f.AddUint64(id))
				}
				counts[id]++
			}
		case 2: // a batch of removes of added keys only (the remove rule)
			batch = batch[:0]
			for id, c := range counts {
				if c > 0 && len(batch) < 30 {
					batch = append(batch, id)
					counts[id]--
				}
			}
			removed = make([]bool, len(batch))
			must(t, f.RemoveUint64s(batch, removed))
			for i, ok := range removed {
				if !ok {
					t.Fatalf("round %d: added id %d not removed", round, batch[i])
				}
			}
		case 3: // single removes
			k := 0
			for id, c := range counts {
				if c > 0 && k < 10 {
					must(t, f.RemoveUint64(id))
					counts[id]--
					k++
				}
			}
		}
		if round%20 == 19 {
			checkCounts(t, f, pool, counts)
		}
	}
	checkCounts(t, f, pool, counts)
}

// checkCounts: every id with a positive count is found, singly and in a batch, and at most a
// few of the others (the ids removed to zero and never added) look present.
func checkCounts(t *testing.T, f *CountingFilter, pool []uint64, counts map[uint64]int) {
	t.Helper()
	out := make([]bool, len(pool))
	must(t, f.TestUint64s(pool, out))
	absent, positives := 0, 0
	for i, id := range pool {
		single := f.TestUint64(id)
		if single != out[i] {
			t.Fatalf("id %d: single %v, batch %v", id, single, out[i])
		}
		if counts[id] > 0 && !out[i] {
			t.Fatalf("false negative: id %d added %d more times than removed", id, counts[id])
		}
		if counts[id] == 0 {
			absent++
			if out[i] {
				positives++
			}
		}
	}
	if absent > 100 && float64(positives) > 0.05*float64(absent) {
		t.Errorf("%d of %d absent ids look present", positives, absent)
	}
}

// Byte keys follow the same rules through strings, []byte and Keys batches.
func TestCountingByteKeys(t *testing.T) {
	f := newCounting(t, 1000, 0.001)
	keys := []string{"", "a", "alice@example.com", "新闻", strings.Repeat("x", 1000)}
	must(t, f.AddStrings(keys))
	must(t, f.Add([]byte("a"))) // "a" twice now
	for _, k := range keys {
		if !f.Test([]byte(k)) {
			t.Errorf("Test(%q) = false", k)
		}
	}
	removed := make([]bool, len(keys))
	must(t, f.RemoveStrings(keys, removed))
	out := make([]bool, len(keys))
	must(t, f.TestStrings(keys, out))
	if fmt.Sprint(removed) != "[true true true true true]" || fmt.Sprint(out) != "[false true false false false]" {
		t.Errorf("after removing each once: removed %v, present %v", removed, out)
	}
	must(t, f.RemoveString("a"))
	if f.TestString("a") {
		t.Error(`"a" survived its second remove`)
	}
	if err := f.Remove([]byte("a")); !errors.Is(err, ErrNotFound) {
		t.Errorf(`a third remove of "a": %v, want ErrNotFound`, err)
	}
}

func TestCountingRemoveSemantics(t *testing.T) {
	f := newCounting(t, 1000, 0.0001)
	must(t, f.AddString("twice"))
	must(t, f.AddString("twice"))
	must(t, f.RemoveString("twice"))
	if !f.TestString("twice") {
		t.Fatal("a key added twice vanished after one remove")
	}
	must(t, f.RemoveString("twice"))
	if f.TestString("twice") {
		t.Fatal("a key added twice survived two removes")
	}

	// A certainly absent key: ErrNotFound with libseen's message, and nothing changes.
	must(t, f.AddUint64s(distinctIDs(21, 500)))
	before, err := f.MarshalBinary()
	must(t, err)
	for name, err := range map[string]error{
		"RemoveString": f.RemoveString("twice"),
		"Remove":       f.Remove([]byte("never")),
		"RemoveUint64": f.RemoveUint64(1 << 60),
	} {
		var e *Error
		if !errors.Is(err, ErrNotFound) || !errors.As(err, &e) || e.Message == "" {
			t.Errorf("%s of an absent key: %v, want ErrNotFound with a message", name, err)
		}
	}
	after, err := f.MarshalBinary()
	must(t, err)
	if !bytes.Equal(before, after) {
		t.Error("a refused remove changed the filter")
	}
	if s := ErrNotFound.Error(); s != "SEEN_ERR_NOT_FOUND" {
		t.Errorf("ErrNotFound is %q", s)
	}
}

// A batch remove processes every key, says which were removed, and returns ErrNotFound if
// any was certainly absent.
func TestCountingBatchRemove(t *testing.T) {
	f := newCounting(t, 1000, 0.0001)
	ids := distinctIDs(31, 200)
	present, absent := ids[:100], ids[100:]
	must(t, f.AddUint64s(present))
	looks := make([]bool, len(absent))
	must(t, f.TestUint64s(absent, looks))

	mixed := make([]uint64, 0, len(ids))
	for i := range present { // interleaved: present, absent, present, ...
		mixed = append(mixed, present[i], absent[i])
	}
	removed := make([]bool, len(mixed))
	if err := f.RemoveUint64s(mixed, removed); !errors.Is(err, ErrNotFound) {
		t.Fatalf("mixed batch remove: %v, want ErrNotFound", err)
	}
	for i := range present {
		if !removed[2*i] {
			t.Errorf("present id %d not removed", present[i])
		}
		if removed[2*i+1] != looks[i] {
			t.Errorf("absent id %d: removed %v, looked present %v", absent[i], removed[2*i+1], looks[i])
		}
	}
	out := make([]bool, len(present))
	must(t, f.TestUint64s(present, out))
	for i, p := range out {
		if p {
			t.Errorf("id %d still present after its remove", present[i])
		}
	}

	// removed may be nil; a batch of added keys only is a plain success.
	must(t, f.AddUint64s(present))
	must(t, f.RemoveUint64s(present, nil))
	if err := f.RemoveUint64s(present[:1], nil); !errors.Is(err, ErrNotFound) {
		t.Errorf("removing a removed id: %v", err)
	}
	var keys Keys
	keys.AppendString("k")
	must(t, f.AddKeys(keys))
	keys.AppendString("not added")
	flags := make([]bool, 2)
	if err := f.RemoveKeys(keys, flags); !errors.Is(err, ErrNotFound) || !flags[0] || flags[1] {
		t.Errorf("RemoveKeys: %v, removed %v", err, flags)
	}
	must(t, f.RemoveUint64s(nil, nil)) // empty batches are no-ops
	must(t, f.RemoveKeys(Keys{}, nil))
}

// Counters saturate at 15 and then never change: a key added 40 times is never lost, however
// often it is removed, and nothing wraps.
func TestCountingSaturation(t *testing.T) {
	f := newCounting(t, 1000, 0.01)
	hot := make([]uint64, 40)
	for i := range hot {
		hot[i] = 7
	}
	must(t, f.AddUint64s(hot))
	s, err := f.Stats()
	must(t, err)
	k := uint64(f.Params().K)
	if s.Saturated != k {
		t.Errorf("Saturated = %d after 40 adds of one key, want k = %d", s.Saturated, k)
	}
	if s.ApproxItems != 15 {
		t.Errorf("ApproxItems = %g, want 15 (counters stop at 15)", s.ApproxItems)
	}
	for i := 0; i < 100; i++ {
		must(t, f.RemoveUint64(7))
	}
	if !f.TestUint64(7) {
		t.Fatal("a saturated key vanished")
	}
	if s, _ := f.Stats(); s.Saturated != k {
		t.Errorf("Saturated = %d after 100 removes, want %d", s.Saturated, k)
	}
	// 100 other keys added once and removed once each come and go around it.
	others := distinctIDs(41, 100)
	must(t, f.AddUint64s(others))
	must(t, f.RemoveUint64s(others, nil))
	if !f.TestUint64(7) {
		t.Fatal("the saturated key vanished after others came and went")
	}
	must(t, f.Clear())
	if f.TestUint64(7) {
		t.Error("Clear left the saturated key")
	}
	if s, _ := f.Stats(); s.Saturated != 0 || s.ApproxItems != 0 || s.FillRatio != 0 {
		t.Errorf("after Clear: %+v", s)
	}
}

// The counting filter has the blocks, k and answers of the BloomFilter of the same parameters.
func TestCountingMatchesBloom(t *testing.T) {
	const n = 20000
	c, err := NewCountingWithSeed(n, 0.01, 99)
	must(t, err)
	defer c.Close()
	b, err := NewWithSeed(n, 0.01, 99)
	must(t, err)
	defer b.Close()
	if c.Params().Blocks != b.Params().Blocks || c.Params().K != b.Params().K {
		t.Fatalf("counting %+v, bloom %+v", c.Params(), b.Params())
	}
	if p := c.Params(); p.Bytes != 320*p.Blocks || p.CounterBits != 4 || p.ExpectedItems != n ||
		p.TargetFPR != 0.01 || p.Seed != 99 || p.ReadOnly {
		t.Errorf("params %+v", p)
	}
	ids := distinctIDs(51, 3*n)
	must(t, c.AddUint64s(ids[:n]))
	must(t, b.AddUint64s(ids[:n]))
	got, want := make([]bool, len(ids)), make([]bool, len(ids))
	must(t, c.TestUint64s(ids, got))
	must(t, b.TestUint64s(ids, want))
	positives := 0
	for i := range ids {
		if got[i] != want[i] {
			t.Fatalf("id %d: counting %v, bloom %v", i, got[i], want[i])
		}
		if i >= n && got[i] {
			positives++
		}
	}
	if rate := float64(positives) / float64(2*n); rate > 0.015 {
		t.Errorf("false-positive rate %g at a target of 1%%", rate)
	}
	s, err := c.Stats()
	must(t, err)
	if s.ApproxItems != n || s.Saturated != 0 || s.PredictedFPR > 0.012 {
		t.Errorf("stats %+v", s)
	}
}

func TestCountingRoundTrip(t *testing.T) {
	f := newCounting(t, 1000, 0.01)
	ids := distinctIDs(61, 300)
	must(t, f.AddUint64s(ids))
	must(t, f.AddUint64(ids[0])) // counted twice
	g, b := roundTrip[CountingFilter](t, f)
	if g.Params() != f.Params() {
		t.Errorf("params %+v, want %+v", g.Params(), f.Params())
	}
	// The counts came along: ids[0] goes after two removes, not one.
	must(t, g.RemoveUint64(ids[0]))
	if !g.TestUint64(ids[0]) {
		t.Error("a count was lost in the round trip")
	}
	must(t, g.RemoveUint64(ids[0]))
	if err := g.RemoveUint64(ids[0]); !errors.Is(err, ErrNotFound) {
		t.Errorf("third remove: %v", err)
	}

	var buf bytes.Buffer
	n, err := f.WriteTo(&buf)
	must(t, err)
	h := newCounting(t, 10, 0.5) // ReadFrom replaces whatever was there
	m, err := h.ReadFrom(&buf)
	must(t, err)
	if n != int64(len(b)) || m != n || h.Params() != f.Params() {
		t.Errorf("WriteTo %d bytes, ReadFrom %d, of %d", n, m, len(b))
	}
}

func TestCountingSaveOpen(t *testing.T) {
	f := newCounting(t, 1000, 0.01)
	must(t, f.AddStrings([]string{"a", "b"}))
	path, _ := saved(t, f)

	rw, err := OpenCounting(path, false)
	must(t, err)
	must(t, rw.AddString("c"))
	must(t, rw.RemoveString("a"))
	must(t, rw.Sync())
	must(t, rw.AddUint64(5))
	must(t, rw.Close())

	ro := opened(t, OpenCounting, path, true)
	out := make([]bool, 3)
	must(t, ro.TestStrings([]string{"a", "b", "c"}, out))
	five := ro.TestUint64(5)
	if fmt.Sprint(out) != "[false true true]" || !five {
		t.Errorf("after the read-write session: a b c = %v, 5 = %v", out, five)
	}
}

func TestCountingReadOnlyRefusesWrites(t *testing.T) {
	f := newCounting(t, 1000, 0.01)
	must(t, f.AddString("kept"))
	must(t, f.AddUint64(9))
	path, file := saved(t, f)
	ro := opened(t, OpenCounting, path, true)
	if !ro.Params().ReadOnly {
		t.Error("Params().ReadOnly is false")
	}
	writes := addsTo(ro)
	writes["Remove"] = ro.Remove([]byte("kept"))
	writes["RemoveString"] = ro.RemoveString("kept")
	writes["RemoveUint64"] = ro.RemoveUint64(9)
	writes["RemoveUint64s"] = ro.RemoveUint64s([]uint64{9}, nil)
	writes["RemoveStrings"] = ro.RemoveStrings([]string{"kept"}, nil)
	writes["Clear"] = ro.Clear()
	wantEach(t, writes, ErrReadOnly, "ErrReadOnly", "on a read-only filter")
	kept := ro.TestString("kept")
	nine := ro.TestUint64(9)
	if !kept || !nine {
		t.Error("the read-only filter lost a key")
	}
	if now, _ := os.ReadFile(path); !bytes.Equal(now, file) {
		t.Error("refused writes changed the file")
	}
}

func TestCountingCorruptInput(t *testing.T) {
	f := newCounting(t, 1000, 0.01)
	must(t, f.AddString("x"))
	refusesCorrupt(t, f, corruptForms(t, f, newFilter(t, 1000, 0.01)), "OpenCounting", OpenCounting)
	if _, err := OpenCounting(filepath.Join(t.TempDir(), "absent.seen"), true); !errors.Is(err, ErrIO) {
		t.Errorf("OpenCounting of a missing file: %v", err)
	}
}

func TestCountingInvalidArguments(t *testing.T) {
	refusesBadFPR(t, "NewCounting", NewCounting)
	f := newCounting(t, 100, 0.01)
	short := make([]bool, 1)
	for name, err := range map[string]error{
		"TestUint64s":   f.TestUint64s([]uint64{1, 2}, short),
		"RemoveUint64s": f.RemoveUint64s([]uint64{1, 2}, short),
		"TestStrings":   f.TestStrings([]string{"a", "b"}, short),
		"RemoveStrings": f.RemoveStrings([]string{"a", "b"}, short),
		"AddKeys":       f.AddKeys(Keys{Data: []byte("abc"), Offsets: []uint64{0, 4}}),
		"RemoveKeys":    f.RemoveKeys(Keys{Data: []byte("abc"), Offsets: []uint64{0, 2, 1}}, nil),
		"TestKeys":      f.TestKeys(Keys{Data: []byte("abc"), Offsets: []uint64{0, 4}}, short),
	} {
		if !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("%s: %v, want ErrInvalidArgument", name, err)
		}
	}
}

// Every method of a closed counting filter returns ErrClosed; none reaches C.
func TestCountingUseAfterClose(t *testing.T) {
	f, err := NewCounting(100, 0.01)
	must(t, err)
	copied := *f
	must(t, f.Close())
	must(t, f.Close())
	calls := callsAfterClose(t, f)
	calls["Remove"] = f.Remove(nil)
	calls["RemoveUint64"] = f.RemoveUint64(1)
	calls["RemoveUint64s"] = f.RemoveUint64s([]uint64{1}, nil)
	calls["Clear"] = f.Clear()
	calls["Sync"] = f.Sync()
	_, calls["Stats"] = f.Stats()
	calls["copy of a closed filter"] = panicOf(func() { copied.TestString("a") })
	var zero CountingFilter
	calls["zero CountingFilter"] = panicOf(func() { zero.TestString("a") })
	wantEach(t, calls, ErrClosed, "ErrClosed", "after Close")
	if f.Params() != (CountingParams{}) {
		t.Errorf("closed filter: params %+v", f.Params())
	}
}

// Tests run beside the one writer and never miss a key whose add completed before they
// started.
func TestCountingTestsBesideOneWriter(t *testing.T) {
	f := newCounting(t, 50000, 0.01)
	ids := distinctIDs(71, 40000)
	var done atomic.Int64
	var wg sync.WaitGroup
	for r := 0; r < 2; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out := make([]bool, 256)
			for {
				n := int(done.Load())
				lo := n - 256
				if lo < 0 {
					lo = 0
				}
				if err := f.TestUint64s(ids[lo:n], out); err != nil {
					t.Error(err)
					return
				}
				for i := 0; i < n-lo; i++ {
					if !out[i] {
						t.Errorf("completed add of id %d missed", lo+i)
						return
					}
				}
				if n == len(ids) {
					return
				}
			}
		}()
	}
	for i := 0; i < len(ids); i += 100 {
		must(t, f.AddUint64s(ids[i:i+100]))
		done.Store(int64(i + 100))
	}
	wg.Wait()
}

// A copy holds the same counters, takes removes on its own, and is writable even when the
// original is a read-only mapping.
func TestCountingCopyIsEqualAndIndependent(t *testing.T) {
	f := newCounting(t, 1000, 0.01)
	must(t, f.AddString("a"))
	must(t, f.AddString("b"))
	checkCopyIsEqualAndIndependent(t, f,
		func(c *CountingFilter) error { return c.RemoveString("a") },
		func(c *CountingFilter) bool { return !c.TestString("a") })

	alike := newCounting(t, 1000, 0.01)
	must(t, alike.AddString("b"))
	must(t, alike.AddString("a"))
	// One more add of a key already in: the same bits, but a counter differs.
	twice := newCounting(t, 1000, 0.01)
	must(t, twice.AddString("a"))
	must(t, twice.AddString("a"))
	must(t, twice.AddString("b"))
	checkEqualFollowsContents(t, f, alike, twice)

	path, _ := saved(t, f)
	ro := opened(t, OpenCounting, path, true)
	c, err := ro.Copy()
	must(t, err)
	defer c.Close()
	if err := c.AddString("c"); err != nil || !c.TestString("c") {
		t.Fatalf("the copy of a read-only filter is not writable: %v", err)
	}
}
