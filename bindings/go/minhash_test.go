package seen

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
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

// A saved index answers as the original, in bytes and in files; keys are kept; damaged bytes
// are refused.
func TestMinHashIndexSaveAndOpen(t *testing.T) {
	x, err := NewMinHashIndex(0.7)
	must(t, err)
	defer x.Close()
	texts := make([]string, 200)
	for i := range texts {
		words := make([]string, 40)
		for w := range words {
			words[w] = fmt.Sprintf("w%d", (i*7919+w*104729)%3001)
		}
		texts[i] = strings.Join(words, " ")
		must(t, x.Add(uint64(i), texts[i]))
	}
	if _, err := x.Remove(3); err != nil {
		t.Fatal(err)
	}
	data, err := x.MarshalBinary()
	must(t, err)
	path := filepath.Join(t.TempDir(), "m.seen")
	must(t, x.Save(path))
	opened, err := OpenMinHashIndex(path, nil)
	must(t, err)
	defer opened.Close()
	copied, err := UnmarshalMinHashIndex(data, nil)
	must(t, err)
	defer copied.Close()
	for _, text := range texts {
		want, _ := x.Query(text)
		a, _ := opened.Query(text)
		b, _ := copied.Query(text)
		if !reflect.DeepEqual(a, want) || !reflect.DeepEqual(b, want) {
			t.Fatalf("saved indexes answer %v and %v, the original %v", a, b, want)
		}
	}
	if n, _ := opened.Len(); n != 199 {
		t.Errorf("opened holds %d texts, not 199", n)
	}
	data[len(data)-1] ^= 1
	if _, err := UnmarshalMinHashIndex(data, nil); !errors.Is(err, ErrBadChecksum) {
		t.Errorf("damaged bytes: %v", err)
	}
	key := []byte("a secret key of 32 bytes, no less")
	keyed, err := NewKeyedMinHashIndex(0.8, key)
	must(t, err)
	defer keyed.Close()
	must(t, keyed.Add(1, texts[0]))
	secret, err := keyed.MarshalBinary()
	must(t, err)
	if _, err := UnmarshalMinHashIndex(secret, nil); !errors.Is(err, ErrIncompatible) {
		t.Errorf("a keyed index without its key: %v", err)
	}
	back, err := UnmarshalMinHashIndex(secret, key)
	must(t, err)
	defer back.Close()
	if m, _ := back.Query(texts[0]); len(m) != 1 || m[0].ID != 1 {
		t.Errorf("the keyed copy answers %v", m)
	}
}
