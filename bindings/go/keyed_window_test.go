package seen

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// longKey is one byte longer than a key may be.
var longKey = make([]byte, 65)

// probeIDs are never added by the keyed tests (distinctIDs(1, ...) are), barring a 64-bit
// collision: every one a window or store finds is a false positive.
var probeIDs = distinctIDs(2, 20000)

// falsePositives are the probes that found reports present.
func falsePositives(found func(ids []uint64, out []bool) error) ([]uint64, error) {
	out := make([]bool, len(probeIDs))
	if err := found(probeIDs, out); err != nil {
		return nil, err
	}
	var fps []uint64
	for i, present := range out {
		if present {
			fps = append(fps, probeIDs[i])
		}
	}
	return fps, nil
}

// checkKeyedAnswers fails unless the keyed answers hold about the target rate of 1% of the
// probes (200 +- 14: 260 is four standard deviations) and differ from the plain ones: the
// key, not the seed, chose where the items went. (A table window of 500 items answers wrong
// about once in 10^5: with no false positive on either side there is nothing to compare.)
func checkKeyedAnswers(t *testing.T, keyed, plain []uint64) {
	t.Helper()
	if len(keyed) >= 260 {
		t.Errorf("%d false positives in %d probes", len(keyed), len(probeIDs))
	}
	if len(keyed)+len(plain) > 0 && reflect.DeepEqual(keyed, plain) {
		t.Errorf("keyed and plain answer alike: the same %d false positives", len(keyed))
	}
}

// A keyed window of each layout finds every item of its span, holds about its rate, answers
// otherwise than the plain window of the same options, and its bytes open only with its key;
// its copy keeps the key.
func TestKeyedWindow(t *testing.T) {
	for layout, o := range map[WindowLayout]WindowOptions{
		RingLayout:    LastItems(100, 0.01),
		PackedLayout:  LastItems(500, 0.01),
		SlicedLayout:  LastItems(5000, 0.01),
		GrowingLayout: LastSeconds(60, 500, 0.001), // a table cannot keep 0.1% at 1 MiB
		TableLayout:   LastSeconds(60, 500, 0.01),
	} {
		t.Run(layout.String(), func(t *testing.T) {
			w, err := NewWindowKeyed(o, 0, testKey)
			must(t, err)
			defer w.Close()
			if got := w.Info().Layout; got != layout {
				t.Fatalf("layout %v, want %v", got, layout)
			}
			plain, err := NewWindow(o, 0)
			must(t, err)
			defer plain.Close()
			span := distinctIDs(1, 100) // within the span of each layout: none may be lost
			must(t, w.AddUint64s(span, 0))
			must(t, plain.AddUint64s(span, 0))
			findsSpan := func(what string, g *Window) {
				t.Helper()
				for _, id := range span {
					if !g.TestUint64(id, 0) {
						t.Fatalf("%s lost item %d of its span", what, id)
					}
				}
			}
			findsSpan("the keyed window", w)
			keyed, err := falsePositives(func(ids []uint64, out []bool) error { return w.TestUint64s(ids, 0, out) })
			must(t, err)
			unkeyed, err := falsePositives(func(ids []uint64, out []bool) error { return plain.TestUint64s(ids, 0, out) })
			must(t, err)
			checkKeyedAnswers(t, keyed, unkeyed)

			data, err := w.MarshalBinary()
			must(t, err)
			checkKeyAbsent(t, data)
			var zero Window
			checkIncompatible(t, "unmarshal without the key", zero.UnmarshalBinary(data))
			_, err = UnmarshalWindowKeyed(data, otherKey)
			checkIncompatible(t, "unmarshal with another key", err)
			plainData, err := plain.MarshalBinary()
			must(t, err)
			_, err = UnmarshalWindowKeyed(plainData, testKey)
			checkIncompatible(t, "a plain window's bytes with a key", err)
			back, err := UnmarshalWindowKeyed(data, testKey)
			must(t, err)
			defer back.Close()
			findsSpan("the unmarshaled window", back)
			if same, err := w.Equal(back); err != nil || !same {
				t.Errorf("the round trip is not Equal to the original: %v, %v", same, err)
			}
			checkCopyIsEqualAndIndependent(t, w,
				func(c *Window) error { return c.AddString("not among the ids", 0) },
				func(c *Window) bool { return c.TestString("not among the ids", 0) })
		})
	}
}

// checkBadKeys fails unless make refuses each bad key, a missing one included, with
// ErrInvalidArgument: never a plain window, store or fingerprint in its place.
func checkBadKeys(t *testing.T, what string, make func(key []byte) error) {
	t.Helper()
	for _, key := range [][]byte{nil, {}, shortKey, longKey} {
		if err := make(key); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("%s with a key of %d bytes: %v, want ErrInvalidArgument", what, len(key), err)
		}
	}
}

func TestKeyedWindowRefusesBadKeys(t *testing.T) {
	checkBadKeys(t, "NewWindowKeyed", func(key []byte) error {
		_, err := NewWindowKeyed(LastItems(10, 0.01), 0, key)
		return err
	})
	w, err := NewWindowKeyed(LastItems(10, 0.01), 0, testKey)
	must(t, err)
	defer w.Close()
	data, err := w.MarshalBinary()
	must(t, err)
	checkBadKeys(t, "UnmarshalWindowKeyed", func(key []byte) error {
		_, err := UnmarshalWindowKeyed(data, key)
		return err
	})
}

// A keyed store filters without false negatives, at about its rate, otherwise than the
// plain store; its file holds no key and opens only with it.
func TestKeyedExposureStore(t *testing.T) {
	opts := StoreOptions{Window: LastItems(500, 0.01)}
	s, err := NewExposureStoreKeyed(opts, testKey)
	must(t, err)
	defer s.Close()
	plain, err := NewExposureStore(opts)
	must(t, err)
	defer plain.Close()
	shown := distinctIDs(1, 500)
	const user = 7
	must(t, s.Mark(user, shown, 0))
	must(t, plain.Mark(user, shown, 0))
	seesAllShown := func(what string, g *ExposureStore) {
		t.Helper()
		unseen := make([]bool, len(shown))
		must(t, g.Filter(user, shown, 0, unseen))
		for i, u := range unseen {
			if u {
				t.Fatalf("%s forgot item %d was shown", what, shown[i])
			}
		}
	}
	seesAllShown("the keyed store", s)
	// A probe filtered out although never shown is a false positive.
	seenBy := func(g *ExposureStore) func(ids []uint64, out []bool) error {
		return func(ids []uint64, out []bool) error {
			if err := g.Filter(user, ids, 0, out); err != nil {
				return err
			}
			for i := range out {
				out[i] = !out[i]
			}
			return nil
		}
	}
	keyed, err := falsePositives(seenBy(s))
	must(t, err)
	unkeyed, err := falsePositives(seenBy(plain))
	must(t, err)
	checkKeyedAnswers(t, keyed, unkeyed)

	dir := t.TempDir()
	path, plainPath := filepath.Join(dir, "keyed.store"), filepath.Join(dir, "plain.store")
	must(t, s.Save(path))
	must(t, plain.Save(plainPath))
	file, err := os.ReadFile(path)
	must(t, err)
	checkKeyAbsent(t, file)
	_, err = OpenExposureStore(path, true, true)
	checkIncompatible(t, "open without the key", err)
	_, err = OpenExposureStoreKeyed(path, true, true, otherKey)
	checkIncompatible(t, "open with another key", err)
	_, err = OpenExposureStoreKeyed(plainPath, true, true, testKey)
	checkIncompatible(t, "a plain store's file with a key", err)
	checkBadKeys(t, "OpenExposureStoreKeyed", func(key []byte) error {
		_, err := OpenExposureStoreKeyed(path, true, true, key)
		return err
	})
	back, err := OpenExposureStoreKeyed(path, false, true, testKey)
	must(t, err)
	defer back.Close()
	seesAllShown("the opened store", back)
	checkBadKeys(t, "NewExposureStoreKeyed", func(key []byte) error {
		_, err := NewExposureStoreKeyed(opts, key)
		return err
	})
}

// A keyed SimHash of features is a function of the features and the key: the same again,
// another under another key or none; bad keys are refused, even with no features to hash.
func TestSimHashOfFeaturesKeyed(t *testing.T) {
	words := PackStrings([]string{"the", "quick", "brown", "fox", "jumps"})
	keyed, err := SimHashOfFeaturesKeyed(words, nil, 0, testKey)
	must(t, err)
	again, err := SimHashOfFeaturesKeyed(words, nil, 0, testKey)
	must(t, err)
	other, err := SimHashOfFeaturesKeyed(words, nil, 0, otherKey)
	must(t, err)
	plain, err := SimHashOfFeatures(words, nil, 0)
	must(t, err)
	if keyed != again {
		t.Errorf("the same features and key: %#x, then %#x", keyed, again)
	}
	if keyed == other || keyed == plain {
		t.Errorf("keyed %#x, under another key %#x, plain %#x: want three fingerprints", keyed, other, plain)
	}
	if none, err := SimHashOfFeaturesKeyed(Keys{}, nil, 0, testKey); err != nil || none != 0 {
		t.Errorf("no features: %#x, %v, want 0", none, err)
	}
	if _, err := SimHashOfFeaturesKeyed(words, []float32{1}, 0, testKey); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("1 weight for 5 features: %v, want ErrInvalidArgument", err)
	}
	for _, features := range []Keys{words, {}} {
		checkBadKeys(t, "SimHashOfFeaturesKeyed", func(key []byte) error {
			_, err := SimHashOfFeaturesKeyed(features, nil, 0, key)
			return err
		})
	}
}
