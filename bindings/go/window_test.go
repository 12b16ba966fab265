package seen

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"time"
)

// newCountWindow is a count window closed when the test ends.
func newCountWindow(t testing.TB, n uint32, fpr float64, opts ...WindowOption) *Window {
	t.Helper()
	w, err := NewCountWindow(n, fpr, opts...)
	return closedAtEnd(t, w, err)
}

// foundCount is how many of ids the window reports at now.
func foundCount(t testing.TB, w *Window, ids []uint64, now uint32) int {
	t.Helper()
	out := make([]bool, len(ids))
	must(t, w.TestUint64s(ids, now, out))
	n := 0
	for _, b := range out {
		if b {
			n++
		}
	}
	return n
}

// The span guarantee, checked against the exact slice of the last n ids after every batch
// of a stream (batches of 1 to 97 ids, singles among them), for each layout; then items
// past the slack are forgotten, and fresh ids are found at about the predicted rate.
func TestCountWindowSpan(t *testing.T) {
	for _, c := range []struct {
		n      int
		fpr    float64
		layout WindowLayout
	}{{100, 0.01, RingLayout}, {500, 0.01, PackedLayout}, {500, 0.001, SlicedLayout}} {
		t.Run(c.layout.String(), func(t *testing.T) {
			n := c.n
			w := newCountWindow(t, uint32(n), c.fpr, WithSeed(11))
			info := w.Info()
			if info.Mode != CountWindow || info.Layout != c.layout || info.Span != uint32(n) || info.Seed != 11 {
				t.Fatalf("info %+v", info)
			}
			if info.PredictedFPR > c.fpr || info.Slack > 0.25 || info.StateBytes == 0 {
				t.Errorf("info %+v does not meet fpr %g within slack 0.25", info, c.fpr)
			}
			ids := distinctIDs(21, 6000)
			added := 0
			for step := 1; added < len(ids); step = step%97 + 1 {
				end := added + step
				if end > len(ids) {
					end = len(ids)
				}
				batch := ids[added:end]
				if len(batch) == 1 {
					must(t, w.AddUint64(batch[0], 0))
				} else {
					must(t, w.AddUint64s(batch, 0))
				}
				added += len(batch)
				first := added - n
				if first < 0 {
					first = 0
				}
				last := ids[first:added]
				if got := foundCount(t, w, last, 0); got != len(last) {
					t.Fatalf("after %d adds only %d of the last %d are found", added, got, len(last))
				}
			}
			// Past the span plus its slack, an item is as forgotten as one never added.
			kept := int(math.Ceil(float64(n)*(1+info.Slack))) + 1
			old := ids[:len(ids)-kept]
			if rate := float64(foundCount(t, w, old, 0)) / float64(len(old)); rate > 3*c.fpr+0.005 {
				t.Errorf("%.4f of the items older than %d adds are still found", rate, kept)
			}
			fresh := distinctIDs(22, 50000)
			if rate := float64(foundCount(t, w, fresh, 0)) / float64(len(fresh)); rate > 1.3*c.fpr+0.0005 {
				t.Errorf("measured fpr %.5f, target %g (predicted %.5f)", rate, c.fpr, info.PredictedFPR)
			}
		})
	}
}

// A time window under a controlled clock: 5 items a minute for five hours. Every item of the
// last span seconds is found at every step; items older than span plus one bucket are
// forgotten.
func TestTimeWindow(t *testing.T) {
	const span, start = 3600, 1_000_000
	w, err := NewTimeWindow(span, 300, 0.01, start, WithSeed(3))
	must(t, err)
	defer w.Close()
	info := w.Info()
	if info.Mode != TimeWindow || info.Layout != TableLayout || info.Span < span || info.PredictedFPR > 0.01 {
		t.Fatalf("info %+v", info)
	}
	ids := distinctIDs(31, 5*300)
	at := make([]uint32, len(ids))
	for i := range ids {
		now := uint32(start + 60*(i/5))
		at[i] = now
		must(t, w.AddUint64(ids[i], now))
		if i%5 != 4 {
			continue
		}
		var recent []uint64
		for j := i; j >= 0 && now-at[j] <= span; j-- {
			recent = append(recent, ids[j])
		}
		if got := foundCount(t, w, recent, now); got != len(recent) {
			t.Fatalf("at +%d s only %d of the %d items of the last hour are found", now-start, got, len(recent))
		}
	}
	now := at[len(at)-1]
	limit := uint32(math.Ceil(span * (1 + info.Slack)))
	var old []uint64
	for i := range ids {
		if now-at[i] > limit {
			old = append(old, ids[i])
		}
	}
	if rate := float64(foundCount(t, w, old, now)) / float64(len(old)); rate > 0.035 {
		t.Errorf("%.4f of the %d items older than %d s are still found", rate, len(old), limit)
	}
	// Hours later, with no adds in between, a query alone sees everything expire.
	if got := foundCount(t, w, ids[len(ids)-100:], now+2*span); got > 5 {
		t.Errorf("%d of 100 items are still found two spans later", got)
	}
}

// A clock that goes backwards (skew between servers) never makes the window forget early:
// it only delays rotation.
func TestTimeWindowClockBackwards(t *testing.T) {
	const span, start = 600, 50_000
	w, err := NewTimeWindow(span, 100, 0.01, start)
	must(t, err)
	defer w.Close()
	ids := distinctIDs(41, 200)
	must(t, w.AddUint64s(ids[:100], start+500))
	must(t, w.AddUint64s(ids[100:], start+100)) // 400 s in the past
	for _, now := range []uint32{start, start + 100, start + 500, start + 600} {
		if got := foundCount(t, w, ids, now); got != len(ids) {
			t.Errorf("at +%d s only %d of %d items are found", now-start, got, len(ids))
		}
	}
	if got := foundCount(t, w, ids[:100], start+500+span); got != 100 {
		t.Errorf("a full span after their add, %d of 100 items are found", got)
	}
}

// The memory-budget constructor: the last n items in at most maxBytes of state.
func TestCountWindowWithBytes(t *testing.T) {
	for _, c := range []struct {
		n     uint32
		bytes uint64
	}{{500, 1024}, {400, 500}, {500, 4096}} {
		w, err := NewCountWindowWithBytes(c.n, c.bytes)
		must(t, err)
		info := w.Info()
		if info.Span != c.n || info.StateBytes > c.bytes || info.PredictedFPR <= 0 || info.PredictedFPR >= 1 {
			t.Errorf("(%d, %d B): info %+v", c.n, c.bytes, info)
		}
		ids := distinctIDs(int64(c.bytes), 3*int(c.n))
		must(t, w.AddUint64s(ids, 0))
		if got := foundCount(t, w, ids[len(ids)-int(c.n):], 0); got != int(c.n) {
			t.Errorf("(%d, %d B): %d of the last %d found", c.n, c.bytes, got, c.n)
		}
		w.Close()
	}
	small, _ := NewCountWindowWithBytes(500, 1024)
	large, _ := NewCountWindowWithBytes(500, 4096)
	defer small.Close()
	defer large.Close()
	if small.Info().PredictedFPR <= large.Info().PredictedFPR {
		t.Errorf("4 KiB predicts %g, no better than 1 KiB's %g", large.Info().PredictedFPR, small.Info().PredictedFPR)
	}
}

func TestWindowOptions(t *testing.T) {
	a := newCountWindow(t, 200, 0.001, WithSeed(1))
	b := newCountWindow(t, 200, 0.001, WithSeed(2))
	ids := distinctIDs(51, 300)
	must(t, a.AddUint64s(ids, 0))
	must(t, b.AddUint64s(ids, 0))
	ab, _ := a.MarshalBinary()
	bb, _ := b.MarshalBinary()
	if bytes.Equal(ab, bb) || a.Info().Seed != 1 || b.Info().Seed != 2 {
		t.Error("the seed changes nothing")
	}
	tight := newCountWindow(t, 200, 0.001, WithMaxSlack(0.1))
	if s := tight.Info().Slack; s > 0.1 {
		t.Errorf("slack %g past WithMaxSlack(0.1)", s)
	}
	if got := LastItems(5, 0.5, WithSeed(9), WithMaxSlack(0.5)); got != (WindowOptions{
		Mode: CountWindow, Span: 5, FPR: 0.5, Seed: 9, MaxSlack: 0.5}) {
		t.Errorf("LastItems: %+v", got)
	}
	if got := LastSeconds(60, 10, 0.1); got != (WindowOptions{Mode: TimeWindow, Span: 60, ExpectedItems: 10, FPR: 0.1}) {
		t.Errorf("LastSeconds: %+v", got)
	}
	if got := LastItemsWithin(5, 64); got != (WindowOptions{Mode: CountWindow, Span: 5, MaxBytes: 64}) {
		t.Errorf("LastItemsWithin: %+v", got)
	}
	if CountWindow.String() != "count" || TimeWindow.String() != "time" || RingLayout.String() != "ring" ||
		SlicedLayout.String() != "sliced" || WindowMode(7).String() != "WindowMode(7)" {
		t.Error("String of a mode or layout")
	}
}

// Byte keys, strings and batches of both name the same keys; the empty key is a key.
func TestWindowKeys(t *testing.T) {
	w := newCountWindow(t, 100, 0.001)
	must(t, w.Add([]byte("新闻:1"), 0))
	must(t, w.AddString("", 0))
	must(t, w.AddStrings([]string{"a", "bb"}, 0))
	var batch Keys
	batch.AppendString("ccc")
	batch.Append([]byte{0, 1, 2})
	must(t, w.AddKeys(batch, 0))
	present := []string{"新闻:1", "", "a", "bb", "ccc", "\x00\x01\x02"}
	for _, k := range present {
		s, b := w.TestString(k, 0), w.Test([]byte(k), 0)
		if !s || !b {
			t.Errorf("key %q: TestString %v, Test %v", k, s, b)
		}
	}
	out := make([]bool, len(present)+1)
	must(t, w.TestStrings(append(present, "absent"), 0, out))
	for i, k := range present {
		if !out[i] {
			t.Errorf("TestStrings misses %q", k)
		}
	}
	if out[len(present)] {
		t.Error("TestStrings finds a key never added (at 0.1%)")
	}
	must(t, w.AddKeys(Keys{}, 0)) // an empty batch is a no-op
	must(t, w.TestKeys(Keys{}, 0, nil))
	// An id is the key of its 8 little-endian bytes, as in a BloomFilter.
	must(t, w.AddUint64(0x0102030405060708, 0))
	if !w.Test([]byte{8, 7, 6, 5, 4, 3, 2, 1}, 0) {
		t.Error("an id is not the key of its little-endian bytes")
	}
}

func TestWindowInvalidArguments(t *testing.T) {
	bad := map[string]WindowOptions{
		"fpr 0":                   LastItems(500, 0),
		"fpr 1":                   LastItems(500, 1),
		"span 0":                  LastItems(0, 0.01),
		"no expected items":       LastSeconds(3600, 0, 0.01),
		"time cap under 2x start": {Mode: TimeWindow, Span: 60, ExpectedItems: 10, FPR: 0.01, MaxBytes: 10},
		"no mode":                 {Span: 10, FPR: 0.01},
		"negative slack":          LastItems(500, 0.01, WithMaxSlack(-1)),
		"unknown mode":            {Mode: 9, Span: 10, FPR: 0.01},
		"fpr above 1":             LastSeconds(60, 10, 1.5),
		"NaN fpr":                 LastItems(10, math.NaN()),
		"time window too short":   LastSeconds(2, 10, 0.01),
	}
	for name, o := range bad {
		w, err := NewWindow(o, 0)
		var e *Error
		if !errors.Is(err, ErrInvalidArgument) || w != nil || !errors.As(err, &e) || e.Message == "" {
			t.Errorf("%s: %v, %v; want ErrInvalidArgument with a message", name, w, err)
		}
	}
	_, err := NewWindow(WindowOptions{Mode: 9, Span: 10, FPR: 0.01}, 0)
	if !strings.Contains(err.Error(), "mode") {
		t.Errorf("the error does not name the field: %v", err)
	}
	w := newCountWindow(t, 10, 0.01)
	if err := w.TestUint64s([]uint64{1, 2}, 0, make([]bool, 1)); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("TestUint64s with a short out: %v", err)
	}
	if err := w.TestStrings([]string{"a", "b"}, 0, make([]bool, 1)); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("TestStrings with a short out: %v", err)
	}
	for _, k := range []Keys{
		{Data: []byte("abc"), Offsets: []uint64{0, 4}},
		{Data: []byte("abc"), Offsets: []uint64{0, 2, 1}},
	} {
		if err := w.AddKeys(k, 0); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("AddKeys(%v): %v", k.Offsets, err)
		}
		if err := w.TestKeys(k, 0, make([]bool, 2)); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("TestKeys(%v): %v", k.Offsets, err)
		}
	}
}

func TestWindowMarshalRoundTrip(t *testing.T) {
	for _, o := range []WindowOptions{LastItems(300, 0.01), LastItems(300, 0.0001), LastSeconds(600, 200, 0.01)} {
		t.Run(fmt.Sprintf("%v %v", o.Mode, o.FPR), func(t *testing.T) {
			w, err := NewWindow(o, 100)
			must(t, err)
			defer w.Close()
			ids := distinctIDs(61, 250)
			must(t, w.AddUint64s(ids, 400))
			must(t, w.AddString("key", 400))
			g, _ := roundTrip[Window](t, w)
			if g.Info() != w.Info() {
				t.Errorf("info %+v, want %+v", g.Info(), w.Info())
			}
			if got := foundCount(t, g, ids, 400); got != len(ids) {
				t.Errorf("%d of %d ids survive the round trip", got, len(ids))
			}
			must(t, g.AddUint64(1, 401)) // a deserialized window is writable
		})
	}
}

// Each kind of damage gets its own status; a failed UnmarshalBinary leaves the receiver as
// it was.
func TestWindowCorruptInput(t *testing.T) {
	w := newCountWindow(t, 200, 0.001)
	must(t, w.AddString("x", 0))
	for _, c := range corruptForms(t, w, newFilter(t, 100, 0.01)) {
		g := newCountWindow(t, 10, 0.01)
		must(t, g.AddString("kept", 0))
		wantRefused(t, c, g.UnmarshalBinary(c.input))
		if !g.TestString("kept", 0) {
			t.Errorf("%s: a failed UnmarshalBinary changed the window", c.name)
		}
	}
}

func TestWindowUseAfterClose(t *testing.T) {
	w, err := NewCountWindow(10, 0.01)
	must(t, err)
	must(t, w.Close())
	must(t, w.Close())
	calls := map[string]error{
		"Add":         w.Add(nil, 0),
		"AddString":   w.AddString("a", 0),
		"AddUint64":   w.AddUint64(1, 0),
		"AddUint64s":  w.AddUint64s([]uint64{1}, 0),
		"TestUint64s": w.TestUint64s([]uint64{1}, 0, make([]bool, 1)),
		"AddStrings":  w.AddStrings([]string{"a"}, 0),
		"TestKeys":    w.TestKeys(PackStrings([]string{"a"}), 0, make([]bool, 1)),
	}
	calls["Test"] = panicOf(func() { w.Test(nil, 0) })
	calls["TestString"] = panicOf(func() { w.TestString("a", 0) })
	calls["TestUint64"] = panicOf(func() { w.TestUint64(1, 0) })
	_, calls["MarshalBinary"] = w.MarshalBinary()
	var zero Window
	calls["zero Window"] = panicOf(func() { zero.TestUint64(1, 0) })
	g, _ := NewCountWindow(10, 0.01)
	copied := *g
	must(t, g.Close())
	calls["copy of a closed Window"] = panicOf(func() { copied.TestUint64(1, 0) })
	for name, err := range calls {
		if !errors.Is(err, ErrClosed) || !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("%s after Close: %v, want ErrClosed", name, err)
		}
	}
	if w.Info() != (WindowInfo{}) {
		t.Errorf("closed window: info %+v", w.Info())
	}
}

// Tests may run concurrently with each other (adds may not): answers stay exact.
func TestWindowConcurrentTests(t *testing.T) {
	w := newCountWindow(t, 1000, 0.01)
	ids := distinctIDs(71, 1000)
	must(t, w.AddUint64s(ids, 0))
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				if got := foundCount(t, w, ids, 0); got != len(ids) {
					t.Errorf("a concurrent test found %d of %d", got, len(ids))
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestUnixSeconds(t *testing.T) {
	for _, c := range []struct {
		t    time.Time
		want uint32
	}{
		{time.Unix(1_700_000_000, 999), 1_700_000_000},
		{time.Unix(-5, 0), 0},
		{time.Unix(1<<33, 0), math.MaxUint32},
	} {
		if got := UnixSeconds(c.t); got != c.want {
			t.Errorf("UnixSeconds(%v) = %d, want %d", c.t, got, c.want)
		}
	}
}

// A copy of a time window keeps its contents and its clock, and moves on its own.
func TestWindowCopyIsEqualAndIndependent(t *testing.T) {
	const span, start = 3600, 1_000_000
	newWindow := func(seed uint64) *Window {
		w, err := NewTimeWindow(span, 300, 0.01, start, WithSeed(seed))
		must(t, err)
		t.Cleanup(func() { w.Close() })
		must(t, w.AddUint64s([]uint64{1, 2, 3}, start+10))
		return w
	}
	w := newWindow(3)
	c, err := w.Copy()
	must(t, err)
	defer c.Close()
	if !c.TestUint64(2, start+10) || c.Info() != w.Info() {
		t.Fatalf("the copy lost contents or clock: %+v, want %+v", c.Info(), w.Info())
	}
	checkCopyIsEqualAndIndependent(t, w,
		func(c *Window) error { return c.AddUint64(4, start+20) },
		func(c *Window) bool { return c.TestUint64(4, start+20) })
	checkEqualFollowsContents(t, w, newWindow(3), newWindow(4))
}
