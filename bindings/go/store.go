package seen

import (
	"fmt"
	"math"
	"runtime"
	"time"
)

// ExposureStore is the exposure store: one Window per user id, for millions of users, in one
// compact arena in C memory (about 15 bytes per user beside the window). A user appears on
// their first Mark or Take and is dropped after IdleTimeout without one.
//
// An ExposureStore is safe for concurrent use: Filter, Mark, Take, Expire, Stats and Save may be
// called from any number of goroutines at once. libseen spreads users over 64 shards, each
// with its own lock, and Take is atomic per user, so two concurrent page requests for one
// user never get the same item. Only Close needs exclusive access: call it after every
// other call has returned.
//
// Time is `now`, uint32 seconds of the caller's epoch, as for a Window (see UnixSeconds).
type ExposureStore struct {
	h *storeHandle // nil once closed
}

type storeHandle = owned[*cStore, WindowInfo] // its users' window

// StoreOptions configure NewExposureStore; the fields mirror seen_store_options.
type StoreOptions struct {
	// Window is every user's window, e.g. LastItems(500, 0.01).
	Window WindowOptions
	// IdleTimeout drops a user after this long without a Mark or Take. 0 means 24 hours;
	// NeverIdle (any negative value) keeps users until the memory bound evicts them. It is
	// rounded up to whole seconds, and activity is kept at hour granularity.
	IdleTimeout time.Duration
	// MaxBytes bounds the store's memory; 0 is unbounded. At the bound a new user evicts
	// the least recently active of a sample of users (counted in StoreStats.Evictions),
	// never the user being written.
	MaxBytes uint64
	// ExpectedUsers sizes the index up front; 0 means 2^20.
	ExpectedUsers uint64
}

// NeverIdle as StoreOptions.IdleTimeout keeps users however long they stay idle.
const NeverIdle time.Duration = -1

// StoreStats count a store's users and memory.
type StoreStats struct {
	Users       uint64
	Bytes       uint64 // memory held by windows, ids, times and the index
	Evictions   uint64 // users dropped by the memory bound
	Expirations uint64 // users dropped for idleness
}

// NewExposureStore is an empty store.
func NewExposureStore(opts StoreOptions) (*ExposureStore, error) {
	return adoptStore(cStoreCreate(opts, idleSeconds(opts.IdleTimeout), nil))
}

// NewExposureStoreKeyed is an empty keyed store (docs/SECURITY.md): every user's window is
// keyed as by NewWindowKeyed, and users pick their shard by the key, so whoever chooses items
// or user ids cannot aim them at a window or a shard without it. No file holds the key: the
// store's file opens only with it (OpenExposureStoreKeyed); a missing or wrong key is
// ErrIncompatible.
func NewExposureStoreKeyed(opts StoreOptions, key []byte) (*ExposureStore, error) {
	return adoptStore(cStoreCreate(opts, idleSeconds(opts.IdleTimeout), secret(key)))
}

// OpenExposureStore maps a store written by Save. readOnly opens it for Filter only: Mark, Take and
// Expire then fail with ErrReadOnly. Otherwise changes stay in memory until the next Save
// (the file is never written in place). verify checks the payload checksum first; without
// it a large store opens in about a second, and a corrupt window is refused (ErrInconsistent)
// when its user is touched. The header is always verified.
func OpenExposureStore(path string, readOnly, verify bool) (*ExposureStore, error) {
	return adoptStore(cStoreOpen(path, readOnly, verify, nil))
}

// OpenExposureStoreKeyed is OpenExposureStore for a keyed store's file, with its key.
func OpenExposureStoreKeyed(path string, readOnly, verify bool, key []byte) (*ExposureStore, error) {
	return adoptStore(cStoreOpen(path, readOnly, verify, secret(key)))
}

// idleSeconds is the C API's idle_timeout: 0 the default, UINT32_MAX never.
func idleSeconds(d time.Duration) uint32 {
	switch {
	case d == 0:
		return 0
	case d < 0:
		return math.MaxUint32
	}
	s := d / time.Second
	if d%time.Second != 0 {
		s++
	}
	if s >= math.MaxUint32 {
		return math.MaxUint32
	}
	return uint32(s)
}

func adoptStore(c *cStore, err error) (*ExposureStore, error) {
	return adoptAs(func(h *storeHandle) *ExposureStore { return &ExposureStore{h: h} }, c, err, cStoreWindowInfo, cStoreFree)
}

func (s *ExposureStore) live() (*storeHandle, error) {
	if s == nil {
		return nil, ErrClosed
	}
	return s.h.open()
}

// Close frees the store; changes since the last Save are lost. Closing twice is a no-op;
// any other use after Close returns ErrClosed.
func (s *ExposureStore) Close() error {
	if s == nil {
		return nil
	}
	return closeOwned(&s.h, nil)
}

// WindowInfo describes every user's window; the zero WindowInfo once closed.
func (s *ExposureStore) WindowInfo() WindowInfo { return factsOf(s.live) }

// Filter sets unseen[i] to whether candidates[i] was not shown to the user (is not in their
// window at now), for every i < len(candidates). A user the store has never seen has seen
// nothing. It does not count as activity. unseen must be at least as long as candidates.
func (s *ExposureStore) Filter(user uint64, candidates []uint64, now uint32, unseen []bool) error {
	return withLive(s.live, func(h *storeHandle) error {
		if len(unseen) < len(candidates) {
			return invalid(fmt.Sprintf("unseen has %d elements for %d candidates", len(unseen), len(candidates)))
		}
		return cStoreFilter(h.c, user, candidates, now, boolsPtr(unseen))
	})
}

// Mark records that the items were shown to the user at now.
func (s *ExposureStore) Mark(user uint64, items []uint64, now uint32) error {
	return withLive(s.live, func(h *storeHandle) error {
		return cStoreMark(h.c, user, items, now)
	})
}

// Take is one page of a feed, in one atomic step: the first `want` candidates the user has
// not seen, in candidate order (a candidate listed twice counts once), which it also marks
// as shown. Fewer come back when fewer are unseen. Two concurrent Takes for one user never
// return the same item.
func (s *ExposureStore) Take(user uint64, candidates []uint64, want int, now uint32) ([]uint64, error) {
	h, err := s.live()
	if err != nil {
		return nil, err
	}
	if want < 0 {
		return nil, invalid(fmt.Sprintf("want is %d", want))
	}
	if want > len(candidates) {
		want = len(candidates)
	}
	taken := make([]uint64, want)
	n, err := cStoreTake(h.c, user, candidates, now, taken)
	runtime.KeepAlive(h)
	if err != nil {
		return nil, err
	}
	return taken[:n], nil
}

// Expire drops every user idle longer than IdleTimeout at now and returns how many.
// Writes also drop an idle user they meet, so calling it is optional housekeeping (a
// nightly sweep, for instance) that returns memory early.
func (s *ExposureStore) Expire(now uint32) (uint64, error) {
	h, err := s.live()
	if err != nil {
		return 0, err
	}
	dropped, err := cStoreExpire(h.c, now)
	runtime.KeepAlive(h)
	return dropped, err
}

// Stats counts users, bytes, evictions and expirations (O(shards)).
func (s *ExposureStore) Stats() (StoreStats, error) {
	return withCValue(s.live, cStoreStats)
}

// Save writes the store to path crash-safely (a temporary file, fsync, rename): on failure
// the previous file stays intact. It holds every shard's lock while it writes, so other
// calls wait. OpenExposureStore maps the result.
func (s *ExposureStore) Save(path string) error {
	return withLive(s.live, func(h *storeHandle) error {
		return cStoreSave(h.c, path)
	})
}
