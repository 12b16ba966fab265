package bench

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/seen-bloom/seen/bindings/go"
)

// rssKiB reads one Rss line (RssAnon, RssFile) of /proc/self/status.
func rssKiB(t *testing.T, field string) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status: ", err)
	}
	defer f.Close()
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		if rest, ok := strings.CutPrefix(lines.Text(), field+":"); ok {
			kib, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kib
		}
	}
	t.Fatalf("no %s in /proc/self/status", field)
	return 0
}

// TestOpenMapsTheFile opens a 1 GiB filter file and checks that the process's anonymous
// memory (what a copy would occupy) barely grows: the filter is the file's mapped pages,
// counted as RssFile and shared with the page cache. It prints a "# rss" line for the
// report. Run by ./run, not by the test suite: it writes 1 GiB to a temporary directory.
func TestOpenMapsTheFile(t *testing.T) {
	const size = 1 << 30
	path := filepath.Join(t.TempDir(), "big.seen")
	f, err := seen.NewWithBytes(100_000_000, size, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.AddUint64s([]uint64{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	if err := f.Save(path); err != nil {
		t.Fatal(err)
	}
	f.Close()

	anon, file := rssKiB(t, "RssAnon"), rssKiB(t, "RssFile")
	g, err := seen.Open(path, true)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	ids := make([]uint64, 1_000_000)
	for i := range ids {
		ids[i] = splitmix64(uint64(i))
	}
	out := make([]bool, len(ids))
	if err := g.TestUint64s(ids, out); err != nil {
		t.Fatal(err)
	}
	// The ids and out slices above are 9 MB of the Go heap; a copy would be 1024 MiB.
	anonDelta, fileDelta := rssKiB(t, "RssAnon")-anon, rssKiB(t, "RssFile")-file
	fmt.Printf("# rss open_1GiB anon_MiB %.1f file_MiB %.1f\n", float64(anonDelta)/1024, float64(fileDelta)/1024)
	if anonDelta > 64<<10 {
		t.Errorf("opening a 1 GiB file grew anonymous memory by %d MiB: a copy?", anonDelta>>10)
	}
}
