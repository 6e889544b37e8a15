package webapp_test

import (
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/config"
	"github.com/trove-ml/trove/internal/testenv"
	"github.com/trove-ml/trove/internal/ui"
	"github.com/trove-ml/trove/internal/webapp"
)

// embeddedUI is a web address serving Trove's own UI (no --webapp-dir).
func embeddedUI(t *testing.T) (*httptest.Server, string) {
	t.Helper()
	e := testenv.New(t, "sqlite")
	web := httptest.NewServer(e.App.WebHandler)
	t.Cleanup(web.Close)
	index, err := fs.ReadFile(ui.Assets(), "index.html")
	if err != nil {
		t.Fatal(err)
	}
	return web, string(index)
}

type answer struct {
	status int
	header http.Header
	body   string
}

func fetch(t *testing.T, url string, hdr map[string]string) answer {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	// The transport itself, so gzip answers stay compressed.
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return answer{resp.StatusCode, resp.Header, string(b)}
}

// The files index.html names are served with their type and caching:
// the hashed bundles and the versioned plotly.js for a year, the rest
// revalidated.
func TestEmbeddedUIStaticFiles(t *testing.T) {
	web, index := embeddedUI(t)
	root := fetch(t, web.URL+"/", nil)
	if root.status != 200 || root.body != index {
		t.Fatalf("/: %d, want the embedded index.html; got %.200q", root.status, root.body)
	}
	for k, want := range map[string]string{"Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-cache",
		"X-Content-Type-Options": "nosniff", "Content-Security-Policy": webapp.OwnUICSP} {
		if got := root.header.Get(k); got != want {
			t.Errorf("/ %s: %q, want %q", k, got, want)
		}
	}
	types := map[string]string{".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}
	named := regexp.MustCompile(`(?:href|src|content)="(/[^"]+)"`).FindAllStringSubmatch(index, -1)
	if len(named) < 3 {
		t.Fatalf("index.html names only %v", named)
	}
	for _, m := range named {
		p := m[1]
		a := fetch(t, web.URL+p, nil)
		want, err := fs.ReadFile(ui.Assets(), strings.TrimPrefix(p, "/"))
		if err != nil {
			t.Fatal(err)
		}
		if a.status != 200 || a.body != string(want) {
			t.Errorf("%s: %d and %d bytes, want 200 and the embedded %d bytes", p, a.status, len(a.body), len(want))
		}
		ext := p[strings.LastIndex(p, "."):]
		if a.header.Get("Content-Type") != types[ext] {
			t.Errorf("%s: Content-Type %q, want %q", p, a.header.Get("Content-Type"), types[ext])
		}
		cache := "no-cache"
		if strings.HasPrefix(p, "/assets/") || strings.HasPrefix(p, "/vendor/") {
			cache = "public, max-age=31536000, immutable"
		}
		if a.header.Get("Cache-Control") != cache {
			t.Errorf("%s: Cache-Control %q, want %q", p, a.header.Get("Cache-Control"), cache)
		}
		if strings.HasPrefix(p, "/assets/") {
			gz := fetch(t, web.URL+p, map[string]string{"Accept-Encoding": "gzip"})
			if gz.header.Get("Content-Encoding") != "gzip" || len(gz.body) >= len(want) {
				t.Errorf("%s: not gzipped on request (%q, %d of %d bytes)", p, gz.header.Get("Content-Encoding"), len(gz.body), len(want))
			}
		}
	}
}

// Every path the SDK prints, and every page of the UI, answers with
// index.html (the UI routes in the browser); a missing file with an
// extension is a 404, never HTML.
func TestEmbeddedUIRoutesAndMissingFiles(t *testing.T) {
	web, index := embeddedUI(t)
	p, task, model := "4b1f6c1d8a7e4b3c9d2e1f0a9b8c7d6e", "0f1e2d3c4b5a69788796a5b4c3d2e1f0", "9a8b7c6d5e4f30211203f4e5d6c7b8a9"
	var routes []string
	for _, form := range []string{"experiments", "tasks"} {
		for _, tail := range []string{"output/log", "output/metrics/scalar", "output/metrics/plots", "output/debugImages",
			"execution", "hyper-params", "artifacts", "info"} {
			routes = append(routes, "/projects/"+p+"/"+form+"/"+task+"/"+tail)
		}
		routes = append(routes, "/projects/"+p+"/"+form)
	}
	routes = append(routes, "/projects/"+p+"/models/"+model, "/projects", "/login", "/login?next=%2Fprojects",
		"/compare?ids="+task+","+model, "/models", "/queues", "/workers", "/settings", "/experiments", "/no/such/page")
	for _, r := range routes {
		a := fetch(t, web.URL+r, nil)
		if a.status != 200 || a.body != index || a.header.Get("Content-Type") != "text/html; charset=utf-8" {
			t.Errorf("%s: %d %q, want index.html", r, a.status, a.header.Get("Content-Type"))
		}
	}
	for _, missing := range []string{"/assets/app-AAAAAAAA.js", "/assets/missing.css", "/vendor/plotly-0.0.0.min.js",
		"/version.json", "/credentials.json", "/favicon.ico", "/projects/x/debug.png"} {
		a := fetch(t, web.URL+missing, nil)
		if a.status != 404 || strings.Contains(a.body, "<div id=\"app\">") {
			t.Errorf("%s: %d %.80q, want a plain 404", missing, a.status, a.body)
		}
	}
}

// Without --webapp-dir the web address serves Trove's own UI; with it,
// the ClearML web app build and the configuration.json that points it at
// Trove.
func TestWebappDirSelectsTheClearMLApp(t *testing.T) {
	dir := minimalBuild(t)
	e := testenv.New(t, "sqlite", func(c *config.Config) { c.WebappDir = dir })
	clearml := httptest.NewServer(e.App.WebHandler)
	t.Cleanup(clearml.Close)
	own, index := embeddedUI(t)
	for _, p := range []string{"/", "/projects/p/experiments/t/output/log"} {
		if a := fetch(t, clearml.URL+p, nil); a.status != 200 || !strings.Contains(a.body, "<sm-root>") {
			t.Errorf("--webapp-dir %s: %d %.80q, want the ClearML build", p, a.status, a.body)
		}
		if a := fetch(t, own.URL+p, nil); a.status != 200 || a.body != index {
			t.Errorf("own UI %s: %d %.80q, want Trove's index.html", p, a.status, a.body)
		}
	}
	if a := fetch(t, clearml.URL+"/configuration.json", nil); a.status != 200 || !strings.Contains(a.body, `"apiBaseUrl": "/api"`) {
		t.Errorf("--webapp-dir configuration.json: %d %.200q", a.status, a.body)
	}
	if a := fetch(t, clearml.URL+"/assets/"+assetName(t), nil); a.status != 404 {
		t.Errorf("--webapp-dir still serves Trove's own bundle: %d", a.status)
	}
}

// assetName is the name of the embedded UI's script bundle.
func assetName(t *testing.T) string {
	t.Helper()
	entries, err := fs.ReadDir(ui.Assets(), "assets")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".js") {
			return e.Name()
		}
	}
	t.Fatal("no script in dist/assets")
	return ""
}
