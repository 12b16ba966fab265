package seen

import (
	"bytes"
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
