package seen

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// refusesBadFPR checks that newKind (named name) refuses every rate outside (0, 1) with
// ErrInvalidArgument and no value.
func refusesBadFPR[T any](t *testing.T, name string, newKind func(uint64, float64) (*T, error)) {
	t.Helper()
	for _, fpr := range []float64{0, 1, -0.5, 1.5} {
		f, err := newKind(100, fpr)
		if !errors.Is(err, ErrInvalidArgument) || f != nil {
			t.Errorf("%s(100, %g) = %v, %v; want ErrInvalidArgument", name, fpr, f, err)
		}
	}
}

func TestInvalidArguments(t *testing.T) {
	refusesBadFPR(t, "New", New)
	f := newFilter(t, 100, 0.01)
	if err := f.TestUint64s([]uint64{1, 2}, make([]bool, 1)); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("TestUint64s with a short out: %v", err)
	}
	bad := []Keys{
		{Data: []byte("abc"), Offsets: []uint64{0, 4}},    // past the end of Data
		{Data: []byte("abc"), Offsets: []uint64{0, 2, 1}}, // decreasing
	}
	for _, k := range bad {
		if err := f.AddKeys(k); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("AddKeys(%v): %v", k.Offsets, err)
		}
		if err := f.TestKeys(k, make([]bool, 2)); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("TestKeys(%v): %v", k.Offsets, err)
		}
	}
}

// Each kind of damage gets its own status, and the message from libseen.
func TestCorruptInput(t *testing.T) {
	f := newFilter(t, 1000, 0.01)
	must(t, f.AddString("x"))
	refusesCorrupt(t, f, corruptForms(t, f, newCounting(t, 1000, 0.01)), "Open", Open)
}

func TestReadOnlyOpenRefusesAdds(t *testing.T) {
	f := newFilter(t, 1000, 0.01)
	must(t, f.AddString("kept"))
	path, _ := saved(t, f)
	ro := opened(t, Open, path, true)
	if !ro.Params().ReadOnly {
		t.Error("Params().ReadOnly is false")
	}
	adds := addsTo(ro)
	adds["Merge"] = ro.Merge(f)
	adds["Clear"] = ro.Clear()
	wantEach(t, adds, ErrReadOnly, "ErrReadOnly", "on a read-only filter")
	if !ro.TestString("kept") {
		t.Error("read-only filter lost a key")
	}
}

func TestOpenMissingFile(t *testing.T) {
	_, err := Open(filepath.Join(t.TempDir(), "absent.seen"), true)
	var e *Error
	if !errors.Is(err, ErrIO) || !errors.As(err, &e) || !strings.Contains(e.Message, "absent.seen") {
		t.Errorf("Open of a missing file: %v; want ErrIO naming the file", err)
	}
}

func TestMergeIncompatible(t *testing.T) {
	a, b := newFilter(t, 1000, 0.01), newFilter(t, 100000, 0.01)
	if err := a.Merge(b); !errors.Is(err, ErrIncompatible) {
		t.Errorf("merge of different sizes: %v", err)
	}
}

func TestCloseTwice(t *testing.T) {
	f, err := New(100, 0.01)
	must(t, err)
	must(t, f.Close())
	must(t, f.Close())
}

// Every method of a closed filter returns ErrClosed; none reaches C with a freed handle.
func TestUseAfterClose(t *testing.T) {
	f, err := New(100, 0.01)
	must(t, err)
	must(t, f.Close())
	other := newFilter(t, 100, 0.01)
	calls := callsAfterClose(t, f)
	calls["Merge"] = f.Merge(other)
	calls["Merge from"] = other.Merge(f)
	calls["Clear"] = f.Clear()
	calls["Sync"] = f.Sync()
	_, calls["TestAndAddString"] = f.TestAndAddString("a")
	_, calls["Stats"] = f.Stats()
	var zero BloomFilter
	calls["zero BloomFilter Test"] = panicOf(func() { zero.TestString("a") })
	g, err := New(100, 0.01)
	must(t, err)
	copied := *g
	must(t, g.Close())
	calls["Test on a copy of a closed BloomFilter"] = panicOf(func() { copied.TestUint64(1) })
	for name, err := range calls {
		if !errors.Is(err, ErrClosed) || !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("%s after Close: %v, want ErrClosed", name, err)
		}
	}
	if f.Cap() != 0 || f.K() != 0 {
		t.Errorf("closed filter: Cap %d, K %d", f.Cap(), f.K())
	}
}

func TestErrorText(t *testing.T) {
	_, err := New(100, 2)
	if s := err.Error(); !strings.HasPrefix(s, "seen: SEEN_ERR_INVALID_ARGUMENT: ") {
		t.Errorf("error text %q", s)
	}
}

// Every error of the package wraps the sentinel of its status, the Redis helpers' too.
func TestRedisHelpersRefuseWithInvalidArgument(t *testing.T) {
	if _, err := UnpackIDs(make([]byte, 7)); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("UnpackIDs of 7 bytes: %v", err)
	}
	if _, err := UnseenFromBitmap([]uint64{1, 2}, nil); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("UnseenFromBitmap with no bitmap: %v", err)
	}
}
