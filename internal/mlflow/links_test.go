package mlflow

import (
	"net/url"
	"strings"
	"testing"
)

func TestRunArtifactOf(t *testing.T) {
	for _, tc := range []struct {
		in, run, name string
		ok            bool
	}{
		{"1/abc/artifacts/model.pkl", "abc", "model.pkl", true},
		{"1/abc/artifacts/dir/sub/x.json", "abc", "dir/sub/x.json", true},
		{"1/abc/artifacts", "", "", false},
		{"1/abc/artifacts/", "", "", false},
		{"1/models/m-1/artifacts/MLmodel", "", "", false}, // a logged model's folder has 5+ parts: "models" is no run
		{"1/abc/other/x", "", "", false},
		{"/abc/artifacts/x", "", "", false},
		{"", "", "", false},
	} {
		run, name, ok := RunArtifactOf(tc.in)
		if run != tc.run || name != tc.name || ok != tc.ok {
			t.Errorf("%q: got %q %q %v", tc.in, run, name, ok)
		}
	}
}

func TestFileURL(t *testing.T) {
	got := FileURL("http://files:8081/", "mlflow/1/r/artifacts/a b/c#d.txt")
	if got != "http://files:8081/mlflow/1/r/artifacts/a%20b/c%23d.txt" {
		t.Fatalf("got %s", got)
	}
}

func TestSeriesOfKey(t *testing.T) {
	names := [][2]string{{"a", "b/c"}, {"a/b", "c"}, {"loss", "loss"}, {"acc", "val"}, {"x/y", "x/y"}}
	for _, tc := range []struct{ key, metric, variant string }{
		{"loss", "loss", "loss"},
		{"acc/val", "acc", "val"},
		{"a/b/c", "a", "b/c"}, // first in name order
		{"x/y", "x/y", "x/y"}, // metric = variant wins over a split
		{"acc", "", ""},
	} {
		m, v, ok := seriesOfKey(names, tc.key)
		if m != tc.metric || v != tc.variant || ok != (tc.metric != "") {
			t.Errorf("%q: got %q %q %v", tc.key, m, v, ok)
		}
	}
}

// FuzzRunArtifactOf: any path splits into a run and a name that spell it
// back, or into nothing; the file URL of any path decodes to it.
func FuzzRunArtifactOf(f *testing.F) {
	for _, s := range []string{"1/abc/artifacts/x", "0/r/artifacts/a/b", "a/b/c", "//artifacts/", "x/y/artifacts/%2e%2e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		run, name, ok := RunArtifactOf(p)
		if ok {
			exp, _, _ := strings.Cut(p, "/")
			if exp+"/"+run+"/artifacts/"+name != p || run == "" || name == "" || strings.Contains(run, "/") {
				t.Fatalf("%q split into %q %q", p, run, name)
			}
		}
		u, err := url.Parse(FileURL("http://h:1", p))
		if err != nil {
			t.Fatalf("%q: bad URL: %v", p, err)
		}
		if u.Path != "/"+p || u.RawQuery != "" || u.Fragment != "" {
			t.Fatalf("%q: URL path %q query %q fragment %q", p, u.Path, u.RawQuery, u.Fragment)
		}
	})
}
