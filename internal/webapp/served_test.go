package webapp_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
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
)

func minimalBuild(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte("<!doctype html><sm-root></sm-root>"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// post calls an operation through the web address's /api/ with the
// client's cookie jar, as the app does.
func post(t *testing.T, c *http.Client, url string, hdr http.Header) (int, map[string]any, *http.Response) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	// A browser's POST names the page's origin: here the web address's own.
	req.Header.Set("Origin", req.URL.Scheme+"://"+req.URL.Host)
	for k, v := range hdr {
		req.Header[k] = v
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var env map[string]any
	_ = json.Unmarshal(b, &env)
	return resp.StatusCode, env, resp
}

// The app logs in through /api/auth.login of the web address and then
// calls with nothing but the session cookie, which must come back on
// every /api/ path; logout clears it and ends the session. The same for
// Trove's own UI and for a ClearML web app build, which share the cookie.
func TestCookieSessionThroughTheWebAddress(t *testing.T) {
	dir := minimalBuild(t)
	for _, ui := range []struct {
		name string
		opts []testenv.Option
	}{
		{"own UI", nil},
		{"webapp-dir", []testenv.Option{func(c *config.Config) { c.WebappDir = dir }}},
	} {
		t.Run(ui.name, func(t *testing.T) { cookieSession(t, ui.opts) })
	}
}

func cookieSession(t *testing.T, opts []testenv.Option) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		web := httptest.NewServer(e.App.WebHandler)
		t.Cleanup(web.Close)
		jar, _ := cookiejar.New(nil)
		c := &http.Client{Jar: jar}

		status, _, _ := post(t, c, web.URL+"/api/v999.0/projects.get_all_ex", nil)
		if status != http.StatusUnauthorized {
			t.Fatalf("without a session: %d, want 401", status)
		}
		basic := http.Header{"Authorization": {"Basic " + base64.StdEncoding.EncodeToString([]byte(testenv.AdminKey+":"+testenv.AdminSecret))}}
		status, _, resp := post(t, c, web.URL+"/api/v999.0/auth.login", basic)
		if status != 200 {
			t.Fatalf("login: %d", status)
		}
		var session *http.Cookie
		for _, ck := range resp.Cookies() {
			if ck.Name == "clearml_token_basic" {
				session = ck
			}
		}
		if session == nil || session.Path != "/" || !session.HttpOnly {
			t.Fatalf("login set no HttpOnly session cookie on path /: %v", resp.Header.Values("Set-Cookie"))
		}
		for _, op := range []string{"/api/v999.0/projects.get_all_ex", "/api/v2.31/queues.get_all", "/api/tasks.get_all"} {
			if status, env, _ := post(t, c, web.URL+op, nil); status != 200 {
				t.Fatalf("%s with the cookie: %d %v", op, status, env)
			}
		}
		status, _, resp = post(t, c, web.URL+"/api/v999.0/auth.logout", nil)
		if status != 200 {
			t.Fatalf("logout: %d", status)
		}
		cleared := false
		for _, ck := range resp.Cookies() {
			cleared = cleared || (ck.Name == "clearml_token_basic" && ck.Value == "" && ck.MaxAge < 0)
		}
		if !cleared {
			t.Fatalf("logout did not clear the cookie: %v", resp.Header.Values("Set-Cookie"))
		}
		if status, _, _ := post(t, c, web.URL+"/api/v999.0/projects.get_all_ex", nil); status != http.StatusUnauthorized {
			t.Fatalf("after logout: %d, want 401", status)
		}
		// A copy of the cookie kept from before the logout is refused too.
		stale := http.Header{"Cookie": {"clearml_token_basic=" + session.Value}}
		if status, _, _ := post(t, &http.Client{}, web.URL+"/api/v999.0/projects.get_all_ex", stale); status != http.StatusUnauthorized {
			t.Fatalf("the logged-out token: %d, want 401", status)
		}
	}, opts...)
}

func TestWebAddressServesTheBuildAndItsConfiguration(t *testing.T) {
	dir := minimalBuild(t)
	e := testenv.New(t, "sqlite", func(c *config.Config) { c.WebappDir = dir; c.APIAddr = "0.0.0.0:18008" })
	web := httptest.NewServer(e.App.WebHandler)
	t.Cleanup(web.Close)
	resp, err := http.Get(web.URL + "/projects/x/experiments")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), "<sm-root>") {
		t.Fatalf("client route: %d %q", resp.StatusCode, b)
	}
	resp, err = http.Get(web.URL + "/configuration.json")
	if err != nil {
		t.Fatal(err)
	}
	var conf struct {
		APIBaseURL  string `json:"apiBaseUrl"`
		FileBaseURL string `json:"fileBaseUrl"`
		Displayed   struct {
			APIServer string `json:"apiServer"`
		} `json:"displayedServerUrls"`
	}
	err = json.NewDecoder(resp.Body).Decode(&conf)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	// testenv's file server address is 127.0.0.1:1; the browser came
	// through 127.0.0.1.
	if conf.APIBaseURL != "/api" || conf.FileBaseURL != "http://127.0.0.1:1" || conf.Displayed.APIServer != "http://127.0.0.1:18008" {
		t.Fatalf("configuration.json: %+v", conf)
	}
}

func TestBadWebappDirFailsTheStart(t *testing.T) {
	notABuild := t.TempDir()
	for _, dir := range []string{filepath.Join(notABuild, "missing"), notABuild} {
		cfg := config.Defaults()
		cfg.DataDir = t.TempDir()
		cfg.WebappDir = dir
		_, err := app.New(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
		if err == nil || !strings.Contains(err.Error(), "--webapp-dir "+dir) {
			t.Fatalf("%s: want a start error naming --webapp-dir, got %v", dir, err)
		}
		// Nothing was created before the refusal.
		if entries, _ := os.ReadDir(cfg.DataDir); len(entries) != 0 {
			t.Fatalf("the data dir was written before the refusal: %v", entries)
		}
	}
}
