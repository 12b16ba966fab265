package seen

// Status mirrors seen_status; the numbers are libseen's and never change. Each non-OK
// Status is itself an error, so errors.Is(err, seen.ErrTruncated) matches any failure of
// that kind, while errors.As(err, &e) with e *seen.Error also yields the library's message.
type Status int32

// The statuses of seen.h, under Go names.
const (
	ErrInvalidArgument    Status = 1  // NULL pointer, fpr outside (0, 1), bad flags, ...
	ErrNoMemory           Status = 2  // an allocation or mapping failed
	ErrIO                 Status = 3  // open, read, write, fsync or rename failed
	ErrBadMagic           Status = 4  // the input is not a seen file
	ErrUnsupportedVersion Status = 5  // a major format version this build cannot read
	ErrTruncated          Status = 6  // the input ends before its declared size
	ErrBadChecksum        Status = 7  // header or payload checksum mismatch
	ErrInconsistent       Status = 8  // sizes or parameters that do not add up
	ErrWrongKind          Status = 9  // a valid file of another kind
	ErrTooLarge           Status = 10 // more than the library will allocate
	ErrReadOnly           Status = 11 // a write to a read-only filter
	ErrIncompatible       Status = 12 // merge of filters with different parameters
	ErrBufferTooSmall     Status = 13 // the caller's buffer cannot hold the result
	ErrInternal           Status = 14 // a bug in libseen: please report it with the message
	ErrNotFound           Status = 15 // a remove of a key that was certainly never added
)

// Error is the name libseen gives the status, e.g. "SEEN_ERR_TRUNCATED".
func (s Status) Error() string { return statusName(s) }

// Error is a failed call: its status and the message libseen gave for it.
type Error struct {
	Status  Status
	Message string
}

func (e *Error) Error() string {
	if e.Message == "" {
		return "seen: " + e.Status.Error()
	}
	return "seen: " + e.Status.Error() + ": " + e.Message
}

// Unwrap exposes the status to errors.Is.
func (e *Error) Unwrap() error { return e.Status }

// ErrClosed is returned by every method of a closed (or zero) BloomFilter, Window, ExposureStore,
// CountingFilter or ScalableFilter. It is an ErrInvalidArgument, as the C API would say of
// a NULL handle.
var ErrClosed error = &Error{Status: ErrInvalidArgument, Message: "use after Close"}

func invalid(message string) error { return &Error{Status: ErrInvalidArgument, Message: message} }
