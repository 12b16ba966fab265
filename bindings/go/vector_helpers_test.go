package seen

import (
	"bufio"
	"os"
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
