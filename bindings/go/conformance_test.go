package seen

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
)

// The behaviour cases of tests/vectors/conformance.cases, which the C API tests and every
// binding run alike (the file's head says what each line means): ApproximatedSize's rounding,
// the status every error wraps, merges and round trips.

// caseFilter is what a case does with a BloomFilter or a CountingFilter.
type caseFilter interface {
	AddUint64(id uint64) error
	AddString(key string) error
	TestUint64(id uint64) bool
	TestString(key string) bool
	ApproximatedSize() (uint64, error)
	MarshalBinary() ([]byte, error)
	Close() error
}

type conformanceCase struct {
	name  string
	lines [][]string
}

func readConformanceCases(t *testing.T) []conformanceCase {
	text, err := os.ReadFile(vectorDir + "/conformance.cases")
	if err != nil {
		t.Fatal(err)
	}
	var cases []conformanceCase
	for _, line := range strings.Split(string(text), "\n") {
		words := strings.Fields(strings.SplitN(line, "#", 2)[0])
		switch {
		case len(words) == 0:
		case words[0] == "case":
			cases = append(cases, conformanceCase{name: words[1]})
		default:
			cases[len(cases)-1].lines = append(cases[len(cases)-1].lines, words)
		}
	}
	return cases
}

func createCaseFilter(w []string) (caseFilter, error) {
	capacity, _ := strconv.ParseUint(w[2], 10, 64)
	fpr := DefaultFPR
	if w[3] != "default" {
		fpr, _ = strconv.ParseFloat(w[3], 64)
	}
	seed, _ := strconv.ParseUint(w[4], 10, 64)
	if w[1] == "counting" {
		return NewCountingWithSeed(capacity, fpr, seed)
	}
	return NewWithSeed(capacity, fpr, seed)
}

func statusNamed(name string) Status {
	for s := ErrInvalidArgument; s <= ErrNotFound; s++ {
		if s.Error() == "SEEN_ERR_"+name {
			return s
		}
	}
	panic("no status " + name)
}

func TestConformanceCases(t *testing.T) {
	cases := readConformanceCases(t)
	if len(cases) < 10 {
		t.Fatalf("%d cases", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, w := range c.lines {
				if w[0] == "create" && strings.HasPrefix(w[2], "-") {
					t.Skip("Go takes capacities as uint64: a negative one cannot be written")
				}
			}
			runConformanceCase(t, c.lines)
		})
	}
}

func runConformanceCase(t *testing.T, lines [][]string) {
	var filter, other caseFilter
	var failure error // of the last create or sizing
	var sizedBytes uint64
	var sizedK uint32
	var sizedFPR float64
	for _, w := range lines {
		args := w[1:]
		switch w[0] {
		case "create":
			var f caseFilter
			f, failure = createCaseFilter(w)
			if failure == nil {
				filter = f
				defer f.Close()
			}
		case "error":
			if !errors.Is(failure, statusNamed(args[0])) {
				t.Fatalf("error %v, want %s", failure, args[0])
			}
			for _, word := range args[1:] {
				if !strings.Contains(failure.Error(), word) {
					t.Errorf("%q lacks %q", failure.Error(), word)
				}
			}
		case "add_u64", "other_add_u64":
			for _, id := range args {
				n, _ := strconv.ParseUint(id, 10, 64)
				target := filter
				if w[0] == "other_add_u64" {
					target = other
				}
				if err := target.AddUint64(n); err != nil {
					t.Fatal(err)
				}
			}
		case "add_u64_range":
			first, _ := strconv.ParseUint(args[0], 10, 64)
			end, _ := strconv.ParseUint(args[1], 10, 64)
			for id := first; id < end; id++ {
				if err := filter.AddUint64(id); err != nil {
					t.Fatal(err)
				}
			}
		case "add_str":
			for _, key := range args {
				if err := filter.AddString(key); err != nil {
					t.Fatal(err)
				}
			}
		case "len":
			got, err := filter.ApproximatedSize()
			if want, _ := strconv.ParseUint(args[0], 10, 64); err != nil || got != want {
				t.Errorf("ApproximatedSize() = %d, %v; want %d", got, err, want)
			}
		case "has_u64", "lacks_u64":
			for _, id := range args {
				n, _ := strconv.ParseUint(id, 10, 64)
				if filter.TestUint64(n) != (w[0] == "has_u64") {
					t.Errorf("%s %d", w[0], n)
				}
			}
		case "has_str", "lacks_str":
			for _, key := range args {
				if filter.TestString(key) != (w[0] == "has_str") {
					t.Errorf("%s %q", w[0], key)
				}
			}
		case "bytes":
			want, _ := strconv.ParseUint(args[0], 10, 64)
			got := uint64(0)
			switch f := filter.(type) {
			case *BloomFilter:
				got = f.Params().Bytes
			case *CountingFilter:
				got = f.Params().Bytes
			}
			if got != want {
				t.Errorf("bytes %d, want %d", got, want)
			}
		case "other":
			f, err := createCaseFilter(w)
			if err != nil {
				t.Fatal(err)
			}
			other = f
			defer f.Close()
		case "merge", "intersect":
			combine := filter.(*BloomFilter).Merge
			if w[0] == "intersect" {
				combine = filter.(*BloomFilter).Intersect
			}
			// No argument: it succeeds; else the status it fails with.
			if err := combine(other.(*BloomFilter)); len(args) == 0 && err != nil {
				t.Errorf("%s: %v", w[0], err)
			} else if len(args) > 0 && !errors.Is(err, statusNamed(args[0])) {
				t.Errorf("%s: %v, want %s", w[0], err, args[0])
			}
		case "covers":
			covers, err := filter.(*BloomFilter).Covers(other.(*BloomFilter))
			switch args[0] {
			case "true", "false":
				if err != nil || covers != (args[0] == "true") {
					t.Errorf("covers = %v, %v; want %s", covers, err, args[0])
				}
			default:
				if !errors.Is(err, statusNamed(args[0])) {
					t.Errorf("covers: %v, want %s", err, args[0])
				}
			}
		case "round_trip":
			data, err := filter.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			var back caseFilter
			if _, counting := filter.(*CountingFilter); counting {
				back, err = unmarshalCounting(data, nil)
			} else {
				var b BloomFilter
				back, err = &b, b.UnmarshalBinary(data)
			}
			if err != nil {
				t.Fatal(err)
			}
			defer back.Close()
			filter = back
		case "size_for":
			n, _ := strconv.ParseUint(args[0], 10, 64)
			sizedFPR, _ = strconv.ParseFloat(args[1], 64)
			sizedBytes, sizedK, failure = SizeFor(n, sizedFPR)
		case "predict_fpr":
			n, _ := strconv.ParseUint(args[0], 10, 64)
			sizedBytes, _ = strconv.ParseUint(args[1], 10, 64)
			sizedFPR, sizedK, failure = PredictFPR(n, sizedBytes)
		case "sized":
			bytes, _ := strconv.ParseUint(args[0], 10, 64)
			k, _ := strconv.ParseUint(args[1], 10, 32)
			if sizedBytes != bytes || uint64(sizedK) != k {
				t.Errorf("sized %d, %d; want %d, %d", sizedBytes, sizedK, bytes, k)
			}
			if fpr, _ := strconv.ParseFloat(strings.Join(args[2:], ""), 64); len(args) > 2 && sizedFPR != fpr {
				t.Errorf("fpr %v, want %v", sizedFPR, fpr)
			}
		default:
			t.Fatalf("unknown line %s", w[0])
		}
	}
}
