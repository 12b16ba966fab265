package seen

import "strings"

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
