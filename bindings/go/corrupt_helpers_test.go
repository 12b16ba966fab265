package seen

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corruptCase is an input every reader of a kind must refuse, with the status it must say.
type corruptCase struct {
	name  string
	input []byte
	want  Status
}

// damagedForms are the damages to a kind's good serialized form that each get their own
// status: cut short, a bad magic, a flipped payload bit.
func damagedForms(good []byte) []corruptCase {
	damaged := func(change func(b []byte)) []byte {
		b := append([]byte(nil), good...)
		change(b)
		return b
	}
	return []corruptCase{
		{"empty", nil, ErrTruncated},
		{"header only", good[:32], ErrTruncated},
		{"last byte cut", good[:len(good)-1], ErrTruncated},
		{"bad magic", damaged(func(b []byte) { b[0] ^= 0xff }), ErrBadMagic},
		{"payload bit flipped", damaged(func(b []byte) { b[len(b)-1] ^= 1 }), ErrBadChecksum},
	}
}

// notASeenFile is text, refused by its magic.
var notASeenFile = corruptCase{"not a seen file", []byte(strings.Repeat("hello, world ", 100)), ErrBadMagic}

// corruptForms are what every reader of f's kind must refuse: f's serialized form damaged,
// the form of other (another kind) and a file that is no seen file. Other's kind must
// refuse f's form in turn.
func corruptForms(t *testing.T, f, other serialForm) []corruptCase {
	t.Helper()
	good, otherForm := marshaled(t, f), marshaled(t, other)
	if err := other.UnmarshalBinary(good); !errors.Is(err, ErrWrongKind) {
		t.Errorf("%T.UnmarshalBinary of a %T: %v, want ErrWrongKind", other, f, err)
	}
	otherKind := corruptCase{fmt.Sprintf("a %T", other), otherForm, ErrWrongKind}
	return append(damagedForms(good), otherKind, notASeenFile)
}

// wantRefused fails the test unless err, a reader's answer to c, is c's status with a
// message from libseen.
func wantRefused(t *testing.T, c corruptCase, err error) {
	t.Helper()
	var e *Error
	if !errors.Is(err, c.want) || !errors.As(err, &e) || e.Message == "" {
		t.Errorf("%s: %v; want %v with a message", c.name, err, c.want)
	}
}

// refusesCorrupt checks every case against a kind whose f holds the key "x": UnmarshalBinary
// of a zero T fails with the case's status and a message and leaves it closed, f refuses it
// and stays as it was, and open (named openName) refuses the bytes as a file in either role.
func refusesCorrupt[T any, P interface {
	*T
	serialForm
	TestString(string) bool
}](t *testing.T, f P, cases []corruptCase, openName string, open func(string, bool) (P, error)) {
	t.Helper()
	dir := t.TempDir()
	for _, c := range cases {
		g := P(new(T))
		wantRefused(t, c, g.UnmarshalBinary(c.input))
		if err := panicOf(func() { g.TestString("x") }); !errors.Is(err, ErrClosed) {
			t.Errorf("%s: a failed UnmarshalBinary left a usable filter (%v)", c.name, err)
		}
		if err := f.UnmarshalBinary(c.input); err == nil {
			t.Errorf("%s: accepted", c.name)
		}
		if !f.TestString("x") {
			t.Errorf("%s: a failed UnmarshalBinary changed the filter", c.name)
		}
		path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".seen")
		must(t, os.WriteFile(path, c.input, 0o644))
		for _, readOnly := range []bool{true, false} {
			if g, err := open(path, readOnly); !errors.Is(err, c.want) {
				t.Errorf("%s(%s, readOnly %v): %v; want %v", openName, c.name, readOnly, err, c.want)
				g.Close()
			}
		}
	}
}
