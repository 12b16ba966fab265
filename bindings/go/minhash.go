package seen

import (
	"errors"
	"runtime"
)

// MinHashIndex holds texts by id and returns, for a query text, every stored text whose
// estimated Jaccard similarity of word (or CJK character) pairs is at least the threshold,
// most similar first, each match verified (docs/minhash.md). Right where SimHash is not:
// short texts, and texts with an inserted header, footer or advert.
//
// Concurrency: Query and Len may run from any number of goroutines at once; Add, Remove and
// Close need exclusive access. Its memory lives in C: call Close when done; a finalizer
// frees a forgotten index as a backstop.
type MinHashIndex struct {
	h *minhashHandle // nil once closed
}

type minhashHandle struct{ c *cMinhash }

// MinHashMatch is one stored text found by a query, with its estimated Jaccard similarity.
type MinHashMatch struct {
	ID         uint64
	Similarity float64
}

// NewMinHashIndex is an empty index at the given Jaccard threshold, in (0, 1] (0 means 0.8).
func NewMinHashIndex(threshold float64) (*MinHashIndex, error) { return newMinHash(threshold, nil) }

// NewKeyedMinHashIndex hashes shingles under a secret key of 16 to 64 bytes, so that nobody
// without it can craft a text near another's sketch (docs/SECURITY.md).
func NewKeyedMinHashIndex(threshold float64, key []byte) (*MinHashIndex, error) {
	if len(key) == 0 {
		return nil, invalid("a secret key is 16 to 64 bytes, got none")
	}
	return newMinHash(threshold, key)
}

// UnmarshalMinHashIndex is a writable index copied from the bytes of MarshalBinary (kind 7
// of the container format), after checking them. A keyed index needs its key (else
// ErrIncompatible); nil is no key. The threshold comes from the bytes.
func UnmarshalMinHashIndex(data, key []byte) (*MinHashIndex, error) {
	return adoptMinHash(cMinhashDeserialize(data, key))
}

// OpenMinHashIndex reads a file Save wrote into a writable index, with the key rule of
// UnmarshalMinHashIndex.
func OpenMinHashIndex(path string, key []byte) (*MinHashIndex, error) {
	return adoptMinHash(cMinhashOpen(path, key))
}

func newMinHash(threshold float64, key []byte) (*MinHashIndex, error) {
	return adoptMinHash(cMinhashCreate(threshold, key))
}

func adoptMinHash(c *cMinhash, err error) (*MinHashIndex, error) {
	if err != nil {
		return nil, err
	}
	h := &minhashHandle{c: c}
	runtime.SetFinalizer(h, func(h *minhashHandle) { cMinhashFree(h.c) })
	return &MinHashIndex{h: h}, nil
}

func (x *MinHashIndex) live() (*minhashHandle, error) {
	if x == nil || x.h == nil {
		return nil, ErrClosed
	}
	return x.h, nil
}

// Add stores text under id, replacing what id held.
func (x *MinHashIndex) Add(id uint64, text string) error {
	h, err := x.live()
	if err != nil {
		return err
	}
	defer runtime.KeepAlive(h)
	return cMinhashAdd(h.c, id, text)
}

// Remove removes id and reports whether it was stored.
func (x *MinHashIndex) Remove(id uint64) (bool, error) {
	h, err := x.live()
	if err != nil {
		return false, err
	}
	defer runtime.KeepAlive(h)
	return cMinhashRemove(h.c, id)
}

// Query returns every stored text at or above the threshold, most similar first.
func (x *MinHashIndex) Query(text string) ([]MinHashMatch, error) {
	h, err := x.live()
	if err != nil {
		return nil, err
	}
	defer runtime.KeepAlive(h)
	ids, sims := make([]uint64, 16), make([]float64, 16)
	n, err := cMinhashQuery(h.c, text, ids, sims)
	if errors.Is(err, ErrBufferTooSmall) {
		ids, sims = make([]uint64, n), make([]float64, n)
		n, err = cMinhashQuery(h.c, text, ids, sims)
	}
	if err != nil {
		return nil, err
	}
	matches := make([]MinHashMatch, n)
	for i := range matches {
		matches[i] = MinHashMatch{ID: ids[i], Similarity: sims[i]}
	}
	return matches, nil
}

// Len is the number of texts stored.
func (x *MinHashIndex) Len() (int, error) {
	h, err := x.live()
	if err != nil {
		return 0, err
	}
	defer runtime.KeepAlive(h)
	texts, _, err := cMinhashSize(h.c)
	return int(texts), err
}

// MarshalBinary is the index's serialized form, kind 7 of the container format
// (encoding.BinaryMarshaler): the same bytes in every language and in the files of Save.
func (x *MinHashIndex) MarshalBinary() ([]byte, error) {
	return withLiveValue(x.live, func(h *minhashHandle) ([]byte, error) { return cMinhashMarshal(h.c) })
}

// Save writes the index to path crash-safely (a temporary file, fsync, then rename), so the
// previous file survives a failure.
func (x *MinHashIndex) Save(path string) error {
	return withLive(x.live, func(h *minhashHandle) error { return cMinhashSave(h.c, path) })
}

// Close frees the index. Closing twice is a no-op; any other use after Close returns
// ErrClosed.
func (x *MinHashIndex) Close() error {
	if x == nil || x.h == nil {
		return nil
	}
	h := x.h
	x.h = nil
	runtime.SetFinalizer(h, nil)
	cMinhashFree(h.c)
	return nil
}
