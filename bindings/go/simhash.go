package seen

import (
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"unsafe"
)

// SimHash fingerprints (docs/simhash.md): similar texts get 64-bit fingerprints a few bits
// apart, and a SimHashIndex finds every stored fingerprint within Hamming distance k of a
// query. libseen's tokenizer folds width and case, skips punctuation and whitespace, cuts
// Chinese, Japanese and Korean text into character n-grams (2 by default) and other text into
// words, and weighs each token by its frequency (or an IDF table). Invalid UTF-8 and NUL bytes
// act as separators, never as errors. A text with no tokens (empty, or only punctuation) has
// SimHash 0 and Features 0: compare such texts by their exact fingerprint.
//
// Every function here is pure and safe for concurrent use.

// TextFingerprint is what FingerprintText computes for one text.
type TextFingerprint struct {
	SimHash  uint64           // the near-duplicate fingerprint
	Exact    ExactFingerprint // equal for texts that differ only in case, width, punctuation and whitespace
	Features uint64           // tokens counted, with repeats; 0 means SimHash is 0
}

// ExactFingerprint is the XXH3-128 of a text's normalized form: the exact-duplicate
// fingerprint. It is comparable, so it can key a map.
type ExactFingerprint struct {
	High, Low uint64
}

// String is the 128 bits as 32 hex digits, high half first.
func (e ExactFingerprint) String() string { return fmt.Sprintf("%016x%016x", e.High, e.Low) }

// SimHashTexts writes ExactFingerprint values straight into C's exact[2i] (high), exact[2i+1]
// (low) layout; the line below stops the build if the struct ever had another size.
var _ [1]struct{} = [unsafe.Sizeof(ExactFingerprint{}) - 15]struct{}{}

// TextOption adjusts how a text is fingerprinted: WithNgram, WithFeatureSeed, WithIDF.
type TextOption func(*textOptions)

type textOptions struct {
	ngram    int // when ngramSet; else libseen's default, 2
	ngramSet bool
	seed     uint64
	idf      *IDF
}

// cNgram is the ngram field of seen_simhash_options: 0 for the default, and any n past 8
// stays past 8 (libseen refuses those; textOptionsOf refuses n < 1, which C would take as 0).
func (o textOptions) cNgram() uint32 {
	if !o.ngramSet {
		return 0
	}
	if uint64(o.ngram) > math.MaxUint32 {
		return math.MaxUint32
	}
	return uint32(o.ngram)
}

// WithNgram sets the length of the CJK character shingles, 1..8 (default 2). Shorter
// shingles find more edited copies of short texts, longer ones fewer false matches among long
// texts; see docs/simhash.md.
func WithNgram(n int) TextOption { return func(o *textOptions) { o.ngram, o.ngramSet = n, true } }

// WithFeatureSeed sets the XXH3 seed of every feature hash (default 0). Fingerprints made
// with different seeds are unrelated.
func WithFeatureSeed(seed uint64) TextOption { return func(o *textOptions) { o.seed = seed } }

// WithIDF weighs each token by its weight in t instead of 1 per occurrence. t must stay
// open until the call returns.
func WithIDF(t *IDF) TextOption { return func(o *textOptions) { o.idf = t } }

// textOptionsOf applies opts; an IDF table that was closed is ErrClosed.
func textOptionsOf(opts []TextOption) (textOptions, error) {
	var o textOptions
	for _, opt := range opts {
		opt(&o)
	}
	if o.ngramSet && o.ngram < 1 {
		return o, invalid(fmt.Sprintf("ngram %d: shingles are 1..8 characters", o.ngram))
	}
	if o.idf != nil {
		if _, err := o.idf.live(); err != nil {
			return o, err
		}
	}
	return o, nil
}

// idfC is the IDF table's C pointer, or nil for none.
func (o textOptions) idfC() *cIDF {
	if o.idf == nil {
		return nil
	}
	return o.idf.h.c
}

// keepAlive keeps the IDF table from being finalized before the C call that uses it returns.
func (o textOptions) keepAlive() {
	if o.idf != nil {
		runtime.KeepAlive(o.idf.h)
	}
}

// SimHash is the near-duplicate fingerprint of a UTF-8 text. The error is only ever for a
// bad option (an n-gram length outside 1..8, a closed IDF table).
func SimHash(text string, opts ...TextOption) (uint64, error) {
	f, err := FingerprintText(text, opts...)
	return f.SimHash, err
}

// SimHashBytes is SimHash of text's bytes.
func SimHashBytes(text []byte, opts ...TextOption) (uint64, error) {
	f, err := FingerprintBytes(text, opts...)
	return f.SimHash, err
}

// FingerprintText is every fingerprint of a text at once: SimHash, the exact fingerprint and
// the number of tokens. Memory stays constant however long the text is.
func FingerprintText(text string, opts ...TextOption) (TextFingerprint, error) {
	return fingerprint(stringPtr(text), len(text), opts)
}

// FingerprintBytes is FingerprintText of text's bytes.
func FingerprintBytes(text []byte, opts ...TextOption) (TextFingerprint, error) {
	return fingerprint(bytesPtr(text), len(text), opts)
}

// ExactFingerprintOf is the exact-duplicate fingerprint of a text: the XXH3-128 of its
// normalized form, so texts that differ only in case, width, punctuation and whitespace
// share it. It is also the only way to compare texts without tokens.
func ExactFingerprintOf(text string) (ExactFingerprint, error) {
	f, err := FingerprintText(text)
	return f.Exact, err
}

// fingerprint lends the text to C for one call, without a copy.
func fingerprint(text unsafe.Pointer, n int, opts []TextOption) (TextFingerprint, error) {
	o, err := textOptionsOf(opts)
	if err != nil {
		return TextFingerprint{}, err
	}
	f, err := cSimHashText(text, n, o)
	o.keepAlive()
	if err != nil {
		return TextFingerprint{}, err
	}
	return f, nil
}

// SimHashTexts fingerprints every text of a batch in one C call: simhashes[i] receives the
// SimHash of text i, and exact[i] its exact fingerprint unless exact is nil. simhashes (and
// exact, if given) must be at least texts.Len() long.
func SimHashTexts(texts Keys, simhashes []uint64, exact []ExactFingerprint, opts ...TextOption) error {
	o, err := textOptionsOf(opts)
	if err != nil {
		return err
	}
	if err := texts.validate(); err != nil {
		return err
	}
	n := texts.Len()
	if len(simhashes) < n {
		return invalid(fmt.Sprintf("simhashes has %d elements for %d texts", len(simhashes), n))
	}
	if exact != nil && len(exact) < n {
		return invalid(fmt.Sprintf("exact has %d elements for %d texts", len(exact), n))
	}
	if n == 0 {
		return nil
	}
	var exactOut unsafe.Pointer
	if exact != nil {
		exactOut = unsafe.Pointer(&exact[0])
	}
	err = cSimHashTexts(texts.Data, texts.Offsets, o, simhashes, exactOut)
	o.keepAlive()
	return err
}

// SimHashStrings is the SimHash of every text, through one packed batch (SimHashTexts).
func SimHashStrings(texts []string, opts ...TextOption) ([]uint64, error) {
	out := make([]uint64, len(texts))
	if err := SimHashTexts(PackStrings(texts), out, nil, opts...); err != nil {
		return nil, err
	}
	return out, nil
}

// SimHashOfHashes is the fingerprint of features you made and hashed yourself: hashes[i]
// weighs weights[i], or 1 when weights is nil. Weights must be finite, and as many as the
// hashes. No features give 0.
func SimHashOfHashes(hashes []uint64, weights []float32) (uint64, error) {
	if weights != nil && len(weights) != len(hashes) {
		return 0, invalid(fmt.Sprintf("%d weights for %d hashes", len(weights), len(hashes)))
	}
	return cSimHashHashes(hashes, weights)
}

// SimHashOfFeatures is the fingerprint of byte features, each hashed with XXH3-64 and seed:
// feature i weighs weights[i], or 1 when weights is nil. Weights must be finite, and as many
// as the features. No features give 0.
func SimHashOfFeatures(features Keys, weights []float32, seed uint64) (uint64, error) {
	return simHashOfFeatures(features, weights, seed, nil)
}

// SimHashOfFeaturesKeyed is SimHashOfFeatures with each feature hashed with SipHash-1-3
// under the secret key, 16 to 64 bytes, and seed (docs/SECURITY.md), so that whoever does
// not know the key cannot choose features that land near a given fingerprint. Fingerprints
// under different keys, or without one, are unrelated.
func SimHashOfFeaturesKeyed(features Keys, weights []float32, seed uint64, key []byte) (uint64, error) {
	return simHashOfFeatures(features, weights, seed, secret(key))
}

// simHashOfFeatures: a nil key is no key.
func simHashOfFeatures(features Keys, weights []float32, seed uint64, key []byte) (uint64, error) {
	if err := features.validate(); err != nil {
		return 0, err
	}
	n := features.Len()
	if weights != nil && len(weights) != n {
		return 0, invalid(fmt.Sprintf("%d weights for %d features", len(weights), n))
	}
	// No features give 0, but C still checks the key.
	return cSimHashStrings(features.Data, features.Offsets, n, weights, seed, key)
}

// Hamming is the number of bits in which a and b differ, 0..64: the distance between two
// SimHash fingerprints. Near-duplicates are a few bits apart (3 is the usual threshold).
func Hamming(a, b uint64) int { return bits.OnesCount64(a ^ b) }
