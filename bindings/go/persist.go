package seen

import (
	"bytes"
	"encoding"
	"io"
	"runtime"
	"unsafe"
)

// The serialized form is the container format of docs/FORMAT.md, the same bytes in every
// language and in the files of Save (MarshalBinary and Save: filter_base.go).

// UnmarshalBinary replaces the filter with a validated copy of data
// (encoding.BinaryUnmarshaler); a zero BloomFilter may be the receiver. On error the filter
// is unchanged.
func (f *BloomFilter) UnmarshalBinary(data []byte) error {
	g, err := adopt(cDeserializeAs[*cFilter](data, nil))
	return replaceBy(f, g, err)
}

// WriteTo writes the serialized filter to w (io.WriterTo). The bytes are staged in C
// memory, not the Go heap, and lent to w, which must not keep them (as io.Writer says).
func (f *BloomFilter) WriteTo(w io.Writer) (int64, error) {
	h, err := f.live()
	if err != nil {
		return 0, err
	}
	defer runtime.KeepAlive(h)
	n, err := cSerializedSize(h.c)
	if err != nil {
		return 0, err
	}
	buf := cMalloc(n)
	if buf == nil {
		return 0, &Error{Status: ErrNoMemory, Message: "WriteTo: cannot stage the serialized filter"}
	}
	defer cFreeBytes(buf)
	if err := cSerialize(h.c, buf, n); err != nil {
		return 0, err
	}
	written, err := w.Write(unsafe.Slice((*byte)(buf), n))
	return int64(written), err
}

// ReadFrom replaces the filter with the one serialized in r (io.ReaderFrom). It reads r to
// EOF, so r must hold exactly one filter. A zero BloomFilter may be the receiver.
func (f *BloomFilter) ReadFrom(r io.Reader) (int64, error) { return readAllInto(r, f.UnmarshalBinary) }

// readAllInto is ReadFrom for every kind: the serialized form is self-delimiting only as a
// whole, so r is read to EOF and handed to unmarshal.
func readAllInto(r io.Reader, unmarshal func([]byte) error) (int64, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return int64(len(data)), err
	}
	return int64(len(data)), unmarshal(data)
}

// writeMarshaled is WriteTo for the kinds that stage their bytes on the Go heap.
func writeMarshaled(w io.Writer, marshal func() ([]byte, error)) (int64, error) {
	b, err := marshal()
	if err != nil {
		return 0, err
	}
	n, err := w.Write(b)
	return int64(n), err
}

// Copy is a writable copy in C memory, also of a read-only or mapped filter, and of a keyed
// filter with its key (bits-and-blooms' Copy).
func (f *BloomFilter) Copy() (*BloomFilter, error) {
	return withLiveValue(f.live, func(h *handle) (*BloomFilter, error) {
		return adopt(cCopy(h.c))
	})
}

// Equal reports whether both filters have the same parameters and the same bits: they
// answer every query alike and marshal to the same bytes. It reads both filters (O(size)).
func (f *BloomFilter) Equal(other *BloomFilter) (bool, error) {
	return equalMarshaled(f, other)
}

// equalMarshaled is Equal for every kind. libseen has no equality call, but its serialized
// form is canonical (the same state always gives the same bytes, vectors pin it in every
// language), so equal bytes mean equal state.
func equalMarshaled(a, b encoding.BinaryMarshaler) (bool, error) {
	x, err := a.MarshalBinary()
	if err != nil {
		return false, err
	}
	y, err := b.MarshalBinary()
	if err != nil {
		return false, err
	}
	return bytes.Equal(x, y), nil
}

// copyThrough is Copy for the kinds libseen cannot copy: a serialize and deserialize round
// trip, with the key the original kept (nil for none), since a keyed one's bytes alone
// would not open.
func copyThrough[F any](marshal func() ([]byte, error), unmarshal func(data, key []byte) (F, error), key []byte) (F, error) {
	data, err := marshal()
	if err != nil {
		var none F
		return none, err
	}
	return unmarshal(data, key)
}
