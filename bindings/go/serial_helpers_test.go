package seen

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// serialForm is what every serializable kind shares: its serialized form and a Close.
type serialForm interface {
	MarshalBinary() ([]byte, error)
	UnmarshalBinary([]byte) error
	Close() error
}

// roundTrip unmarshals f's serialized form b into a zero T, closed when the test ends, and
// checks that it serializes back to b.
func roundTrip[T any, P interface {
	*T
	serialForm
}](t *testing.T, f serialForm) (P, []byte) {
	t.Helper()
	b, err := f.MarshalBinary()
	must(t, err)
	g := P(new(T))
	must(t, g.UnmarshalBinary(b))
	t.Cleanup(func() { g.Close() })
	again, err := g.MarshalBinary()
	must(t, err)
	if !bytes.Equal(again, b) {
		t.Error("unmarshal then marshal changed the bytes")
	}
	return g, b
}

// marshaled is v's serialized form.
func marshaled(t testing.TB, v serialForm) []byte {
	t.Helper()
	b, err := v.MarshalBinary()
	must(t, err)
	return b
}

// saved saves f to a new file, checks that the file holds f's serialized form, and returns
// the file's path and that form.
func saved(t *testing.T, f interface {
	serialForm
	Save(string) error
}) (string, []byte) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "saved.seen")
	must(t, f.Save(path))
	file, err := os.ReadFile(path)
	must(t, err)
	b := marshaled(t, f)
	if !bytes.Equal(file, b) {
		t.Fatal("the saved file differs from MarshalBinary")
	}
	return path, b
}
