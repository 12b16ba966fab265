package seen

import (
	"strings"
	"sync"
	"testing"
)

// Goroutines that fail at the same time, each with its own message, each read their own:
// the message comes from the handle or from the seen_error lent to the call, never from
// state of the OS thread, which goroutines share and change between cgo calls.
func TestErrorMessagesUnderConcurrentFailures(t *testing.T) {
	junk := []byte(strings.Repeat("not a seen file ", 16))
	small := newFilter(t, 1000, 0.01)
	large := newFilter(t, 100000, 0.01)
	failures := []struct {
		call func() error
		says string
	}{
		{func() error { _, err := New(100, 3); return err }, "got 3"},
		{func() error { _, err := New(100, 5); return err }, "got 5"},
		{func() error { return small.Merge(large) }, "block count differs"},
		{func() error { var g BloomFilter; return g.UnmarshalBinary(junk) }, "magic"},
	}
	const rounds = 2000
	var mu sync.Mutex
	var wrong []string
	var wg sync.WaitGroup
	for copies := 0; copies < 4; copies++ { // more goroutines than threads: they move and share
		for _, f := range failures {
			wg.Add(1)
			go func(call func() error, says string) {
				defer wg.Done()
				for i := 0; i < rounds; i++ {
					if err := call(); err == nil || !strings.Contains(err.Error(), says) {
						mu.Lock()
						wrong = append(wrong, says+": "+errText(err))
						mu.Unlock()
					}
				}
			}(f.call, f.says)
		}
	}
	wg.Wait()
	if len(wrong) > 0 {
		t.Errorf("%d messages were not their own call's, e.g. %q", len(wrong), wrong[0])
	}
}

func errText(err error) string {
	if err == nil {
		return "no error"
	}
	return err.Error()
}
