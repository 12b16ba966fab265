package seen

import (
	"fmt"
	"testing"
	"unsafe"
)

// Each way of adding a key, and the matching way of testing it.
var keyKinds = []struct {
	name string
	add  func(f *BloomFilter, i int) error
	test func(f *BloomFilter, i int) bool
}{
	{"Uint64",
		func(f *BloomFilter, i int) error { return f.AddUint64(uint64(i) * 0x9E3779B97F4A7C15) },
		func(f *BloomFilter, i int) bool { return f.TestUint64(uint64(i) * 0x9E3779B97F4A7C15) }},
	{"String",
		func(f *BloomFilter, i int) error { return f.AddString(fmt.Sprintf("user:%d", i)) },
		func(f *BloomFilter, i int) bool { return f.TestString(fmt.Sprintf("user:%d", i)) }},
	{"Bytes",
		func(f *BloomFilter, i int) error { return f.Add([]byte(fmt.Sprintf("新闻:%d", i))) },
		func(f *BloomFilter, i int) bool { return f.Test([]byte(fmt.Sprintf("新闻:%d", i))) }},
}

func TestNoFalseNegatives(t *testing.T) {
	for _, kind := range keyKinds {
		t.Run(kind.name, func(t *testing.T) {
			f := newFilter(t, 5000, 0.01)
			added := map[int]bool{}
			for i := 0; i < 10000; i += 2 {
				must(t, kind.add(f, i))
				added[i] = true
			}
			positives := 0
			for i := 0; i < 10000; i++ {
				got := kind.test(f, i)
				if added[i] && !got {
					t.Fatalf("key %d was added but tests absent", i)
				}
				if !added[i] && got {
					positives++
				}
			}
			if positives > 5000/20 { // 5%: far above 1%, yet a broken filter says yes to all
				t.Errorf("%d false positives in 5000 absent keys", positives)
			}
		})
	}
}

func TestTestAndAdd(t *testing.T) {
	f := newFilter(t, 100, 0.001)
	cases := []struct {
		name string
		call func() (bool, error)
		want bool
	}{
		{"first id", func() (bool, error) { return f.TestAndAddUint64(7) }, false},
		{"same id again", func() (bool, error) { return f.TestAndAddUint64(7) }, true},
		{"first string", func() (bool, error) { return f.TestAndAddString("seven") }, false},
		{"same bytes as that string", func() (bool, error) { return f.TestAndAdd([]byte("seven")) }, true},
		{"empty key", func() (bool, error) { return f.TestAndAdd(nil) }, false},
		{"empty string is the empty key", func() (bool, error) { return f.TestAndAddString("") }, true},
	}
	for _, c := range cases {
		got, err := c.call()
		must(t, err)
		if got != c.want {
			t.Errorf("%s: TestAndAdd = %v, want %v", c.name, got, c.want)
		}
	}
}

// An id is the key of its 8 little-endian bytes, in every path.
func TestUint64IsItsLittleEndianBytes(t *testing.T) {
	f := newFilter(t, 100, 0.001)
	must(t, f.AddUint64(0x0807060504030201))
	if !f.Test([]byte{1, 2, 3, 4, 5, 6, 7, 8}) {
		t.Error("the id's little-endian bytes test absent")
	}
}

func TestBatchesAgreeWithSingleKeys(t *testing.T) {
	f := newFilter(t, 20000, 0.01)
	batchAgreesWithSingles(t, distinctIDs(1, 30000), 10000, f.AddUint64s, f.TestUint64s, f.TestUint64)
	strs := make([]string, 3000)
	for i := range strs {
		strs[i] = fmt.Sprintf("item-%d", i)
	}
	batchAgreesWithSingles(t, strs, 1000, f.AddStrings, f.TestStrings, f.TestString)
}

// batchAgreesWithSingles adds keys[:added] in one batch, then fails unless testing every key
// in one batch and one at a time agree, and every added key is found.
func batchAgreesWithSingles[K any](t *testing.T, keys []K, added int, add func([]K) error,
	testAll func([]K, []bool) error, test func(K) bool) {
	t.Helper()
	must(t, add(keys[:added]))
	out := make([]bool, len(keys))
	must(t, testAll(keys, out))
	for i, key := range keys {
		if single := test(key); out[i] != single || (i < added && !out[i]) {
			t.Fatalf("key %v: batch %v, single %v, added %v", key, out[i], single, i < added)
		}
	}
}

func TestKeysBatch(t *testing.T) {
	f := newFilter(t, 100, 0.001)
	var keys Keys
	keys.Append([]byte("a"))
	keys.Append(nil)
	keys.AppendString("ccc")
	if keys.Len() != 3 || string(keys.Data) != "accc" {
		t.Fatalf("packed %d keys %q, offsets %v", keys.Len(), keys.Data, keys.Offsets)
	}
	must(t, f.AddKeys(keys))
	for _, k := range []string{"a", "", "ccc"} {
		if !f.TestString(k) {
			t.Errorf("%q added in a batch tests absent", k)
		}
	}
	keys.Reset()
	if keys.Len() != 0 {
		t.Errorf("Len after Reset = %d", keys.Len())
	}
	must(t, f.AddKeys(keys)) // an empty batch is a no-op
	must(t, f.TestKeys(Keys{}, nil))
	onlyEmpty := Keys{Offsets: []uint64{0, 0}} // one key, no data at all
	out := make([]bool, 1)
	must(t, f.TestKeys(onlyEmpty, out))
	if !out[0] {
		t.Error("the empty key, added above, tests absent in a batch without data")
	}
}

func TestBoolOutputIsZeroOrOne(t *testing.T) {
	// A bool byte other than 0 or 1 would make true != true; check that libseen never
	// writes one into the []bool it fills.
	f := newFilter(t, 1000, 0.01)
	ids := distinctIDs(2, 2000)
	must(t, f.AddUint64s(ids[:1000]))
	out := make([]bool, len(ids))
	must(t, f.TestUint64s(ids, out))
	for i := range out {
		if b := *(*byte)(unsafe.Pointer(&out[i])); b > 1 || (i < 1000 && b != 1) {
			t.Fatalf("out[%d] holds byte %d (added: %v)", i, b, i < 1000)
		}
	}
}

func TestMerge(t *testing.T) {
	a, b := newFilter(t, 1000, 0.01), newFilter(t, 1000, 0.01)
	must(t, a.AddString("in a"))
	must(t, b.AddString("in b"))
	must(t, a.Merge(b))
	for _, k := range []string{"in a", "in b"} {
		if !a.TestString(k) {
			t.Errorf("%q absent after merge", k)
		}
	}
	if b.TestString("in a") {
		t.Error("merge changed its source")
	}
}

func TestParamsAndStats(t *testing.T) {
	f := newFilter(t, 10000, 0.01)
	p := f.Params()
	if p.ExpectedItems != 10000 || p.TargetFPR != 0.01 || p.Seed != 1234 || p.ReadOnly {
		t.Errorf("Params = %+v", p)
	}
	if f.Cap() != p.Blocks*64*8 || f.K() == 0 {
		t.Errorf("Cap = %d, K = %d for %+v", f.Cap(), f.K(), p)
	}
	must(t, f.AddUint64s(distinctIDs(3, 10000)))
	n, err := f.ApproximatedSize()
	must(t, err)
	if n < 9000 || n > 11000 {
		t.Errorf("ApproximatedSize = %d after 10000 distinct adds", n)
	}
	fpr, err := f.ExpectedFPR()
	must(t, err)
	if fpr <= 0 || fpr > 0.02 {
		t.Errorf("ExpectedFPR = %g when full at a 1%% target", fpr)
	}
	must(t, f.Clear())
	if n, _ := f.ApproximatedSize(); n != 0 {
		t.Errorf("ApproximatedSize = %d after Clear", n)
	}
}

func TestNewWithBytes(t *testing.T) {
	f, err := NewWithBytes(1000, 1000, 5)
	must(t, err)
	defer f.Close()
	if p := f.Params(); p.Bytes != 1024 || p.Seed != 5 {
		t.Errorf("1000 bytes rounded to %d, seed %d", p.Bytes, p.Seed)
	}
}

func TestLibraryVersion(t *testing.T) {
	if v := LibraryVersion(); v == 0 || v >= 1000000 {
		t.Errorf("LibraryVersion = %d", v)
	}
}
