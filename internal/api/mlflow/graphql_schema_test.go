package mlflow

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/graph-gophers/graphql-go/ast"
	gqlast "github.com/vektah/gqlparser/v2/ast"

	"github.com/trove-ml/trove/internal/rpc"

	"github.com/trove-ml/trove/internal/mlflow"
)

// TestGraphQLSchemaBinds: every field of the schema has its resolver
// (the library refuses a schema with one missing), and every top-level
// field has a row in graphqlAccess, all reads.
func TestGraphQLSchemaBinds(t *testing.T) {
	s := &Server{log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	schema := s.newGraphQLSchema().AST()
	n := 0
	for _, op := range []string{"query", "mutation"} {
		root, ok := schema.RootOperationTypes[op].(*ast.ObjectTypeDefinition)
		if !ok {
			t.Fatalf("no %s type", op)
		}
		for _, f := range root.Fields {
			n++
			acc, ok := graphqlAccess[f.Name]
			if !ok {
				t.Errorf("%s field %s has no access row", op, f.Name)
			}
			if acc.Changes || fmt.Sprint(acc.Roles) != fmt.Sprint(rpc.Read.Roles) {
				t.Errorf("%s field %s: every field reads; a writing one needs rpc.Write and a test", op, f.Name)
			}
		}
	}
	if n < 10 {
		t.Fatalf("only %d top-level fields", n)
	}
}

// TestGraphQLBounds: MLflow's bounds, counted as MLflow counts them.
func TestGraphQLBounds(t *testing.T) {
	fields := func(n int, f string) string { return strings.Repeat(f+" ", n) }
	aliased := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "a%d: name ", i)
		}
		return b.String()
	}
	nest := func(n int) string { return strings.Repeat("a { ", n-1) + "b" + strings.Repeat(" }", n-1) }
	cases := []struct{ query, want string }{
		{`{ a }`, ""},
		{`{ ` + nest(10) + ` }`, ""},
		{`{ ` + nest(11) + ` }`, "Query exceeds maximum depth of 10"},
		{`{ x { ` + fields(999, "a") + ` } }`, ""},
		{`{ x { ` + fields(1000, "a") + ` } }`, "Query exceeds maximum total selections of 1000"},
		{`{ ` + fields(10, "a") + ` }`, ""},
		{`{ ` + fields(11, "a") + ` }`, "at most 10 root fields, got 11 root fields"},
		// root fields of all operations count together, fragments' do not
		{`query a { ` + fields(6, "a") + ` } query b { ` + fields(5, "a") + ` }`, "got 11 root fields"},
		{`fragment F on T { ` + fields(11, "a") + ` } { x { ...F } }`, ""},
		{`{ x { ` + aliased(10) + ` } }`, ""},
		{`{ x { ` + aliased(11) + ` } }`, "at most 10 aliases, got 11 aliases"},
		// an alias equal to the name is no alias
		{`{ x { ` + strings.Repeat("name: name ", 11) + ` } }`, ""},
		{`{ x { ... on T { ` + aliased(6) + ` } ` + aliased(5) + ` } }`, ""},
		{`{ ` + strings.Repeat("... on Query { ", 10) + "a" + strings.Repeat(" }", 10) + ` }`, "Query exceeds maximum depth of 10"},
		{`{ a `, "Expected Name"},
		{strings.Repeat(" ", mlflow.GraphQLMaxQueryBytes+1), "at most 100000 are allowed"},
	}
	for _, tc := range cases {
		doc, msg := graphqlBounds(tc.query)
		short := tc.query
		if len(short) > 60 {
			short = short[:60] + "..."
		}
		if tc.want == "" && (msg != "" || doc == nil) {
			t.Errorf("%s: refused: %s", short, msg)
		}
		if tc.want != "" && (!strings.Contains(msg, tc.want) || doc != nil) {
			t.Errorf("%s: %q, want %q", short, msg, tc.want)
		}
	}
}

// FuzzGraphQLBounds: any text is answered without a panic, and a
// document that passes holds the bounds when counted again.
func FuzzGraphQLBounds(f *testing.F) {
	for _, s := range []string{`{ a }`, `query q($v: Int = 3) @component(name: "x") { a: b(c: [1, {d: $v}]) { ...F ... on T { e } } } fragment F on T { g }`,
		`mutation { x { y { z } } }`, `{ a { b { c { d { e { f { g { h { i { j { k } } } } } } } } } } }`, `"""doc""" query { a(s: """x""") }`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		doc, msg := graphqlBounds(q)
		if doc == nil {
			if msg == "" {
				t.Fatal("refused without a message")
			}
			return
		}
		var depth func(set gqlast.SelectionSet) int
		depth = func(set gqlast.SelectionSet) int {
			d := 0
			for _, sel := range set {
				switch s := sel.(type) {
				case *gqlast.Field:
					d = max(d, depth(s.SelectionSet))
				case *gqlast.InlineFragment:
					d = max(d, depth(s.SelectionSet))
				}
			}
			if len(set) == 0 {
				return 0
			}
			return d + 1
		}
		roots := 0
		for _, op := range doc.Operations {
			if depth(op.SelectionSet) > mlflow.GraphQLMaxDepth {
				t.Fatalf("depth over the bound passed: %q", q)
			}
			for _, sel := range op.SelectionSet {
				if _, ok := sel.(*gqlast.Field); ok {
					roots++
				}
			}
		}
		if roots > mlflow.GraphQLMaxRootFields {
			t.Fatalf("%d root fields passed: %q", roots, q)
		}
	})
}
