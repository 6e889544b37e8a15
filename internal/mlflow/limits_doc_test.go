package mlflow

import (
	"go/ast"
	"go/parser"
	gotoken "go/token"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestLimitsDocumented: docs/mlflow.md's Limits table states every
// constant of limits.go with the value the code enforces. The constants
// are read from the source, so a new limit fails here until documented.
func TestLimitsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/mlflow.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(doc), "\n## Limits\n")
	if !ok {
		t.Fatal("docs/mlflow.md has no Limits section")
	}
	if end := strings.Index(table, "\n## "); end >= 0 {
		table = table[:end]
	}
	rows := map[string]string{}
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) > 3 {
			rows[strings.Trim(strings.TrimSpace(cells[1]), "`")] = strings.TrimSpace(cells[2])
		}
	}
	limits := limitsInSource(t)
	if len(limits) < 20 {
		t.Fatalf("read %d limits from limits.go; the parse is wrong", len(limits))
	}
	for name, v := range limits {
		got, ok := rows[name]
		if !ok {
			t.Errorf("docs/mlflow.md's Limits table has no row for %s", name)
			continue
		}
		if got != strconv.FormatInt(v, 10) {
			t.Errorf("docs/mlflow.md states %s = %s; the code says %d", name, got, v)
		}
	}
}

// limitsInSource reads limits.go's constants and their literal values.
func limitsInSource(t *testing.T) map[string]int64 {
	f, err := parser.ParseFile(gotoken.NewFileSet(), "limits.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != gotoken.CONST {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok {
					t.Fatalf("limits.go: %s is not a number literal", name.Name)
				}
				v, err := strconv.ParseInt(lit.Value, 0, 64)
				if err != nil {
					t.Fatalf("limits.go: %s: %v", name.Name, err)
				}
				out[name.Name] = v
			}
		}
	}
	return out
}

// TestLimitsSourceMatchesCode: the values read from the source are the
// compiled constants (so the doc test checks what runs).
func TestLimitsSourceMatchesCode(t *testing.T) {
	src := limitsInSource(t)
	for name, v := range map[string]int64{"MaxNameLen": MaxNameLen, "MaxVersionResults": MaxVersionResults,
		"GraphQLMaxTokens": GraphQLMaxTokens, "MaxArtifactList": MaxArtifactList, "DefExpResults": DefExpResults} {
		if src[name] != v {
			t.Errorf("%s: source %d, compiled %d", name, src[name], v)
		}
	}
}
