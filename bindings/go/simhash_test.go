package seen

import (
	"errors"
	"math"
	"math/rand"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// simhashText is one line of tests/vectors/simhash_texts.vec.
type simhashText struct {
	line    int
	ngram   int
	text    []byte
	simhash uint64
	exact   ExactFingerprint
}

func readSimHashTexts(t *testing.T) []simhashText {
	t.Helper()
	var out []simhashText
	forEachDirective(t, filepath.Join(vectorDir, "simhash_texts.vec"), func(n int, f []string) error {
		if len(f) != 5 {
			t.Fatalf("line %d: %d fields, want NGRAM TEXT_HEX SIMHASH EXACT_HIGH EXACT_LOW", n, len(f))
		}
		v := simhashText{line: n}
		var errs [5]error
		var ngram uint64
		ngram, errs[0] = strconv.ParseUint(f[0], 10, 8)
		v.ngram = int(ngram)
		v.text, errs[1] = parseKey(f[1])
		v.simhash, errs[2] = strconv.ParseUint(f[2], 16, 64)
		v.exact.High, errs[3] = strconv.ParseUint(f[3], 16, 64)
		v.exact.Low, errs[4] = strconv.ParseUint(f[4], 16, 64)
		if err := errors.Join(errs[:]...); err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		out = append(out, v)
		return nil
	})
	return out
}

// checkSimHashTexts: every text of the shared vector gives its recorded fingerprints, singly
// (bytes and string) and in one batch per n-gram length.
func checkSimHashTexts(t *testing.T) {
	texts := readSimHashTexts(t)
	if len(texts) == 0 {
		t.Fatal("no texts")
	}
	byNgram := map[int][]simhashText{}
	for _, v := range texts {
		f, err := FingerprintBytes(v.text, WithNgram(v.ngram))
		must(t, err)
		if f.SimHash != v.simhash || f.Exact != v.exact {
			t.Errorf("line %d (%q): simhash %016x exact %v, the vector says %016x %v",
				v.line, v.text, f.SimHash, f.Exact, v.simhash, v.exact)
		}
		if s, err := SimHash(string(v.text), WithNgram(v.ngram)); err != nil || s != v.simhash {
			t.Errorf("line %d: SimHash of the string %016x, %v", v.line, s, err)
		}
		if s, err := SimHashBytes(v.text, WithNgram(v.ngram)); err != nil || s != v.simhash {
			t.Errorf("line %d: SimHashBytes %016x, %v", v.line, s, err)
		}
		if e, err := ExactFingerprintOf(string(v.text)); err != nil || e != v.exact {
			t.Errorf("line %d: ExactFingerprintOf %v, %v", v.line, e, err)
		}
		if (f.Features == 0) != (f.SimHash == 0 && len(strings.TrimSpace(string(v.text))) == 0) && f.Features == 0 {
			t.Errorf("line %d: no features for a text with tokens", v.line)
		}
		byNgram[v.ngram] = append(byNgram[v.ngram], v)
	}
	for ngram, vs := range byNgram {
		var batch Keys
		for _, v := range vs {
			batch.Append(v.text)
		}
		simhashes := make([]uint64, len(vs))
		exact := make([]ExactFingerprint, len(vs))
		must(t, SimHashTexts(batch, simhashes, exact, WithNgram(ngram)))
		for i, v := range vs {
			if simhashes[i] != v.simhash || exact[i] != v.exact {
				t.Errorf("line %d in a batch: %016x %v, the vector says %016x %v",
					v.line, simhashes[i], exact[i], v.simhash, v.exact)
			}
		}
	}
}

// TestVectors skips simhash_texts.vec (it has no kind line); this is its check.
func TestSimHashVectors(t *testing.T) { checkSimHashTexts(t) }

// Hamming is Go's popcount; it must agree with libseen's seen_simhash_distance.
func TestHamming(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	pairs := [][2]uint64{{0, 0}, {0, math.MaxUint64}, {1, 3}}
	for i := 0; i < 1000; i++ {
		pairs = append(pairs, [2]uint64{r.Uint64(), r.Uint64()})
	}
	for _, p := range pairs {
		if got, want := Hamming(p[0], p[1]), cDistance(p[0], p[1]); got != want {
			t.Fatalf("Hamming(%x, %x) = %d, libseen says %d", p[0], p[1], got, want)
		}
	}
	if Hamming(0, math.MaxUint64) != 64 {
		t.Error("Hamming of all bits is not 64")
	}
}

// Texts that differ only in case, width, punctuation and whitespace are one text; a small edit
// of a long text moves its fingerprint a few bits; bad input is a defined result.
func TestSimHashText(t *testing.T) {
	a, err := FingerprintText("Hello, World!")
	must(t, err)
	b, err := FingerprintText("  ｈｅｌｌｏ　WORLD ... ")
	must(t, err)
	if a != b {
		t.Errorf("folded variants differ: %+v, %+v", a, b)
	}
	long := strings.Repeat("近日，某市召开新闻发布会，介绍了今年以来全市经济运行的总体情况。", 20)
	edited := strings.Replace(long, "发布会", "发表会", 1)
	x, _ := SimHash(long)
	y, _ := SimHash(edited)
	if d := Hamming(x, y); d > 3 {
		t.Errorf("one edit in %d bytes moved the fingerprint %d bits", len(long), d)
	}
	for _, text := range []string{"", "...!!! ，。", "\x00\x00", "\xff\xfe\xc0\x80", strings.Repeat("\x00a", 1000)} {
		f, err := FingerprintText(text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
		}
		if f.Features == 0 && f.SimHash != 0 {
			t.Errorf("%q: no features but simhash %x", text, f.SimHash)
		}
	}
	empty, _ := FingerprintText("")
	punct, _ := FingerprintText("...!!!")
	if empty.SimHash != 0 || empty.Features != 0 || empty != punct {
		t.Errorf("empty %+v, punctuation only %+v", empty, punct)
	}
	huge := strings.Repeat("the same words again and again, ", 1<<16) // 2 MiB
	f, err := FingerprintText(huge)
	must(t, err)
	if f.Features != 6<<16 {
		t.Errorf("huge text: %d features, want %d", f.Features, 6<<16)
	}
	if e := a.Exact.String(); len(e) != 32 {
		t.Errorf("ExactFingerprint.String() = %q", e)
	}
}

func TestSimHashOptions(t *testing.T) {
	const text = "今天天气很好，我们去公园散步吧。"
	def, _ := SimHash(text)
	two, _ := SimHash(text, WithNgram(2))
	three, _ := SimHash(text, WithNgram(3))
	if def != two || def == three {
		t.Errorf("default %x, 2-grams %x, 3-grams %x", def, two, three)
	}
	for _, n := range []int{0, -1, 9, 1 << 40} {
		if _, err := SimHash(text, WithNgram(n)); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("WithNgram(%d): %v", n, err)
		}
	}
	if seeded, _ := SimHash(text, WithFeatureSeed(7)); seeded == def {
		t.Error("the feature seed changed nothing")
	}

	unit, err := NewIDF(map[string]float32{"quick": 1, "fox": 1}, 1)
	must(t, err)
	defer unit.Close()
	heavy, err := NewIDF(map[string]float32{"QUICK": 50, "ｆｏｘ": 50}, 0.5)
	must(t, err)
	defer heavy.Close()
	const en = "the quick brown fox jumps over the lazy dog"
	plain, _ := SimHash(en)
	if u, err := SimHash(en, WithIDF(unit)); err != nil || u != plain {
		t.Errorf("an IDF of unit weights changed the fingerprint: %x, %x, %v", plain, u, err)
	}
	h, err := SimHash(en, WithIDF(heavy))
	must(t, err)
	if h == plain {
		t.Error("IDF weights changed nothing")
	}
	// Tokens of the table are normalized like text: "QUICK" and "ｆｏｘ" are "quick" and "fox".
	folded, err := NewIDF(map[string]float32{"quick": 50, "fox": 50}, 0.5)
	must(t, err)
	defer folded.Close()
	if f, _ := SimHash(en, WithIDF(folded)); f != h {
		t.Errorf("IDF tokens are not normalized: %x vs %x", f, h)
	}
	batch := make([]uint64, 1)
	must(t, SimHashTexts(PackStrings([]string{en}), batch, nil, WithIDF(heavy)))
	if batch[0] != h {
		t.Errorf("batch with IDF %x, single %x", batch[0], h)
	}
	if _, err := NewIDF(map[string]float32{"x": float32(math.NaN())}, 1); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("NaN weight: %v", err)
	}
	if _, err := NewIDF(nil, float32(math.Inf(1))); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("infinite default weight: %v", err)
	}
	if _, err := NewIDFKeys(PackStrings([]string{"a", "b"}), []float32{1}, 1); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("NewIDFKeys with too few weights: %v", err)
	}
	empty, err := NewIDF(nil, 1)
	must(t, err)
	if e, _ := SimHash(en, WithIDF(empty)); e != plain {
		t.Error("an empty IDF of default weight 1 changed the fingerprint")
	}
	must(t, empty.Close())
	must(t, empty.Close())
	if _, err := SimHash(en, WithIDF(empty)); !errors.Is(err, ErrClosed) {
		t.Errorf("fingerprint with a closed IDF: %v", err)
	}
	if err := SimHashTexts(PackStrings([]string{en}), batch, nil, WithIDF(empty)); !errors.Is(err, ErrClosed) {
		t.Errorf("batch with a closed IDF: %v", err)
	}
}

func TestSimHashTexts(t *testing.T) {
	texts := []string{"", "Hello, World!", "新闻发布会", "\xff", strings.Repeat("长文本", 1000)}
	got, err := SimHashStrings(texts, WithNgram(2))
	must(t, err)
	exact := make([]ExactFingerprint, len(texts))
	simhashes := make([]uint64, len(texts))
	must(t, SimHashTexts(PackStrings(texts), simhashes, exact, WithNgram(2)))
	for i, text := range texts {
		f, err := FingerprintText(text, WithNgram(2))
		must(t, err)
		if got[i] != f.SimHash || simhashes[i] != f.SimHash || exact[i] != f.Exact {
			t.Errorf("text %d: batch %x %x %v, single %+v", i, got[i], simhashes[i], exact[i], f)
		}
	}
	if out, err := SimHashStrings(nil); err != nil || len(out) != 0 {
		t.Errorf("no texts: %v, %v", out, err)
	}
	keys := PackStrings(texts)
	if err := SimHashTexts(keys, make([]uint64, 2), nil); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("short simhashes: %v", err)
	}
	if err := SimHashTexts(keys, simhashes, make([]ExactFingerprint, 1)); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("short exact: %v", err)
	}
	bad := Keys{Data: []byte("abc"), Offsets: []uint64{0, 4}}
	if err := SimHashTexts(bad, simhashes, nil); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("offsets past the data: %v", err)
	}
}

// Caller-made features: one feature of weight 1 is its own hash, so SimHashOfFeatures of one
// string gives its XXH3, and the byte and hash forms agree.
func TestSimHashFeatures(t *testing.T) {
	words := []string{"near", "duplicate", "detection", "新闻"}
	weights := []float32{1, 2.5, 0.5, 3}
	hashes := make([]uint64, len(words))
	for i, w := range words {
		h, err := SimHashOfFeatures(PackStrings([]string{w}), nil, 9)
		must(t, err)
		if one, err := SimHashOfHashes([]uint64{h}, nil); err != nil || one != h {
			t.Fatalf("one hash %x gives %x, %v", h, one, err)
		}
		hashes[i] = h
	}
	for _, w := range [][]float32{nil, weights} {
		a, err := SimHashOfFeatures(PackStrings(words), w, 9)
		must(t, err)
		b, err := SimHashOfHashes(hashes, w)
		must(t, err)
		if a != b {
			t.Errorf("weights %v: features %x, hashes %x", w, a, b)
		}
	}
	ones, _ := SimHashOfHashes(hashes, []float32{1, 1, 1, 1})
	if none, _ := SimHashOfHashes(hashes, nil); ones != none {
		t.Errorf("nil weights %x, unit weights %x", none, ones)
	}
	if s, err := SimHashOfHashes(nil, nil); s != 0 || err != nil {
		t.Errorf("no hashes: %x, %v", s, err)
	}
	if s, err := SimHashOfFeatures(Keys{}, nil, 0); s != 0 || err != nil {
		t.Errorf("no features: %x, %v", s, err)
	}
	if _, err := SimHashOfHashes(hashes, []float32{1}); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("too few weights: %v", err)
	}
	if _, err := SimHashOfFeatures(PackStrings(words), []float32{1}, 0); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("too few feature weights: %v", err)
	}
	nan := []float32{1, float32(math.NaN()), 1, 1}
	if _, err := SimHashOfHashes(hashes, nan); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("NaN weight: %v", err)
	}
	if _, err := SimHashOfFeatures(PackStrings(words), nan, 0); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("NaN feature weight: %v", err)
	}
	if s, err := SimHashOfFeatures(PackStrings([]string{"", ""}), nil, 0); err != nil {
		t.Errorf("empty features: %x, %v", s, err)
	}
}
