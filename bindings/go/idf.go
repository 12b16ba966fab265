package seen

import (
	"fmt"
	"runtime"
	"sort"
)

// IDF is a table of token weights for WithIDF: each occurrence of a token weighs the token's
// weight instead of 1, and tokens not in the table weigh the default weight. Typical weights
// are inverse document frequencies, so that common words move a fingerprint less.
//
// An IDF is immutable: any number of goroutines may fingerprint with it at once. Its memory
// lives in C; call Close after the last call that uses it returns (a finalizer is a backstop).
type IDF struct {
	h *idfHandle // nil once closed
}

type idfHandle struct {
	c *cIDF
}

// NewIDF is the table of weights, keyed by token. Tokens are normalized like text, so
// "Hello" and "ｈｅｌｌｏ" are one token (if both are given, the one that sorts last wins).
// A token is one word, or CJK characters as they would form one shingle (e.g. "新闻" with
// WithNgram(2)). Weights must be finite.
func NewIDF(weights map[string]float32, defaultWeight float32) (*IDF, error) {
	tokens := make([]string, 0, len(weights))
	for t := range weights {
		tokens = append(tokens, t)
	}
	sort.Strings(tokens) // a map's order is random; the table must not be
	w := make([]float32, len(tokens))
	for i, t := range tokens {
		w[i] = weights[t]
	}
	return NewIDFKeys(PackStrings(tokens), w, defaultWeight)
}

// NewIDFKeys is NewIDF from a batch of tokens, token i weighing weights[i] (a token given
// twice weighs its last weight).
func NewIDFKeys(tokens Keys, weights []float32, defaultWeight float32) (*IDF, error) {
	if err := tokens.validate(); err != nil {
		return nil, err
	}
	if len(weights) != tokens.Len() {
		return nil, invalid(fmt.Sprintf("%d weights for %d tokens", len(weights), tokens.Len()))
	}
	c, err := cIDFCreate(tokens.Data, tokens.Offsets, weights, defaultWeight)
	if err != nil {
		return nil, err
	}
	h := &idfHandle{c: c}
	runtime.SetFinalizer(h, (*idfHandle).free)
	return &IDF{h: h}, nil
}

func (h *idfHandle) free() {
	cIDFFree(h.c)
	h.c = nil
}

func (t *IDF) live() (*idfHandle, error) {
	if t == nil || t.h == nil || t.h.c == nil {
		return nil, ErrClosed
	}
	return t.h, nil
}

// Close frees the table; fingerprinting with it afterwards returns ErrClosed. Closing twice
// is a no-op. No call using the table may be running.
func (t *IDF) Close() error {
	if t == nil || t.h == nil || t.h.c == nil {
		return nil
	}
	h := t.h
	t.h = nil
	runtime.SetFinalizer(h, nil)
	h.free()
	return nil
}
