package seen

import (
	"bytes"
	"errors"
	"path/filepath"
	"testing"
)

func TestMarshalRoundTrip(t *testing.T) {
	f := newFilter(t, 1000, 0.01)
	ids := distinctIDs(5, 500)
	must(t, f.AddUint64s(ids))
	g, _ := roundTrip[BloomFilter](t, f)
	if g.Params() != f.Params() {
		t.Errorf("params %+v, want %+v", g.Params(), f.Params())
	}
	out := make([]bool, len(ids))
	must(t, g.TestUint64s(ids, out))
	for i, got := range out {
		if !got {
			t.Fatalf("id %d lost in the round trip", i)
		}
	}
	must(t, g.AddString("writable")) // a deserialized filter is a writable copy
}

func TestWriteToReadFrom(t *testing.T) {
	f := newFilter(t, 1000, 0.01)
	must(t, f.AddString("k"))
	var buf bytes.Buffer
	n, err := f.WriteTo(&buf)
	must(t, err)
	want, _ := f.MarshalBinary()
	if n != int64(len(want)) || !bytes.Equal(buf.Bytes(), want) {
		t.Fatalf("WriteTo wrote %d bytes, differing from MarshalBinary's %d", n, len(want))
	}

	g := newFilter(t, 10, 0.5) // ReadFrom replaces whatever was there
	m, err := g.ReadFrom(&buf)
	must(t, err)
	if m != n || g.Params() != f.Params() {
		t.Errorf("ReadFrom read %d of %d bytes, params %+v", m, n, g.Params())
	}
	if !g.TestString("k") {
		t.Error("key lost through WriteTo/ReadFrom")
	}
	if _, err := g.ReadFrom(bytes.NewReader(want[:10])); !errors.Is(err, ErrTruncated) {
		t.Errorf("ReadFrom of a truncated stream: %v", err)
	}
	if !g.TestString("k") {
		t.Error("a failed ReadFrom changed the filter")
	}
}

// A read-write open maps the file: adds reach it on Close, and Save replaces it whole.
func TestOpenReadWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.seen")
	f := newFilter(t, 1000, 0.01)
	must(t, f.Save(path))

	rw, err := Open(path, false)
	must(t, err)
	must(t, rw.AddString("added through the mapping"))
	must(t, rw.Sync())
	must(t, rw.AddUint64(99))
	must(t, rw.Close())

	ro := opened(t, Open, path, true)
	if !ro.TestString("added through the mapping") || !ro.TestUint64(99) {
		t.Error("a key added read-write is absent after reopening")
	}
}

func TestCopyIsEqualAndIndependent(t *testing.T) {
	f := newFilter(t, 1000, 0.01)
	must(t, f.AddString("a"))
	checkCopyIsEqualAndIndependent(t, f,
		func(c *BloomFilter) error { return c.AddString("b") },
		func(c *BloomFilter) bool { return c.TestString("b") })

	alike := newFilter(t, 1000, 0.01)
	must(t, alike.AddString("a"))
	otherSeed, err := NewWithSeed(1000, 0.01, 1)
	must(t, err)
	defer otherSeed.Close()
	must(t, otherSeed.AddString("a"))
	checkEqualFollowsContents(t, f, alike, otherSeed)
}
