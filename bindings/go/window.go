package seen

import (
	"fmt"
	"math"
	"time"
)

// Window is an exposure window for one user: has this item been shown to them recently?
// It always finds the last Span items (a count window) or the items of the last Span
// seconds (a time window), and forgets older ones within its stated slack. Its total
// false-positive rate, over all of its segments together, is the fpr it was sized for.
//
// Time is a plain uint32 of seconds, passed as `now` to every call, in any epoch the caller
// keeps (UnixSeconds converts a time.Time); tests can drive it like any other argument. Count
// windows ignore it. A clock that goes backwards never makes a window forget early: it only
// delays rotation, so there are still no false negatives.
//
// A Window is not safe for concurrent adds: tests may run from many goroutines at once, but
// an add needs exclusive access (your own lock, or one goroutine per user). The ExposureStore keeps
// millions of windows and does the locking itself. Close and UnmarshalBinary need
// exclusive access too.
//
// Its memory lives in C. Call Close when done; a finalizer frees a forgotten Window as a
// backstop.
type Window struct {
	h   *windowHandle // nil once closed
	key []byte        // a keyed window's key, for Copy (its bytes do not hold it); else nil
}

type windowHandle = owned[*cWindow, WindowInfo]

// WindowMode says what a window's span counts.
type WindowMode uint32

const (
	CountWindow WindowMode = 1 // the last Span items
	TimeWindow  WindowMode = 2 // the items of the last Span seconds
)

func (m WindowMode) String() string {
	switch m {
	case CountWindow:
		return "count"
	case TimeWindow:
		return "time"
	}
	return fmt.Sprintf("WindowMode(%d)", uint32(m))
}

// WindowLayout is the design libseen chose for a window: for a count window the smallest of
// ring, packed and sliced that meets the target rate; a time window grows.
type WindowLayout uint32

const (
	// RingLayout keeps the last Span items' 16-bit fingerprints: an exact span, no slack
	// (count windows of moderate rates).
	RingLayout WindowLayout = 1
	// SlicedLayout is Segments Bloom segments rotated together, each bit position holding
	// one bit per segment; slack 1/(Segments-1).
	SlicedLayout WindowLayout = 2
	// GrowingLayout is sliced segments in time whose base holds a quarter of ExpectedItems; a
	// segment given more goes on into growth levels that keep the rate for any number of items, up to
	// MaxBytes, past which the window gives up its oldest time, then its rate, never an item.
	GrowingLayout WindowLayout = 3
	// TableLayout (time windows, the default): each item a 32-bit fingerprint in a table whose
	// every lookup reads one cache line; it doubles as items come, up to MaxBytes.
	TableLayout WindowLayout = 4
	// PackedLayout keeps the ring's fingerprints in Segments segments, each a sorted set coded
	// in about 12 bits an item, forgotten a segment at a time; slack 1/(Segments-1).
	PackedLayout WindowLayout = 5
)

func (l WindowLayout) String() string {
	switch l {
	case RingLayout:
		return "ring"
	case SlicedLayout:
		return "sliced"
	case GrowingLayout:
		return "growing"
	case TableLayout:
		return "table"
	case PackedLayout:
		return "packed"
	}
	return fmt.Sprintf("WindowLayout(%d)", uint32(l))
}

// WindowOptions describe a window: what NewWindow makes and what an ExposureStore gives each user.
// LastItems, LastSeconds and LastItemsWithin fill them; the fields mirror
// seen_window_options.
type WindowOptions struct {
	Mode          WindowMode
	Span          uint32  // items (CountWindow) or seconds (TimeWindow) always remembered
	ExpectedItems uint32  // TimeWindow: the most items expected within Span
	FPR           float64 // total false-positive rate once full, in (0, 1)
	MaxSlack      float64 // how far past Span an item may linger, as a fraction; 0 means 0.25
	Seed          uint64  // hash seed, stored in the window
	MaxBytes      uint64  // CountWindow, if not 0: the lowest-rate window of at most this many state bytes (FPR is then ignored); TimeWindow: the most bytes it may grow to (0: the larger of 1 MiB and 4x its start)
}

// WindowOption adjusts WindowOptions: WithSeed, WithMaxSlack.
type WindowOption func(*WindowOptions)

// WithSeed sets the hash seed (default 0). Pass a secret one if adversaries choose items.
func WithSeed(seed uint64) WindowOption { return func(o *WindowOptions) { o.Seed = seed } }

// WithMaxSlack bounds how long past the span an item may still be found, as a fraction of
// the span (default 0.25: a count window of 500 forgets everything older than 625 items).
// A smaller slack costs more segments, so more memory at the same rate.
func WithMaxSlack(slack float64) WindowOption { return func(o *WindowOptions) { o.MaxSlack = slack } }

// LastItems describes a count window: the last n items, at total false-positive rate fpr.
func LastItems(n uint32, fpr float64, opts ...WindowOption) WindowOptions {
	return with(WindowOptions{Mode: CountWindow, Span: n, FPR: fpr}, opts)
}

// LastSeconds describes a time window: the items of the last `seconds` seconds, sized for at
// most expectedItems of them at total false-positive rate fpr.
func LastSeconds(seconds, expectedItems uint32, fpr float64, opts ...WindowOption) WindowOptions {
	return with(WindowOptions{Mode: TimeWindow, Span: seconds, ExpectedItems: expectedItems, FPR: fpr}, opts)
}

// LastItemsWithin describes a count window of the last n items in at most maxBytes bytes of
// state, with the lowest false-positive rate that fits.
func LastItemsWithin(n uint32, maxBytes uint64, opts ...WindowOption) WindowOptions {
	return with(WindowOptions{Mode: CountWindow, Span: n, MaxBytes: maxBytes}, opts)
}

func with(o WindowOptions, opts []WindowOption) WindowOptions {
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

// WindowInfo is what a window became: its layout, exact span, slack, memory and predicted
// rate. It never changes.
type WindowInfo struct {
	Mode         WindowMode
	Layout       WindowLayout
	Span         uint32
	Segments     uint32  // SlicedLayout, GrowingLayout: Bloom segments; RingLayout: 0
	StateBytes   uint64  // memory of one window's state (GrowingLayout: its start)
	Slack        float64 // how far past Span an item may still be found, as a fraction of Span
	PredictedFPR float64 // total false-positive rate once full
	Seed         uint64
	MaxBytes     uint64 // GrowingLayout: the most bytes it may take; else 0
}

// NewCountWindow is an empty window of the last n items at total false-positive rate fpr.
func NewCountWindow(n uint32, fpr float64, opts ...WindowOption) (*Window, error) {
	return NewWindow(LastItems(n, fpr, opts...), 0)
}

// NewTimeWindow is an empty window of the last `seconds` seconds, sized for at most
// expectedItems of them at total rate fpr; now starts its clock.
func NewTimeWindow(seconds, expectedItems uint32, fpr float64, now uint32, opts ...WindowOption) (*Window, error) {
	return NewWindow(LastSeconds(seconds, expectedItems, fpr, opts...), now)
}

// NewCountWindowWithBytes is an empty window of the last n items whose state fits in
// maxBytes, with the lowest rate that fits (see Info).
func NewCountWindowWithBytes(n uint32, maxBytes uint64, opts ...WindowOption) (*Window, error) {
	return NewWindow(LastItemsWithin(n, maxBytes, opts...), 0)
}

// NewWindow is an empty window as described by o; now starts the clock of a time window.
func NewWindow(o WindowOptions, now uint32) (*Window, error) {
	return adoptWindow(cWindowCreate(o, now, nil))
}

// NewWindowKeyed is NewWindow for a keyed window (docs/SECURITY.md): its items hash with
// SipHash-1-3 under the secret key, 16 to 64 bytes, so whoever chooses them cannot aim them
// at the window without it. No file holds the key: a keyed window's bytes open only with it
// (UnmarshalWindowKeyed); a missing or wrong key is ErrIncompatible. The window keeps a copy
// of the key in Go memory for Copy.
func NewWindowKeyed(o WindowOptions, now uint32, key []byte) (*Window, error) {
	return keepKey(key, adoptWindow)(cWindowCreate(o, now, secret(key)))
}

// UnmarshalWindowKeyed is a keyed window copied from its serialized bytes, with its key.
func UnmarshalWindowKeyed(data, key []byte) (*Window, error) {
	return unmarshalWindow(data, secret(key))
}

// unmarshalWindow is a window copied from data; a nil key is no key.
func unmarshalWindow(data, key []byte) (*Window, error) {
	return keepKey(key, adoptWindow)(cDeserializeAs[*cWindow](data, key))
}

func adoptWindow(c *cWindow, err error) (*Window, error) {
	return adoptAs(func(h *windowHandle) *Window { return &Window{h: h} }, c, err, cWindowInfo, cWindowFree)
}

func (w *Window) keep(key []byte) { w.key = key }

// live is the open handle, or ErrClosed (also for a copy of a closed Window).
func (w *Window) live() (*windowHandle, error) {
	if w == nil {
		return nil, ErrClosed
	}
	return w.h.open()
}

// Info of the window; the zero WindowInfo once closed.
func (w *Window) Info() WindowInfo { return factsOf(w.live) }

// Close frees the window. Closing twice is a no-op; any other use after Close returns
// ErrClosed.
func (w *Window) Close() error {
	if w == nil {
		return nil
	}
	return closeOwned(&w.h, nil)
}

// MarshalBinary is the window's serialized form, kind 4 of the container format
// (encoding.BinaryMarshaler): the same bytes in every language.
func (w *Window) MarshalBinary() ([]byte, error) {
	return withCValue(w.live, cMarshalOf[*cWindow])
}

// UnmarshalBinary replaces the window with a validated copy of data
// (encoding.BinaryUnmarshaler); a zero Window may be the receiver. On error the window is
// unchanged. A Bloom filter's bytes are refused with ErrWrongKind, a keyed window's with
// ErrIncompatible (UnmarshalWindowKeyed reads them).
func (w *Window) UnmarshalBinary(data []byte) error {
	g, err := unmarshalWindow(data, nil)
	return replaceBy(w, g, err)
}

// Copy is an independent copy of the window, contents and clock included, and of a keyed
// window with its key. libseen has no copy call for windows, so this is a serialize and
// deserialize round trip, with the key the window kept when it is keyed (its bytes alone
// would not open).
func (w *Window) Copy() (*Window, error) {
	return copyThrough(w.MarshalBinary, unmarshalWindow, w.key)
}

// Equal reports whether both windows are in the same state: the same options, clock,
// segments and bits, so that they answer alike now and after the same adds. Two windows
// that hold the same items but rotated differently are not Equal. It compares the serialized
// forms (libseen has no equality call): O(size).
func (w *Window) Equal(other *Window) (bool, error) {
	return equalMarshaled(w, other)
}

// UnixSeconds is t as the uint32 clock of windows and stores, in Unix seconds: the epoch
// most callers keep. Times before 1970 give 0 and times after 2106 give math.MaxUint32.
func UnixSeconds(t time.Time) uint32 {
	s := t.Unix()
	if s < 0 {
		return 0
	}
	if s > math.MaxUint32 {
		return math.MaxUint32
	}
	return uint32(s)
}
