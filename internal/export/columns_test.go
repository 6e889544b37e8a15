package export

import (
	"encoding/json"
	"testing"

	"github.com/trove-ml/trove/internal/apierr"
)

func TestColumnCells(t *testing.T) {
	cols, err := ParseColumns(json.RawMessage(`[{"field":"status","name":"Status","values":[{"key":"created","value":"Draft"},{"key":null,"value":"none"}]},
		{"field":"project.name"},{"field":"project"},{"field":"last_metrics.a.b.value","values":[{"key":1,"value":"one"}]},{"field":"ready"},{"field":"tags"}]`))
	if err != nil {
		t.Fatal(err)
	}
	item := map[string]any{"status": "created", "project": map[string]any{"id": "p1", "name": "P"},
		"last_metrics": map[string]any{"a": map[string]any{"b": map[string]any{"value": json.Number("1.0")}}},
		"ready":        true, "tags": []any{"x", "y"}}
	want := []string{"Draft", "P", "p1", "one", "true", `["x","y"]`}
	for i, c := range cols {
		if got := c.Cell(item); got != want[i] {
			t.Errorf("%s: %q, want %q", c.Name, got, want[i])
		}
	}
	if got := cols[0].Cell(map[string]any{"status": nil}); got != "none" {
		t.Errorf("null maps through its key: %q", got)
	}
	if got := cols[1].Cell(map[string]any{"project": "p1"}); got != "" {
		t.Errorf("a path through a string: %q", got)
	}
}

// FuzzParseColumns: any field_mappings is parsed or refused with a 400,
// never a panic; a parsed column reads any item without panicking.
func FuzzParseColumns(f *testing.F) {
	for _, s := range []string{`[{"field":"name"}]`, `[{"field":"a.b","name":"x","values":[{"key":1,"value":"y"},{"key":null,"value":null}]}]`,
		`[{"field":""}]`, `{}`, `[1]`, `[{"field":"a","values":[{"key":[],"value":1}]}]`, `null`, ``, `[{"field":"a.","values":[{"key":"1e999"}]}]`} {
		f.Add(s, `{"a":{"b":[1,{"id":"x"}]},"name":null}`)
	}
	f.Fuzz(func(t *testing.T, spec, item string) {
		cols, err := ParseColumns(json.RawMessage(spec))
		if err != nil {
			if ae := apierr.As(err); ae == nil || ae.Code != 400 {
				t.Fatalf("not a 400: %v", err)
			}
			return
		}
		if len(cols) == 0 {
			t.Fatal("parsed without columns")
		}
		var it map[string]any
		if json.Unmarshal([]byte(item), &it) != nil {
			return
		}
		for _, c := range cols {
			_ = c.Cell(it)
		}
	})
}
