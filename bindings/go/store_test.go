package seen

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// newStore is a store closed when the test ends; a small index keeps tests light.
func newStore(t testing.TB, opts StoreOptions) *ExposureStore {
	t.Helper()
	if opts.ExpectedUsers == 0 {
		opts.ExpectedUsers = 1024
	}
	s, err := NewExposureStore(opts)
	return closedAtEnd(t, s, err)
}

// unseenOf is the candidates the store says the user has not seen.
func unseenOf(t testing.TB, s *ExposureStore, user uint64, candidates []uint64, now uint32) []uint64 {
	t.Helper()
	out := make([]bool, len(candidates))
	must(t, s.Filter(user, candidates, now, out))
	var unseen []uint64
	for i, u := range out {
		if u {
			unseen = append(unseen, candidates[i])
		}
	}
	return unseen
}

func sequence(from, n uint64) []uint64 {
	s := make([]uint64, n)
	for i := range s {
		s[i] = from + uint64(i)
	}
	return s
}

func equalIDs(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestStoreFilterMarkTake(t *testing.T) {
	s := newStore(t, StoreOptions{Window: LastItems(500, 0.001)})
	candidates := sequence(1000, 100)
	if got := unseenOf(t, s, 1, candidates, 10); !equalIDs(got, candidates) {
		t.Fatalf("an unknown user has seen %d candidates", 100-len(got))
	}
	must(t, s.Mark(1, candidates[:10], 10))
	if got := unseenOf(t, s, 1, candidates, 10); !equalIDs(got, candidates[10:]) {
		t.Errorf("after marking 10, unseen %v", got)
	}
	page, err := s.Take(1, candidates, 30, 10)
	must(t, err)
	if !equalIDs(page, candidates[10:40]) {
		t.Errorf("first page %v, want the 30 after the marked ones, in order", page)
	}
	page, err = s.Take(1, candidates, 30, 10)
	must(t, err)
	if !equalIDs(page, candidates[40:70]) {
		t.Errorf("second page %v", page)
	}
	page, err = s.Take(1, candidates, 1000, 10) // want more than there are
	must(t, err)
	if !equalIDs(page, candidates[70:]) {
		t.Errorf("last page %v", page)
	}
	if page, err = s.Take(1, candidates, 10, 10); err != nil || len(page) != 0 {
		t.Errorf("a page once all are seen: %v, %v", page, err)
	}
	// A candidate listed twice is taken once.
	if page, _ = s.Take(2, []uint64{7, 7, 8}, 3, 10); !equalIDs(page, []uint64{7, 8}) {
		t.Errorf("take with a duplicate: %v", page)
	}
	if page, err = s.Take(3, candidates, 0, 10); err != nil || len(page) != 0 {
		t.Errorf("want 0: %v, %v", page, err)
	}
	if _, err = s.Take(3, candidates, -1, 10); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("want -1: %v", err)
	}
	if err := s.Filter(1, candidates, 10, make([]bool, 99)); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("Filter with a short unseen: %v", err)
	}
	must(t, s.Filter(1, nil, 10, nil))
	must(t, s.Mark(4, nil, 10))
	st, err := s.Stats()
	must(t, err)
	if st.Users < 2 || st.Users > 4 || st.Bytes == 0 || st.Evictions != 0 || st.Expirations != 0 {
		t.Errorf("stats %+v", st)
	}
	if info := s.WindowInfo(); info.Span != 500 || info.Mode != CountWindow || info.PredictedFPR > 0.001 {
		t.Errorf("window info %+v", info)
	}
}

// Each user's window keeps its span guarantee inside the store: after a stream of marks, the
// last 500 are all filtered out, for every user, and the users do not see each other's items.
func TestStoreSpanPerUser(t *testing.T) {
	s := newStore(t, StoreOptions{Window: LastItems(500, 0.01)})
	for user := uint64(0); user < 20; user++ {
		ids := distinctIDs(int64(user), 2000)
		for i := 0; i < len(ids); i += 100 {
			must(t, s.Mark(user, ids[i:i+100], 100))
		}
		if got := unseenOf(t, s, user, ids[1500:], 100); len(got) != 0 {
			t.Fatalf("user %d: %d of their last 500 items are unseen", user, len(got))
		}
	}
	fresh := distinctIDs(99, 20000)
	if seen := len(fresh) - len(unseenOf(t, s, 3, fresh, 100)); seen > 300 {
		t.Errorf("%d of 20000 fresh ids filtered out for a 1%% window", seen)
	}
}

// Concurrent Takes for one user from many goroutines: no item is handed out twice, and
// together they drain every candidate (the window is big enough to forget none).
func TestStoreConcurrentTakes(t *testing.T) {
	s := newStore(t, StoreOptions{Window: LastItems(5000, 0.0001)})
	const user = 42
	candidates := sequence(1, 4000)
	const workers = 8
	got := make([][]uint64, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		w := w
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				page, err := s.Take(user, candidates, 25, 7)
				if err != nil {
					t.Error(err)
					return
				}
				if len(page) == 0 {
					return
				}
				got[w] = append(got[w], page...)
				// Other users' traffic on other shards meanwhile. (t.Fatal may not run here,
				// off the test's goroutine.)
				if err := s.Mark(uint64(1000+w), page, 7); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	var all []uint64
	for _, g := range got {
		all = append(all, g...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	for i := 1; i < len(all); i++ {
		if all[i] == all[i-1] {
			t.Fatalf("item %d was taken twice", all[i])
		}
	}
	// A false positive may hide a candidate from every page, rarely at 0.01%.
	if len(all) < len(candidates)-5 || len(all) > len(candidates) {
		t.Errorf("%d of %d candidates were taken", len(all), len(candidates))
	}
}

// Filter, Mark and Stats from many goroutines and users at once (run under -race too).
func TestStoreConcurrentUse(t *testing.T) {
	s := newStore(t, StoreOptions{Window: LastItems(200, 0.01)})
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		w := w
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				user := uint64(w*1000 + i%50)
				items := sequence(uint64(i*10), 10)
				if err := s.Mark(user, items, 5); err != nil {
					t.Error(err)
					return
				}
				if unseen := unseenOf(t, s, user, items, 5); len(unseen) != 0 {
					t.Errorf("user %d: items just marked are unseen: %v", user, unseen)
					return
				}
				if _, err := s.Stats(); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if st, _ := s.Stats(); st.Users != 200 {
		t.Errorf("%d users, want 200", st.Users)
	}
}

// Users idle longer than IdleTimeout are dropped by Expire (and forgotten by Filter); active
// ones stay. Activity is kept by the hour.
func TestStoreIdleExpiry(t *testing.T) {
	const hour = 3600
	s := newStore(t, StoreOptions{Window: LastItems(100, 0.01), IdleTimeout: time.Hour})
	t0 := uint32(1_000_000)
	for user := uint64(0); user < 10; user++ {
		must(t, s.Mark(user, []uint64{user}, t0))
	}
	for h := uint32(1); h <= 4; h++ { // user 3 stays active: never two hours idle
		must(t, s.Mark(3, []uint64{33}, t0+h*hour))
	}
	if dropped, err := s.Expire(t0 + 4*hour); err != nil || dropped != 9 {
		t.Errorf("Expire dropped %d (%v), want the 9 idle users", dropped, err)
	}
	st, _ := s.Stats()
	if st.Users != 1 || st.Expirations != 9 {
		t.Errorf("stats after expiry %+v", st)
	}
	if unseen := unseenOf(t, s, 3, []uint64{3, 33}, t0+4*hour); len(unseen) != 0 {
		t.Errorf("the active user lost items: %v unseen", unseen)
	}
	if unseen := unseenOf(t, s, 5, []uint64{5}, t0+4*hour); len(unseen) != 1 {
		t.Error("an expired user still has their items")
	}
	// Default: 24 hours. NeverIdle: kept however long.
	d := newStore(t, StoreOptions{Window: LastItems(100, 0.01)})
	never := newStore(t, StoreOptions{Window: LastItems(100, 0.01), IdleTimeout: NeverIdle})
	for _, x := range []*ExposureStore{d, never} {
		must(t, x.Mark(1, []uint64{1}, t0))
	}
	for _, c := range []struct {
		s    *ExposureStore
		now  uint32
		want uint64
	}{{d, t0 + 20*hour, 0}, {d, t0 + 26*hour, 1}, {never, t0 + 10000*hour, 0}} {
		if dropped, err := c.s.Expire(c.now); err != nil || dropped != c.want {
			t.Errorf("Expire at +%d h dropped %d (%v), want %d", (c.now-t0)/hour, dropped, err, c.want)
		}
	}
}

func TestIdleSeconds(t *testing.T) {
	for d, want := range map[time.Duration]uint32{
		0: 0, NeverIdle: 1<<32 - 1, -time.Hour: 1<<32 - 1, time.Millisecond: 1, time.Hour: 3600,
		90 * time.Second: 90, 1<<63 - 1: 1<<32 - 1,
	} {
		if got := idleSeconds(d); got != want {
			t.Errorf("idleSeconds(%v) = %d, want %d", d, got, want)
		}
	}
}

// At the memory bound a new user evicts the least recently active of a sample, counted in
// the stats; memory stays near the bound, recently active users keep their windows, and
// the user being written is never the one evicted.
func TestStoreMemoryBound(t *testing.T) {
	window := LastItems(100, 0.01)
	probe := newStore(t, StoreOptions{Window: window})
	perUser := probe.WindowInfo().StateBytes + 16
	const bound = 64 * 20 // users' worth: about 20 per shard
	s := newStore(t, StoreOptions{Window: window, MaxBytes: bound * perUser, ExpectedUsers: 64 * 16})
	t0 := uint32(0)
	// Old users, all idle since t0; then recent ones, hours later.
	for user := uint64(0); user < 64*10; user++ {
		must(t, s.Mark(user, []uint64{user}, t0))
	}
	recent := sequence(1_000_000, 64*15)
	for i, user := range recent {
		now := t0 + 10*3600 + uint32(i)
		must(t, s.Mark(user, []uint64{user}, now))
		if unseen := unseenOf(t, s, user, []uint64{user}, now); len(unseen) != 0 {
			t.Fatalf("user %d, just written, was evicted", user)
		}
	}
	st, err := s.Stats()
	must(t, err)
	if st.Evictions == 0 || st.Users+st.Evictions != 64*25 || st.Bytes > bound*perUser*11/10 {
		t.Errorf("stats %+v at a bound of %d bytes", st, bound*perUser)
	}
	now := t0 + 20*3600
	kept := 0
	for _, user := range recent {
		if len(unseenOf(t, s, user, []uint64{user}, now)) == 0 {
			kept++
		}
	}
	if kept < len(recent)*95/100 {
		t.Errorf("only %d of %d recently active users kept their window; %d evictions", kept, len(recent), st.Evictions)
	}
}

func TestStoreSaveOpen(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "exposure.seen")
	s := newStore(t, StoreOptions{Window: LastSeconds(86400, 1000, 0.01), IdleTimeout: 48 * time.Hour})
	candidates := sequence(1, 100)
	for user := uint64(1); user <= 50; user++ {
		must(t, s.Mark(user, candidates[:user], 1000))
	}
	must(t, s.Save(path))
	want, _ := s.Stats()
	for _, verify := range []bool{true, false} {
		for _, readOnly := range []bool{true, false} {
			back, err := OpenExposureStore(path, readOnly, verify)
			must(t, err)
			if back.WindowInfo() != s.WindowInfo() {
				t.Errorf("window info %+v, want %+v", back.WindowInfo(), s.WindowInfo())
			}
			if st, _ := back.Stats(); st.Users != want.Users {
				t.Errorf("%d users reopened, want %d", st.Users, want.Users)
			}
			for user := uint64(1); user <= 50; user++ {
				if got := unseenOf(t, back, user, candidates, 2000); !equalIDs(got, candidates[user:]) {
					t.Fatalf("user %d after reopening: %d unseen, want %d", user, len(got), 100-user)
				}
			}
			back.Close()
		}
	}
	// Read-write: changes live in memory until Save; the file is never written in place.
	before, _ := os.ReadFile(path)
	rw, err := OpenExposureStore(path, false, true)
	must(t, err)
	defer rw.Close()
	must(t, rw.Mark(1, candidates, 3000))
	page, err := rw.Take(77, candidates, 5, 3000)
	must(t, err)
	if !equalIDs(page, candidates[:5]) {
		t.Errorf("take on a reopened store: %v", page)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("a read-write store wrote its file before Save")
	}
	must(t, rw.Save(path))
	again, err := OpenExposureStore(path, true, true)
	must(t, err)
	defer again.Close()
	if got := unseenOf(t, again, 1, candidates, 3000); len(got) != 0 {
		t.Errorf("a mark through a read-write open is lost after Save: %d unseen", len(got))
	}
	if got := unseenOf(t, again, 77, candidates[:6], 3000); !equalIDs(got, candidates[5:6]) {
		t.Errorf("a take through a read-write open is lost after Save: %v unseen", got)
	}
	// The idle timeout travels with the file: 48 h, not the default 24 h.
	rw2, err := OpenExposureStore(path, false, true)
	must(t, err)
	defer rw2.Close()
	if dropped, _ := rw2.Expire(3000 + 30*3600); dropped != 0 {
		t.Errorf("%d users expired after 30 h with a 48 h timeout", dropped)
	}
}

func TestStoreReadOnlyRefusesWrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.seen")
	s := newStore(t, StoreOptions{Window: LastItems(100, 0.01)})
	must(t, s.Mark(1, []uint64{10}, 5))
	must(t, s.Save(path))
	ro, err := OpenExposureStore(path, true, true)
	must(t, err)
	defer ro.Close()
	_, takeErr := ro.Take(1, []uint64{11}, 1, 5)
	_, expireErr := ro.Expire(1 << 30)
	for name, err := range map[string]error{
		"Mark":               ro.Mark(1, []uint64{11}, 5),
		"Mark of a new user": ro.Mark(2, []uint64{11}, 5),
		"Take":               takeErr,
		"Expire":             expireErr,
		"Mark of nothing":    ro.Mark(1, nil, 5),
	} {
		if !errors.Is(err, ErrReadOnly) {
			t.Errorf("%s on a read-only store: %v, want ErrReadOnly", name, err)
		}
	}
	if got := unseenOf(t, ro, 1, []uint64{10, 11}, 5); !equalIDs(got, []uint64{11}) {
		t.Errorf("read-only filter: unseen %v", got)
	}
	// Saving a read-only store elsewhere is a read: allowed.
	must(t, ro.Save(filepath.Join(t.TempDir(), "copy.seen")))
}

// A corrupt or truncated store file is refused with its own status and a message naming the
// file; a failed Save leaves the previous file intact.
func TestStoreCorruptFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "good.seen")
	s := newStore(t, StoreOptions{Window: LastItems(100, 0.01)})
	for user := uint64(0); user < 100; user++ {
		must(t, s.Mark(user, sequence(user, 20), 9))
	}
	must(t, s.Save(path))
	good, err := os.ReadFile(path)
	must(t, err)
	w := newCountWindow(t, 10, 0.01)
	windowBytes, _ := w.MarshalBinary()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		must(t, os.WriteFile(p, b, 0o644))
		return p
	}
	flip := func(i int) []byte {
		b := append([]byte(nil), good...)
		b[i] ^= 0x10
		return b
	}
	cases := []struct {
		name string
		path string
		want Status
	}{
		{"missing", filepath.Join(dir, "absent.seen"), ErrIO},
		{"empty", write("empty", nil), ErrTruncated},
		{"truncated", write("truncated", good[:len(good)/2]), ErrTruncated},
		{"last byte cut", write("cut", good[:len(good)-1]), ErrTruncated},
		{"bad magic", write("magic", flip(0)), ErrBadMagic},
		{"payload bit flipped", write("flipped", flip(len(good)-1)), ErrBadChecksum},
		{"a window", write("window", windowBytes), ErrWrongKind},
		{"not a seen file", write("text", []byte(strings.Repeat("users ", 100))), ErrBadMagic},
	}
	for _, c := range cases {
		for _, readOnly := range []bool{true, false} {
			st, err := OpenExposureStore(c.path, readOnly, true)
			var e *Error
			if !errors.Is(err, c.want) || st != nil || !errors.As(err, &e) || e.Message == "" {
				t.Errorf("%s: %v; want %v with a message", c.name, err, c.want)
			} else if !strings.Contains(e.Message, filepath.Base(c.path)) {
				t.Errorf("%s: the message does not name the file: %q", c.name, e.Message)
			}
		}
	}
	// Without verify the payload checksum is skipped: the store opens, and a window whose
	// header is damaged is refused (ErrInconsistent) when its user is read. Nothing crashes.
	if st, err := OpenExposureStore(write("flipped2", flip(len(good)-1)), true, false); err == nil {
		for user := uint64(0); user < 100; user++ {
			if err := st.Filter(user, []uint64{1}, 9, make([]bool, 1)); err != nil && !errors.Is(err, ErrInconsistent) {
				t.Errorf("an unverified damaged store: %v", err)
			}
		}
		st.Close()
	}
	// A failed Save (its directory is gone) leaves the previous file as it was.
	if err := s.Save(filepath.Join(dir, "no such dir", "x.seen")); !errors.Is(err, ErrIO) {
		t.Errorf("Save into a missing directory: %v", err)
	}
	// A Save whose final rename fails (the path is a directory, which even root cannot
	// replace by a file) leaves what was there, and no temporary file behind.
	occupied := filepath.Join(dir, "occupied")
	must(t, os.MkdirAll(filepath.Join(occupied, "inside"), 0o700))
	if err := s.Save(occupied); !errors.Is(err, ErrIO) {
		t.Errorf("Save over a directory: %v", err)
	}
	if fi, err := os.Stat(filepath.Join(occupied, "inside")); err != nil || !fi.IsDir() {
		t.Errorf("a failed Save damaged what was at its path (%v)", err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "occupied?*")); len(left) != 0 {
		t.Errorf("a failed Save left %v", left)
	}
	must(t, os.Chmod(dir, 0o500))
	defer os.Chmod(dir, 0o700)
	must(t, s.Mark(500, []uint64{1}, 9))
	if err := s.Save(path); err == nil && os.Geteuid() != 0 {
		t.Error("Save into a read-only directory succeeded")
	}
	if after, _ := os.ReadFile(path); os.Geteuid() != 0 && !bytes.Equal(after, good) {
		t.Error("a failed Save changed the previous file")
	}
}

func TestStoreInvalidOptions(t *testing.T) {
	for name, o := range map[string]StoreOptions{
		"no window":    {},
		"bad fpr":      {Window: LastItems(100, 2)},
		"time, no n":   {Window: LastSeconds(60, 0, 0.01)},
		"unknown mode": {Window: WindowOptions{Mode: 3, Span: 10, FPR: 0.01}},
	} {
		s, err := NewExposureStore(o)
		if !errors.Is(err, ErrInvalidArgument) || s != nil {
			t.Errorf("%s: %v, %v; want ErrInvalidArgument", name, s, err)
		}
	}
}

func TestStoreUseAfterClose(t *testing.T) {
	s, err := NewExposureStore(StoreOptions{Window: LastItems(10, 0.01), ExpectedUsers: 64})
	must(t, err)
	must(t, s.Close())
	must(t, s.Close())
	calls := map[string]error{
		"Filter": s.Filter(1, []uint64{1}, 0, make([]bool, 1)),
		"Mark":   s.Mark(1, []uint64{1}, 0),
		"Save":   s.Save(filepath.Join(t.TempDir(), "x")),
	}
	_, calls["Take"] = s.Take(1, []uint64{1}, 1, 0)
	_, calls["Expire"] = s.Expire(0)
	_, calls["Stats"] = s.Stats()
	var zero ExposureStore
	calls["zero ExposureStore"] = zero.Mark(1, nil, 0)
	for name, err := range calls {
		if !errors.Is(err, ErrClosed) {
			t.Errorf("%s after Close: %v, want ErrClosed", name, err)
		}
	}
	if s.WindowInfo() != (WindowInfo{}) {
		t.Error("a closed store has window info")
	}
}

// Users' time windows under a controlled clock: items fade after the span (plus one bucket),
// and a clock that goes backwards never hides a recent exposure.
func TestStoreTimeWindows(t *testing.T) {
	s := newStore(t, StoreOptions{Window: LastSeconds(600, 100, 0.01), IdleTimeout: NeverIdle})
	slack := s.WindowInfo().Slack
	const t0 = 100_000
	must(t, s.Mark(1, []uint64{10, 11}, t0))
	must(t, s.Mark(1, []uint64{12}, t0-300)) // a server whose clock is behind
	for _, now := range []uint32{t0 - 300, t0, t0 + 200} {
		if got := unseenOf(t, s, 1, []uint64{10, 11, 12}, now); len(got) != 0 {
			t.Errorf("at %+d s, %v are unseen", int(now)-t0, got)
		}
	}
	later := uint32(t0 + 600*(1+slack) + 601)
	if got := unseenOf(t, s, 1, []uint64{10, 11, 12}, later); len(got) != 3 {
		t.Errorf("past the span and its slack, only %v are unseen", got)
	}
}
