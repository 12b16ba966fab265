package seen

import (
	"errors"
	"strings"
	"testing"
)

// An edited copy finds its original, verified above the threshold, and not an unrelated
// text; removal, the keyed index, bad thresholds and a closed index behave as documented.
func TestMinHashIndex(t *testing.T) {
	base := "the committee met on tuesday to review the annual budget and approved the new library hours for the summer"
	other := "rain is expected across the region on friday with strong winds along the coast and snow at higher elevations"
	x, err := NewMinHashIndex(0.7)
	must(t, err)
	defer x.Close()
	must(t, x.Add(1, base))
	must(t, x.Add(2, other))
	matches, err := x.Query(strings.Replace(base, "summer", "winter", 1))
	must(t, err)
	if len(matches) != 1 || matches[0].ID != 1 || matches[0].Similarity < 0.7 {
		t.Fatalf("matches %v, want only text 1 at >= 0.7", matches)
	}
	if removed, _ := x.Remove(1); !removed {
		t.Error("remove said text 1 was not stored")
	}
	if n, _ := x.Len(); n != 1 {
		t.Errorf("Len %d after a removal, want 1", n)
	}
	keyed, err := NewKeyedMinHashIndex(0.7, []byte("0123456789abcdef"))
	must(t, err)
	defer keyed.Close()
	must(t, keyed.Add(3, base))
	if m, _ := keyed.Query(base); len(m) != 1 || m[0].ID != 3 {
		t.Errorf("the keyed index lost its text: %v", m)
	}
	if _, err := NewMinHashIndex(1.5); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("threshold 1.5: %v, want ErrInvalidArgument", err)
	}
	for _, bad := range [][]byte{[]byte("short"), nil} {
		if _, err := NewKeyedMinHashIndex(0.8, bad); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("key %q: %v, want ErrInvalidArgument", bad, err)
		}
	}
	x.Close()
	if _, err := x.Query(base); !errors.Is(err, ErrClosed) {
		t.Errorf("query on a closed index: %v, want ErrClosed", err)
	}
}
