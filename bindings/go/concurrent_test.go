package seen

import (
	"sync"
	"testing"
)

// Adds from many goroutines at once lose no bit (libseen ORs words atomically): afterwards
// every id of every goroutine is found. Run under -race it also checks that the binding
// adds no shared Go state of its own.
func TestConcurrentAdds(t *testing.T) {
	const workers, perWorker = 8, 20000
	f := newFilter(t, workers*perWorker, 0.01)
	ids := distinctIDs(9, workers*perWorker)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		part := ids[w*perWorker : (w+1)*perWorker]
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, id := range part {
				var err error
				if i%2 == 0 {
					err = f.AddUint64(id)
				} else {
					err = f.AddUint64s(part[i : i+1])
				}
				if err != nil { // t.Error, not t.Fatal: this is not the test's goroutine
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	out := make([]bool, len(ids))
	must(t, f.TestUint64s(ids, out))
	for i, found := range out {
		if !found {
			t.Fatalf("id %d added concurrently is absent", i)
		}
	}
}
