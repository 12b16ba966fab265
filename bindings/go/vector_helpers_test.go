package seen

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// forEachDirective calls parse with the fields of every directive of a .vec file (blank
// lines and # comments skipped) and its line number; a parse error fails the test at
// file:line. Lines may be long: texts are spelled out in hex.
func forEachDirective(t *testing.T, file string, parse func(line int, fields []string) error) {
	t.Helper()
	r, err := os.Open(file)
	must(t, err)
	defer r.Close()
	lines := bufio.NewScanner(r)
	lines.Buffer(nil, 1<<20)
	for n := 1; lines.Scan(); n++ {
		f := strings.Fields(lines.Text())
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if err := parse(n, f); err != nil {
			t.Fatalf("%s:%d: %v", file, n, err)
		}
	}
	must(t, lines.Err())
}

// knownDirective is an error unless f is a directive of want with the field count it gives,
// so format drift fails loudly.
func knownDirective(f []string, want map[string]int) error {
	if n, ok := want[f[0]]; !ok || n != len(f) {
		return fmt.Errorf("unknown directive or wrong field count: %q", strings.Join(f, " "))
	}
	return nil
}

// parseStep reads an add_, remove_ or query_ directive of an id (_u64) or a hex key (_key),
// with the answer of a remove or a query.
func parseStep(line int, f []string) (scriptStep, error) {
	s := scriptStep{line: line, isKey: strings.HasSuffix(f[0], "_key")}
	switch {
	case strings.HasPrefix(f[0], "add"):
		s.op = opAdd
	case strings.HasPrefix(f[0], "remove"):
		s.op = opRemove
	default:
		s.op = opQuery
	}
	var err error
	if s.isKey {
		s.key, err = parseKey(f[1])
	} else {
		s.id, err = strconv.ParseUint(f[1], 10, 64)
	}
	if len(f) == 3 {
		if f[2] != "0" && f[2] != "1" {
			return s, fmt.Errorf("answer %q is not 0 or 1", f[2])
		}
		s.answer = f[2] == "1"
	}
	return s, err
}
