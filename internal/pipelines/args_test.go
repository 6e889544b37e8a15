package pipelines

import (
	"testing"

	"github.com/trove-ml/trove/internal/store"
)

func TestWithArgsReplacesOnlyTheArgsSection(t *testing.T) {
	typ := "str"
	hp := map[string]map[string]*store.ParamItem{
		"properties": {"version": {Section: "properties", Name: "version", Value: "3.2", Type: &typ}},
		"Args":       {"old": {Section: "Args", Name: "old", Value: "gone"}},
	}
	out := withArgs(hp, []Arg{{Name: "hello", Value: "test"}})
	if len(out) != 2 || len(out["Args"]) != 1 || *out["Args"]["hello"].Value != "test" || out["Args"]["hello"].Section != "Args" {
		t.Fatalf("Args: %+v", out["Args"])
	}
	if v := out["properties"]["version"]; v == nil || *v.Value != "3.2" || *v.Type != "str" {
		t.Fatalf("properties: %+v", out["properties"])
	}
}
