package testenv

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// timestamps are the server's times as answers write them.
var timestamps = regexp.MustCompile(`"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)"`)

// Pinned returns the data member of r as the server wrote it (member order
// and number spelling kept), with every timestamp written as "<time>" and
// every occurrence of each value in names written as its key, so that a
// test can compare a whole answer byte for byte on any backend. Longer
// values are replaced first.
func (r *Response) Pinned(t testing.TB, names map[string]string) string {
	t.Helper()
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(r.Raw, &env); err != nil {
		t.Fatalf("answer: %v: %s", err, r.Raw)
	}
	out := timestamps.ReplaceAllString(string(env.Data), `"<time>"`)
	out = scrollIDs.ReplaceAllString(out, `"scroll_id":"-"`)
	keys := make([]string, 0, len(names))
	for k := range names {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return len(names[keys[i]]) > len(names[keys[j]]) })
	for _, k := range keys {
		if names[k] == "" {
			t.Fatalf("Pinned: %s is empty", k)
		}
		out = strings.ReplaceAll(out, names[k], k)
	}
	return out
}

// PinnedCase is an answer and the bytes its data must have (see Pinned).
type PinnedCase struct {
	Name string
	Got  *Response
	Want string
}

// CheckPinned reports every case whose answer, masked with names, is not
// its Want byte for byte.
func CheckPinned(t testing.TB, names map[string]string, cases []PinnedCase) {
	t.Helper()
	for _, c := range cases {
		if got := c.Got.Pinned(t, names); got != c.Want {
			t.Errorf("%s answer changed:\n got %s\nwant %s", c.Name, got, c.Want)
		}
	}
}
