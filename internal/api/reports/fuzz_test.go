package reports

import (
	"encoding/json"
	"testing"
)

// FuzzProjectFilters checks the project readers of reports.move and
// reports.get_all_ex: any JSON value gives ids or a field-naming error,
// never a panic, and a list keeps one id per item (null = the root).
func FuzzProjectFilters(f *testing.F) {
	for _, s := range []string{`"p1"`, `null`, `[null, "p2"]`, `[]`, `5`, `{"a": 1}`, `["a", 3]`, ``} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		m := &moveRequest{Project: json.RawMessage(raw)}
		if id, given, err := m.project(); err == nil && !given && id != "" {
			t.Fatalf("absent project read as %q", id)
		}
		g := &getAllExRequest{Project: json.RawMessage(raw)}
		ids, _, err := g.projects()
		var list []*string
		if json.Unmarshal([]byte(raw), &list) == nil && list != nil && (err != nil || len(ids) != len(list)) {
			t.Fatalf("list %q read as %q (%v)", raw, ids, err)
		}
	})
}
