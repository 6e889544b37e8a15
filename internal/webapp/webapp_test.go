package webapp

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// fakeBuild writes a small build shaped like the Angular output.
func fakeBuild(t *testing.T, extra map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"index.html":                         `<!doctype html><base href="/"><sm-root></sm-root>`,
		"main-AKFXBCOQ.js":                   "console.log('main')",
		"styles-VKXXOE6L.css":                "body{}",
		"env.js":                             "window.__env={}",
		"favicon.ico":                        "ico",
		"assets/logo.svg":                    "<svg/>",
		"assets/version.json":                `{"version":"2.0"}`,
		"app/webapp-common/assets/f.woff2":   "font",
		"app/webapp-common/assets/Heebo.ttf": "font",
		"media/icons-7D3Q2Z5K.svg":           "<svg/>",
		"assets/plotly-2.35.0.min.js":        "plotly",
	}
	for k, v := range extra {
		files[k] = v
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// echo answers with the path it was given, standing in for the API and
// file server.
func echo(name string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, name+" "+r.Method+" "+r.URL.Path)
	})
}

func newServer(t *testing.T, dir string, s Servers) *httptest.Server {
	t.Helper()
	h, err := New(Options{Dir: dir, API: echo("api"), Files: echo("files"), Servers: s})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

type got struct {
	status int
	header http.Header
	body   string
}

func get(t *testing.T, url string, hdr map[string]string) got {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return got{resp.StatusCode, resp.Header, string(b)}
}

func TestStaticFilesAndRoutes(t *testing.T) {
	srv := newServer(t, fakeBuild(t, nil), Servers{APIAddr: "0.0.0.0:8008", FilesAddr: "0.0.0.0:8081"})
	const index = `<!doctype html><base href="/"><sm-root></sm-root>`
	cases := []struct {
		name, path    string
		status        int
		contentType   string
		cache         string
		body          string
		bodyHasPrefix bool
	}{
		{name: "root is index.html", path: "/", status: 200, contentType: "text/html; charset=utf-8", cache: "no-cache", body: index},
		{name: "hashed bundle kept for a year", path: "/main-AKFXBCOQ.js", status: 200, contentType: "text/javascript; charset=utf-8", cache: "public, max-age=31536000, immutable", body: "console.log('main')"},
		{name: "hashed stylesheet", path: "/styles-VKXXOE6L.css", status: 200, contentType: "text/css; charset=utf-8", cache: "public, max-age=31536000, immutable", body: "body{}"},
		{name: "hashed media", path: "/media/icons-7D3Q2Z5K.svg", status: 200, contentType: "image/svg+xml", cache: "public, max-age=31536000, immutable", body: "<svg/>"},
		{name: "versioned library kept for a year", path: "/assets/plotly-2.35.0.min.js", status: 200, contentType: "text/javascript; charset=utf-8", cache: "public, max-age=31536000, immutable", body: "plotly"},
		{name: "unhashed script revalidated", path: "/env.js", status: 200, contentType: "text/javascript; charset=utf-8", cache: "no-cache", body: "window.__env={}"},
		{name: "font woff2", path: "/app/webapp-common/assets/f.woff2", status: 200, contentType: "font/woff2", cache: "no-cache", body: "font"},
		{name: "font ttf", path: "/app/webapp-common/assets/Heebo.ttf", status: 200, contentType: "font/ttf", cache: "no-cache", body: "font"},
		{name: "icon", path: "/favicon.ico", status: 200, contentType: "image/x-icon", cache: "no-cache", body: "ico"},
		{name: "json asset", path: "/assets/version.json", status: 200, contentType: "application/json", cache: "no-cache", body: `{"version":"2.0"}`},
		{name: "client route", path: "/projects/abc/experiments/def/output/log", status: 200, contentType: "text/html; charset=utf-8", cache: "no-cache", body: index},
		{name: "client route at top", path: "/dashboard", status: 200, contentType: "text/html; charset=utf-8", body: index},
		{name: "directory is a route", path: "/assets", status: 200, contentType: "text/html; charset=utf-8", body: index},
		{name: "missing json is 404, not HTML", path: "/version.json", status: 404},
		{name: "missing credentials.json is 404", path: "/credentials.json", status: 404},
		{name: "missing bundle is 404", path: "/chunk-AAAAAAAA.js", status: 404},
		{name: "api is proxied without its prefix", path: "/api/v2.31/projects.get_all", status: 200, body: "api GET /v2.31/projects.get_all"},
		{name: "files are proxied without their prefix", path: "/files/p/t/a.txt", status: 200, body: "files GET /p/t/a.txt"},
		{name: "the bare files prefix is the file server's root, not a redirect", path: "/files", status: 200, body: "files GET /"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := get(t, srv.URL+c.path, nil)
			if g.status != c.status {
				t.Fatalf("status %d, want %d (%s)", g.status, c.status, g.body)
			}
			if c.contentType != "" && g.header.Get("Content-Type") != c.contentType {
				t.Errorf("Content-Type %q, want %q", g.header.Get("Content-Type"), c.contentType)
			}
			if c.cache != "" && g.header.Get("Cache-Control") != c.cache {
				t.Errorf("Cache-Control %q, want %q", g.header.Get("Cache-Control"), c.cache)
			}
			if c.body != "" && g.body != c.body {
				t.Errorf("body %q, want %q", g.body, c.body)
			}
		})
	}
}

func TestStaticStaysInsideTheBuild(t *testing.T) {
	parent := t.TempDir()
	if err := os.WriteFile(filepath.Join(parent, "secret.txt"), []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	build := filepath.Join(parent, "build")
	if err := os.Mkdir(build, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(build, "index.html"), []byte("index"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := &staticFiles{root: os.DirFS(build)}
	for _, p := range []string{"/../secret.txt", "/a/../../secret.txt", "/..%2fsecret.txt"} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.URL.Path = p
		h.ServeHTTP(rec, req)
		if strings.Contains(rec.Body.String(), "secret") {
			t.Fatalf("%s served a file outside the build: %d %q", p, rec.Code, rec.Body.String())
		}
	}
}

func TestStaticAnswersConditionalAndCompressedRequests(t *testing.T) {
	big := strings.Repeat("function f(){return 1}\n", 500)
	srv := newServer(t, fakeBuild(t, map[string]string{"chunk-24LF2KOT.js": big}), Servers{APIAddr: "127.0.0.1:8008"})
	g := get(t, srv.URL+"/chunk-24LF2KOT.js", map[string]string{"Accept-Encoding": "gzip"})
	if g.status != 200 || g.header.Get("Content-Encoding") != "gzip" || len(g.body) >= len(big) {
		t.Fatalf("want a gzip answer smaller than %d bytes, got %d %q, %d bytes", len(big), g.status, g.header.Get("Content-Encoding"), len(g.body))
	}
	first := get(t, srv.URL+"/env.js", nil)
	lm := first.header.Get("Last-Modified")
	if lm == "" {
		t.Fatal("no Last-Modified")
	}
	if again := get(t, srv.URL+"/env.js", map[string]string{"If-Modified-Since": lm}); again.status != http.StatusNotModified {
		t.Fatalf("revalidation gave %d, want 304", again.status)
	}
}

func TestStaticRefusesWrites(t *testing.T) {
	srv := newServer(t, fakeBuild(t, nil), Servers{APIAddr: "127.0.0.1:8008"})
	for _, p := range []string{"/index.html", "/configuration.json"} {
		resp, err := http.Post(srv.URL+p, "text/plain", strings.NewReader("x"))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("POST %s: %d, want 405", p, resp.StatusCode)
		}
	}
}

func TestConfigurationJSON(t *testing.T) {
	cases := []struct {
		name    string
		servers Servers
		local   string
		host    string
		want    map[string]any
	}{
		{name: "browser host names the servers", servers: Servers{APIAddr: "0.0.0.0:8008", FilesAddr: "0.0.0.0:8081"}, host: "trove.example:8080",
			want: map[string]any{"apiBaseUrl": "/api", "fileBaseUrl": "http://trove.example:8081",
				"displayedServerUrls": map[string]any{"apiServer": "http://trove.example:8008", "filesServer": "http://trove.example:8081"}}},
		{name: "public host wins", servers: Servers{APIAddr: "0.0.0.0:8008", FilesAddr: "0.0.0.0:8081", PublicHost: "ml.corp"}, host: "10.0.0.5:8080",
			want: map[string]any{"apiBaseUrl": "/api", "fileBaseUrl": "http://ml.corp:8081",
				"displayedServerUrls": map[string]any{"apiServer": "http://ml.corp:8008", "filesServer": "http://ml.corp:8081"}}},
		{name: "https public host", servers: Servers{APIAddr: "0.0.0.0:8008", FilesAddr: "0.0.0.0:8081", PublicHost: "ml.corp", PublicScheme: "https"}, host: "10.0.0.5:8080",
			want: map[string]any{"apiBaseUrl": "/api", "fileBaseUrl": "https://ml.corp:8081",
				"displayedServerUrls": map[string]any{"apiServer": "https://ml.corp:8008", "filesServer": "https://ml.corp:8081"}}},
		{name: "ipv6 browser host", servers: Servers{APIAddr: "[::]:8008", FilesAddr: "[::]:8081"}, host: "[::1]:8080",
			want: map[string]any{"apiBaseUrl": "/api", "fileBaseUrl": "http://[::1]:8081",
				"displayedServerUrls": map[string]any{"apiServer": "http://[::1]:8008", "filesServer": "http://[::1]:8081"}}},
		{name: "no file server", servers: Servers{APIAddr: "127.0.0.1:8008"}, host: "localhost:8080",
			want: map[string]any{"apiBaseUrl": "/api", "displayedServerUrls": map[string]any{"apiServer": "http://localhost:8008"}}},
		{name: "build's own settings kept, addresses replaced", servers: Servers{APIAddr: "0.0.0.0:8008", FilesAddr: "0.0.0.0:8081"}, host: "h:8080",
			local: `{"forceTheme":"light","apiBaseUrl":"http://elsewhere:8008","hideUpdateNotice":true}`,
			want: map[string]any{"forceTheme": "light", "hideUpdateNotice": true, "apiBaseUrl": "/api", "fileBaseUrl": "http://h:8081",
				"displayedServerUrls": map[string]any{"apiServer": "http://h:8008", "filesServer": "http://h:8081"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			extra := map[string]string{}
			if c.local != "" {
				extra["configuration.json"] = c.local
			}
			srv := newServer(t, fakeBuild(t, extra), c.servers)
			req, _ := http.NewRequest(http.MethodGet, srv.URL+"/configuration.json", nil)
			req.Host = c.host
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" || resp.Header.Get("Cache-Control") != "no-store" {
				t.Fatalf("got %d %q %q", resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Cache-Control"))
			}
			var m map[string]any
			if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
				t.Fatal(err)
			}
			gotJSON, _ := json.Marshal(m)
			wantJSON, _ := json.Marshal(c.want)
			if string(gotJSON) != string(wantJSON) {
				t.Fatalf("got  %s\nwant %s", gotJSON, wantJSON)
			}
		})
	}
}

func TestBadWebappDir(t *testing.T) {
	noIndex := t.TempDir()
	file := filepath.Join(t.TempDir(), "index.html")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	badConfig := fakeBuild(t, map[string]string{"configuration.json": "[1,2"})
	cases := []struct{ name, dir, want string }{
		{"missing", filepath.Join(t.TempDir(), "nope"), "no such directory"},
		{"a file", file, "not a directory"},
		{"no index.html", noIndex, "no index.html there"},
		{"bad configuration.json", badConfig, "not a JSON object"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := New(Options{Dir: c.dir, API: echo("api")})
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "--webapp-dir") {
				t.Fatalf("want an error naming --webapp-dir with %q, got %v", c.want, err)
			}
		})
	}
}

// Trove's own UI (embedded assets, no build folder) gets configuration.json
// too: it maps the file server's URLs to /files/ of its origin by
// fileBaseUrl.
func TestConfigurationJSONForEmbeddedAssets(t *testing.T) {
	assets := fstest.MapFS{"index.html": {Data: []byte("<!doctype html><div id=app></div>")}}
	h, err := New(Options{Assets: assets, API: echo("api"), Files: echo("files"),
		Servers: Servers{APIAddr: "0.0.0.0:8008", FilesAddr: "0.0.0.0:8081"}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/configuration.json", nil)
	req.Host = "trove.example:8080"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || m["fileBaseUrl"] != "http://trove.example:8081" || m["apiBaseUrl"] != "/api" {
		t.Fatalf("got %d %v", resp.StatusCode, m)
	}
}
