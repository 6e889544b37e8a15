package domain_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/trove-ml/trove/"

// TestNoHandlerHasJobs: background work lives with its rules, as
// domain.Job values of the domain packages that internal/app runs. No
// package under internal/api (non-test code) makes or lists a job, runs
// anything periodically, or reaches the runner (internal/app) or the
// cluster locks (internal/cluster).
func TestNoHandlerHasJobs(t *testing.T) {
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir("../api", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		for _, problem := range jobUses(f) {
			t.Errorf("%s: %s", path, problem)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("read %d files under internal/api, want the whole tree", files)
	}
}

// jobUses lists what in f makes, lists or runs a job.
func jobUses(f *ast.File) []string {
	var out []string
	names := map[string]string{} // import name -> path
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		switch path {
		case module + "internal/app", module + "internal/cluster":
			out = append(out, "imports "+path)
		}
		name := path[strings.LastIndex(path, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		names[name] = path
	}
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		x, ok := sel.X.(*ast.Ident)
		if !ok {
			return true
		}
		path, ok := names[x.Name]
		if !ok {
			return true
		}
		use := x.Name + "." + sel.Sel.Name
		switch {
		case path == module+"internal/domain" && sel.Sel.Name == "Job":
			out = append(out, "uses "+use)
		case strings.HasPrefix(path, module+"internal/") && sel.Sel.Name == "Jobs":
			out = append(out, "calls "+use)
		case path == "time" && (sel.Sel.Name == "NewTicker" || sel.Sel.Name == "Tick"):
			out = append(out, "runs periodic work with "+use)
		}
		return true
	})
	return out
}

// TestJobUses: the check above finds each way a handler could start a
// job, and nothing in a thin handler.
func TestJobUses(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      []string
	}{
		{"thin handler", `package h
import ("time"; "github.com/trove-ml/trove/internal/domain"; "github.com/trove-ml/trove/internal/events")
func f(env *domain.Env) { _ = time.Now(); _ = events.ScrollTTL }`, nil},
		{"job value", `package h
import "github.com/trove-ml/trove/internal/domain"
var j = domain.Job{Name: "x"}`, []string{"uses domain.Job"}},
		{"renamed domain", `package h
import d "github.com/trove-ml/trove/internal/domain"
var j []d.Job`, []string{"uses d.Job"}},
		{"domain jobs called", `package h
import taskdom "github.com/trove-ml/trove/internal/tasks"
var js = taskdom.Jobs(nil)`, []string{"calls taskdom.Jobs"}},
		{"ticker", `package h
import "time"
var t = time.NewTicker(time.Second)`, []string{"runs periodic work with time.NewTicker"}},
		{"tick", `package h
import "time"
var c = time.Tick(time.Second)`, []string{"runs periodic work with time.Tick"}},
		{"runner and locks", `package h
import (_ "github.com/trove-ml/trove/internal/app"; _ "github.com/trove-ml/trove/internal/cluster")`,
			[]string{"imports " + module + "internal/app", "imports " + module + "internal/cluster"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := parser.ParseFile(token.NewFileSet(), "h.go", c.src, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			got := jobUses(f)
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}
