package seen

import (
	"bytes"
	"errors"
	"math/rand"
	"path/filepath"
	"reflect"
	"sort"
	"sync"
	"testing"
)

// nearFingerprints are n fingerprints around n/8 random centres, each 0..maxFlip random bits
// away from its centre, with ids 1..n; queries mix such neighbours with random fingerprints.
func nearFingerprints(r *rand.Rand, n, maxFlip int) []uint64 {
	centres := make([]uint64, n/8+1)
	for i := range centres {
		centres[i] = r.Uint64()
	}
	fps := make([]uint64, n)
	for i := range fps {
		fp := centres[r.Intn(len(centres))]
		for f := r.Intn(maxFlip + 1); f > 0; f-- {
			fp ^= 1 << uint(r.Intn(64))
		}
		fps[i] = fp
	}
	return fps
}

// bruteForce is every (id, distance) within k, sorted like the index: by distance, then id.
func bruteForce(ids, fps []uint64, fp uint64, k int) []Match {
	out := []Match{}
	for i, f := range fps {
		if d := Hamming(f, fp); d <= k {
			out = append(out, Match{ID: ids[i], Distance: d})
		}
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].Distance != out[b].Distance {
			return out[a].Distance < out[b].Distance
		}
		return out[a].ID < out[b].ID
	})
	return out
}

func newIndex(t testing.TB, k int) *SimHashIndex {
	t.Helper()
	x, err := NewSimHashIndex(k)
	return closedAtEnd(t, x, err)
}

func sequentialIDs(n int) []uint64 {
	ids := make([]uint64, n)
	for i := range ids {
		ids[i] = uint64(i + 1)
	}
	return ids
}

// filledIndex is an index of max distance k holding n nearFingerprints (of the given seed and
// maxFlip) under sequentialIDs, with those ids and fingerprints.
func filledIndex(t testing.TB, seed int64, n, maxFlip, k int) (x *SimHashIndex, ids, fps []uint64) {
	t.Helper()
	fps = nearFingerprints(rand.New(rand.NewSource(seed)), n, maxFlip)
	ids = sequentialIDs(len(fps))
	x = newIndex(t, k)
	must(t, x.AddMany(ids, fps))
	return x, ids, fps
}

// checkAgainstBruteForce queries every fingerprint singly, in one batch and with Any, at
// every k in ks, and counts the queries whose answer differs from a scan.
func checkAgainstBruteForce(t *testing.T, x *SimHashIndex, ids, fps, queries []uint64, ks []int) {
	t.Helper()
	mismatches := 0
	for _, k := range ks {
		for _, q := range queries {
			got, err := x.QueryWithin(q, k)
			must(t, err)
			if want := bruteForce(ids, fps, q, k); !reflect.DeepEqual(got, want) {
				if mismatches++; mismatches <= 3 {
					t.Errorf("k=%d query %016x: index %v, brute force %v", k, q, got, want)
				}
			}
		}
	}
	many, err := x.QueryMany(queries)
	must(t, err)
	anyOut := make([]bool, len(queries))
	must(t, x.AnyMany(queries, anyOut))
	for i, q := range queries {
		want := bruteForce(ids, fps, q, x.K())
		if !reflect.DeepEqual(many[i], want) {
			if mismatches++; mismatches <= 6 {
				t.Errorf("QueryMany result %d: %v, brute force %v", i, many[i], want)
			}
		}
		single, err := x.Any(q)
		must(t, err)
		if anyOut[i] != (len(want) > 0) || single != anyOut[i] {
			mismatches++
			t.Errorf("Any of query %d: batch %v, single %v, %d matches", i, anyOut[i], single, len(want))
		}
	}
	if mismatches != 0 {
		t.Fatalf("%d mismatches against brute force", mismatches)
	}
}

// The index never misses and never invents a match, at k = 3 (four 16-bit blocks) and at
// k = 7 (eight blocks), over random fingerprints with a fixed seed.
func TestSimHashIndexBruteForce(t *testing.T) {
	for _, c := range []struct {
		maxK int
		ks   []int
	}{{3, []int{0, 1, 3}}, {7, []int{5, 7}}} {
		r := rand.New(rand.NewSource(int64(11 + c.maxK)))
		fps := nearFingerprints(r, 20000, 8)
		ids := sequentialIDs(len(fps))
		queries := append(nearFingerprints(r, 1500, 8), fps[:200]...)
		for i := 0; i < 300; i++ {
			queries = append(queries, r.Uint64())
		}
		x := newIndex(t, c.maxK)
		must(t, x.AddMany(ids[:5000], fps[:5000]))
		for i := 5000; i < len(ids); i++ { // single adds too
			must(t, x.Add(ids[i], fps[i]))
		}
		if x.Len() != len(ids) || x.K() != c.maxK {
			t.Fatalf("Len %d K %d", x.Len(), x.K())
		}
		checkAgainstBruteForce(t, x, ids, fps, queries, c.ks)
		info, err := x.Info()
		must(t, err)
		if info.Len != len(ids) || info.K != c.maxK || info.ReadOnly || info.Bytes == 0 {
			t.Errorf("Info %+v", info)
		}
	}
}

// A query with more matches than the first guess of room gets all of them.
func TestSimHashIndexManyMatches(t *testing.T) {
	x := newIndex(t, 3)
	const n = 1000
	ids := sequentialIDs(n)
	fps := make([]uint64, n)
	for i := range fps {
		fps[i] = 0xabcdef << (i % 3) // three fingerprints, many times over
	}
	must(t, x.AddMany(ids, fps))
	queries := []uint64{0xabcdef, 0xabcdef << 1, 1 << 63}
	checkAgainstBruteForce(t, x, ids, fps, queries, []int{0, 3})
	clusters, err := x.Clusters()
	must(t, err)
	if len(clusters) != 1 && len(clusters) != 3 { // within 3 of each other or not
		t.Errorf("%d clusters", len(clusters))
	}
}

// The index is a multiset: an id added twice is two pairs, reported twice and removed together.
func TestSimHashIndexDuplicateIDs(t *testing.T) {
	x := newIndex(t, 3)
	must(t, x.Add(7, 0xff))
	must(t, x.Add(7, 0xff))
	must(t, x.Add(7, 0xf0ff))
	must(t, x.Add(8, 0x1ff))
	got, err := x.Query(0xff)
	must(t, err)
	want := []Match{{7, 0}, {7, 0}, {8, 1}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Query: %v, want %v (0xf0ff is 4 bits away)", got, want)
	}
	removed, err := x.Remove(7)
	must(t, err)
	if removed != 3 || x.Len() != 1 {
		t.Errorf("Remove(7) removed %d pairs, Len %d", removed, x.Len())
	}
	got, _ = x.Query(0xff)
	if !reflect.DeepEqual(got, []Match{{8, 1}}) {
		t.Errorf("after Remove: %v", got)
	}
}

func TestSimHashIndexRemove(t *testing.T) {
	x, ids, fps := filledIndex(t, 21, 6000, 6, 3)
	if _, err := x.Query(fps[0]); err != nil { // built before the removal
		t.Fatal(err)
	}
	var gone []uint64
	var keptIDs, keptFps []uint64
	for i, id := range ids {
		if i%3 == 0 {
			gone = append(gone, id)
		} else {
			keptIDs, keptFps = append(keptIDs, id), append(keptFps, fps[i])
		}
	}
	removed, err := x.Remove(append(gone, 1<<40, 1<<41)...) // two ids never added
	must(t, err)
	if removed != len(gone) || x.Len() != len(keptIDs) {
		t.Fatalf("removed %d of %d, Len %d", removed, len(gone), x.Len())
	}
	if n, err := x.Remove(gone...); n != 0 || err != nil {
		t.Errorf("removing again: %d, %v", n, err)
	}
	if n, err := x.Remove(); n != 0 || err != nil {
		t.Errorf("removing nothing: %d, %v", n, err)
	}
	checkAgainstBruteForce(t, x, keptIDs, keptFps, fps[:600], []int{3})
	must(t, x.Build())
}

// Clusters against brute-force leader clustering whose groups have a diameter within k.
func TestSimHashIndexClusters(t *testing.T) {
	r := rand.New(rand.NewSource(31))
	fps := nearFingerprints(r, 3000, 5)
	for i := 0; i < 200; i++ {
		fps = append(fps, r.Uint64()) // mostly groups of one
	}
	ids := make([]uint64, len(fps))
	for i := range ids {
		ids[i] = uint64(i)*7 + 100
	}
	x := newIndex(t, 3)
	must(t, x.AddMany(ids, fps))
	for _, k := range []int{3, 1} {
		got, err := x.ClustersWithin(k)
		must(t, err)
		// Leaders in id order (ids rise with i), each taking, in id order, every pair not
		// yet taken that is within k of every member so far.
		leader := make([]int, len(fps))
		for i := range leader {
			leader[i] = -1
		}
		for l := range fps {
			if leader[l] >= 0 {
				continue
			}
			taken := []int{}
			for j := range fps {
				near := leader[j] < 0 && Hamming(fps[l], fps[j]) <= k
				for _, m := range taken {
					near = near && Hamming(fps[m], fps[j]) <= k
				}
				if near {
					leader[j] = l
					taken = append(taken, j)
				}
			}
		}
		groups := map[int][]uint64{}
		for i := range fps {
			groups[leader[i]] = append(groups[leader[i]], ids[i])
		}
		want := [][]uint64{}
		for _, g := range groups {
			want = append(want, g)
		}
		if !reflect.DeepEqual(normalized(got), normalized(want)) {
			t.Errorf("k=%d: %d clusters, brute force %d", k, len(got), len(want))
		}
		total := 0
		for _, g := range got {
			total += len(g)
		}
		if total != len(ids) {
			t.Errorf("k=%d: the clusters hold %d pairs of %d", k, total, len(ids))
		}
	}
	empty := newIndex(t, 3)
	if c, err := empty.Clusters(); err != nil || len(c) != 0 {
		t.Errorf("clusters of an empty index: %v, %v", c, err)
	}
}

// normalized sorts each group and the groups, so partitions compare regardless of order.
func normalized(groups [][]uint64) [][]uint64 {
	out := make([][]uint64, len(groups))
	for i, g := range groups {
		out[i] = append([]uint64(nil), g...)
		sort.Slice(out[i], func(a, b int) bool { return out[i][a] < out[i][b] })
	}
	sort.Slice(out, func(a, b int) bool { return out[a][0] < out[b][0] })
	return out
}

func TestSimHashIndexRoundTrips(t *testing.T) {
	x, ids, fps := filledIndex(t, 41, 4000, 6, 4)
	y, b := roundTrip[SimHashIndex](t, x) // a zero index can be unmarshaled into
	if y.K() != 4 || y.Len() != len(ids) {
		t.Errorf("unmarshaled K %d Len %d", y.K(), y.Len())
	}
	checkAgainstBruteForce(t, y, ids, fps, fps[:300], []int{4})
	must(t, y.Add(1<<50, fps[0])) // an unmarshaled index is writable
	got, err := y.Query(fps[0])
	must(t, err)
	found := false
	for _, m := range got {
		found = found || m.ID == 1<<50
	}
	if !found {
		t.Error("a pair added after UnmarshalBinary is not found")
	}

	path := filepath.Join(t.TempDir(), "index.seen")
	must(t, x.Save(path))
	for _, verify := range []bool{true, false} {
		o, err := OpenSimHashIndex(path, verify)
		must(t, err)
		info, err := o.Info()
		must(t, err)
		if !info.ReadOnly || info.Len != len(ids) || info.K != 4 {
			t.Errorf("opened: %+v", info)
		}
		checkAgainstBruteForce(t, o, ids, fps, fps[:300], []int{2, 4})
		if err := o.Add(1, 1); !errors.Is(err, ErrReadOnly) {
			t.Errorf("Add to an opened index: %v", err)
		}
		if err := o.AddMany([]uint64{1}, []uint64{1}); !errors.Is(err, ErrReadOnly) {
			t.Errorf("AddMany to an opened index: %v", err)
		}
		if _, err := o.Remove(1); !errors.Is(err, ErrReadOnly) {
			t.Errorf("Remove from an opened index: %v", err)
		}
		if o.Len() != len(ids) {
			t.Errorf("a refused write changed Len to %d", o.Len())
		}
		ob, err := o.MarshalBinary()
		must(t, err)
		if !bytes.Equal(ob, b) {
			t.Error("the opened index serializes differently")
		}
		must(t, o.Close())
	}
	if _, err := OpenSimHashIndex(filepath.Join(t.TempDir(), "absent.seen"), true); !errors.Is(err, ErrIO) {
		t.Errorf("open of a missing file: %v", err)
	}
}

// Each kind of damage gets its own status, and the receiver is unchanged.
func TestSimHashIndexCorruptInput(t *testing.T) {
	x := newIndex(t, 3)
	must(t, x.AddMany([]uint64{1, 2, 3}, []uint64{10, 20, 30}))
	y := newIndex(t, 3)
	must(t, y.Add(99, 99))
	for _, c := range corruptForms(t, x, newFilter(t, 100, 0.01)) {
		wantRefused(t, c, y.UnmarshalBinary(c.input))
		if got, err := y.Query(99); err != nil || len(got) != 1 || got[0].ID != 99 {
			t.Errorf("%s: a failed UnmarshalBinary changed the index: %v, %v", c.name, got, err)
		}
	}
}

func TestSimHashIndexInvalidArguments(t *testing.T) {
	for _, k := range []int{-1, 8, 1 << 40} {
		if x, err := NewSimHashIndex(k); !errors.Is(err, ErrInvalidArgument) || x != nil {
			t.Errorf("NewSimHashIndex(%d): %v", k, err)
		}
	}
	x := newIndex(t, 2)
	if err := x.AddMany([]uint64{1, 2}, []uint64{1}); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("AddMany of unequal lengths: %v", err)
	}
	for _, k := range []int{-1, 3, 1 << 33} {
		if _, err := x.QueryWithin(1, k); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("QueryWithin k=%d: %v", k, err)
		}
		if _, err := x.ClustersWithin(k); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("ClustersWithin k=%d: %v", k, err)
		}
	}
	if err := x.AnyMany([]uint64{1, 2}, make([]bool, 1)); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("AnyMany with a short out: %v", err)
	}
	if got, err := x.QueryMany(nil); err != nil || len(got) != 0 {
		t.Errorf("QueryMany(nil): %v, %v", got, err)
	}
	if x.Len() != 0 {
		t.Errorf("refused adds changed Len to %d", x.Len())
	}
}

// Queries right after adds race to build the tables; libseen builds once and every query
// sees every pair.
func TestSimHashIndexConcurrentQueries(t *testing.T) {
	x, ids, fps := filledIndex(t, 51, 5000, 5, 3)
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := g; i < 400; i += 4 {
				got, err := x.Query(fps[i])
				if err == nil && !reflect.DeepEqual(got, bruteForce(ids, fps, fps[i], 3)) {
					err = errors.New("a concurrent query differs from brute force")
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// Every method of a closed index returns ErrClosed; none reaches C with a freed handle.
func TestSimHashIndexUseAfterClose(t *testing.T) {
	x, err := NewSimHashIndex(3)
	must(t, err)
	must(t, x.Add(1, 1))
	copied := *x
	must(t, x.Close())
	must(t, x.Close())
	calls := map[string]error{
		"Add":     x.Add(1, 1),
		"AddMany": x.AddMany([]uint64{1}, []uint64{1}),
		"AnyMany": x.AnyMany([]uint64{1}, make([]bool, 1)),
		"Build":   x.Build(),
		"Save":    x.Save(filepath.Join(t.TempDir(), "x")),
	}
	_, calls["Remove"] = x.Remove(1)
	_, calls["Query"] = x.Query(1)
	_, calls["QueryWithin"] = x.QueryWithin(1, 0)
	_, calls["Any"] = x.Any(1)
	_, calls["QueryMany"] = x.QueryMany([]uint64{1})
	_, calls["Clusters"] = x.Clusters()
	_, calls["ClustersWithin"] = x.ClustersWithin(0)
	_, calls["Info"] = x.Info()
	_, calls["MarshalBinary"] = x.MarshalBinary()
	_, calls["Query on a copy"] = copied.Query(1)
	var zero SimHashIndex
	_, calls["zero index Query"] = zero.Query(1)
	var nilIndex *SimHashIndex
	_, calls["nil index Any"] = nilIndex.Any(1)
	for name, err := range calls {
		if !errors.Is(err, ErrClosed) || !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("%s after Close: %v, want ErrClosed", name, err)
		}
	}
	if x.Len() != 0 || x.K() != 0 || copied.Len() != 0 {
		t.Errorf("closed index: Len %d K %d", x.Len(), x.K())
	}
	var idf *IDF
	if _, err := SimHash("x", WithIDF(idf)); err != nil {
		t.Errorf("a nil IDF option: %v", err) // nil means no table
	}
}
