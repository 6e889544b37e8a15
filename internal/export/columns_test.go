package export

import (
	"encoding/json"
	"strconv"
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

// Text cells that a spreadsheet would run as formulas get a leading
// single quote, as the reference writes them; values that are numbers in
// the data stay numbers, negative ones included; display values are text.
func TestCellsEscapeFormulas(t *testing.T) {
	cols, err := ParseColumns(json.RawMessage(`[{"field":"v"},{"field":"status","values":[{"key":"created","value":"=1+1"},{"key":"closed","value":"Closed"}]}]`))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		v    any
		want string
	}{
		{`=HYPERLINK("http://x","y")`, `'=HYPERLINK("http://x","y")`},
		{"+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0"},
		{"-2+3", "'-2+3"},
		{"-5", "'-5"}, // text that looks like a number is text, as in the reference
		{"@SUM(A1:A2)", "'@SUM(A1:A2)"},
		{"\t=1", "'\t=1"},
		{"\r=1", "'\r=1"},
		{"＝1+1", "'＝1+1"},
		{"a=1", "a=1"},
		{" =1", " =1"},
		{"'=1", "'=1"},
		{"", ""},
		{json.Number("-1.5"), "-1.5"},
		{json.Number("+3"), "+3"},
		{-2.25, "-2.25"},
		{-1e21, "-1e+21"},
		{true, "true"},
		{map[string]any{"id": "=id"}, "'=id"},
		{[]any{"=x"}, `["=x"]`},
	}
	for _, c := range cases {
		if got := cols[0].Cell(map[string]any{"v": c.v}); got != c.want {
			t.Errorf("%#v: %q, want %q", c.v, got, c.want)
		}
	}
	if got := cols[1].Cell(map[string]any{"status": "created"}); got != "'=1+1" {
		t.Errorf("display value: %q", got)
	}
	if got := cols[1].Cell(map[string]any{"status": "closed"}); got != "Closed" {
		t.Errorf("display value: %q", got)
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
			// A cell starts with a formula character only when it is a
			// number.
			if cell := c.Cell(it); asText(cell) != cell {
				if _, err := strconv.ParseFloat(cell, 64); err != nil {
					t.Fatalf("%s: unescaped formula cell %q", c.Name, cell)
				}
			}
		}
	})
}
