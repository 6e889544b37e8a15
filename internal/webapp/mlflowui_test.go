package webapp_test

import (
	"context"
	"encoding/base64"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/app"
	"github.com/trove-ml/trove/internal/config"
	"github.com/trove-ml/trove/internal/testenv"
	"github.com/trove-ml/trove/internal/webapp"
)

// mlflowBuild writes a build shaped like mlflow/server/js/build.
func mlflowBuild(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range map[string]string{
		"index.html":                   `<!doctype html><script defer src="static-files/static/js/main.00d66947.js"></script><div id="root"></div>`,
		"static/js/main.00d66947.js":   "console.log('mlflow')",
		"static/css/main.b0f58ef9.css": "body{}",
		"favicon.ico":                  "ico",
	} {
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

func do(t *testing.T, c *http.Client, method, url, body string, hdr http.Header) (int, string, *http.Response) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range hdr {
		req.Header[k] = v
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp
}

// The MLflow UI under /mlflow/: its page only with a session (else the
// login page), its files with their policy, its API calls answered by
// Trove's MLflow API with the session cookie, and a change by cookie only
// from this origin.
func TestMLflowUIOnTheWebAddress(t *testing.T) {
	dir := mlflowBuild(t)
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		web := httptest.NewServer(e.App.WebHandler)
		t.Cleanup(web.Close)
		jar, _ := cookiejar.New(nil)
		noRedirect := func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		c := &http.Client{Jar: jar, CheckRedirect: noRedirect}

		status, _, resp := do(t, c, "GET", web.URL+"/mlflow/", "", nil)
		if status != http.StatusFound || resp.Header.Get("Location") != "/login?next=%2Fmlflow%2F" {
			t.Fatalf("page without a session: %d %q, want 302 to the login page", status, resp.Header.Get("Location"))
		}
		status, _, resp = do(t, c, "GET", web.URL+"/mlflow", "", nil)
		if status != http.StatusTemporaryRedirect || resp.Header.Get("Location") != "/mlflow/" {
			t.Fatalf("/mlflow: %d %q", status, resp.Header.Get("Location"))
		}
		// Its files need no session (they are the public build).
		status, body, resp := do(t, c, "GET", web.URL+"/mlflow/static-files/static/js/main.00d66947.js", "", nil)
		if status != 200 || body != "console.log('mlflow')" || resp.Header.Get("Content-Security-Policy") != webapp.MLflowUICSP ||
			!strings.Contains(resp.Header.Get("Cache-Control"), "immutable") {
			t.Fatalf("script: %d %q %v", status, body, resp.Header)
		}
		if status, body, _ = do(t, c, "GET", web.URL+"/mlflow/ajax-api/2.0/mlflow/experiments/search?max_results=10", "", nil); status != 401 ||
			!strings.Contains(body, "UNAUTHENTICATED") {
			t.Fatalf("API without a session: %d %s", status, body)
		}
		basic := http.Header{"Authorization": {"Basic " + base64.StdEncoding.EncodeToString([]byte(testenv.AdminKey+":"+testenv.AdminSecret))},
			"Origin": {web.URL}}
		if status, body, _ = do(t, c, "POST", web.URL+"/api/v999.0/auth.login", "{}", basic); status != 200 {
			t.Fatalf("login: %d %s", status, body)
		}
		status, body, resp = do(t, c, "GET", web.URL+"/mlflow/", "", nil)
		if status != 200 || !strings.Contains(body, `id="root"`) || resp.Header.Get("Content-Security-Policy") != webapp.MLflowUICSP ||
			resp.Header.Get("X-Frame-Options") != "SAMEORIGIN" {
			t.Fatalf("page with a session: %d %q %v", status, body, resp.Header)
		}
		for _, p := range []string{"/mlflow/other", "/mlflow/static-files/../index.html", "/mlflow/static-files/missing.js",
			"/mlflow/static-files/%2e%2e/index.html", "/mlflow/static-files/static/", "/mlflow/projects.get_all",
			"/mlflow/v2.31/projects.get_all"} {
			// (the mux answers a path with ".." by a redirect to the cleaned one)
			if status, _, _ := do(t, c, "GET", web.URL+p, "", nil); status != 404 && status != http.StatusTemporaryRedirect {
				t.Fatalf("%s: %d, want 404", p, status)
			}
		}
		// The UI's calls with nothing but the cookie.
		same := http.Header{"Origin": {web.URL}}
		if status, body, _ = do(t, c, "POST", web.URL+"/mlflow/ajax-api/2.0/mlflow/experiments/create", `{"name":"from the ui"}`, same); status != 200 ||
			!strings.Contains(body, "experiment_id") {
			t.Fatalf("create by cookie from this origin: %d %s", status, body)
		}
		if status, body, _ = do(t, c, "POST", web.URL+"/mlflow/ajax-api/2.0/mlflow/experiments/search", `{"max_results":10}`, nil); status != 200 ||
			!strings.Contains(body, "from the ui") {
			t.Fatalf("search by cookie: %d %s", status, body)
		}
		evil := http.Header{"Origin": {"http://evil.example"}}
		if status, body, _ = do(t, c, "POST", web.URL+"/mlflow/ajax-api/2.0/mlflow/experiments/create", `{"name":"cross site"}`, evil); status != 403 ||
			!strings.Contains(body, "PERMISSION_DENIED") {
			t.Fatalf("create by cookie from another site: %d %s", status, body)
		}
		if status, body, _ = do(t, c, "GET", web.URL+"/mlflow/get-artifact?run_uuid=nope&path=a.txt", "", nil); status != 404 {
			t.Fatalf("get-artifact of an unknown run: %d %s", status, body)
		}
	}, func(c *config.Config) { c.MLflowUIDir = dir })
}

func TestBadMLflowUIDirFailsTheStart(t *testing.T) {
	notABuild := t.TempDir()
	for _, dir := range []string{filepath.Join(notABuild, "missing"), notABuild} {
		cfg := config.Defaults()
		cfg.DataDir = t.TempDir()
		cfg.MLflowUIDir = dir
		_, err := app.New(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
		if err == nil || !strings.Contains(err.Error(), "--mlflow-ui-dir "+dir) {
			t.Fatalf("%s: want a start error naming --mlflow-ui-dir, got %v", dir, err)
		}
		if entries, _ := os.ReadDir(cfg.DataDir); len(entries) != 0 {
			t.Fatalf("the data dir was written before the refusal: %v", entries)
		}
	}
}
