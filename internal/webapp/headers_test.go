package webapp_test

import (
	"bytes"
	"encoding/base64"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/config"
	"github.com/trove-ml/trove/internal/testenv"
	"github.com/trove-ml/trove/internal/webapp"
)

// uploadThroughWeb stores one file on the file server through /files/ of
// the web address, as the SDK does, and returns its path under /files/.
func uploadThroughWeb(t *testing.T, web string) string {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	part, _ := mw.CreateFormFile("Demo/t.1/artifacts/page/page.html", "page.html")
	_, _ = part.Write([]byte("<script>window.__troveSentinel = 1</script>"))
	_ = mw.Close()
	req, _ := http.NewRequest(http.MethodPost, web+"/files/", &body)
	req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(testenv.AdminKey+":"+testenv.AdminSecret)))
	req.Header.Set("Content-Type", mw.FormDataContentType())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("upload: %d", resp.StatusCode)
	}
	return "/files/Demo/t.1/artifacts/page/page.html"
}

// The web address's own answers carry the security headers: Trove's UI
// its full Content-Security-Policy (no inline script, no eval, no framing
// by other sites, no plugins, no <base> elsewhere), a ClearML web app build
// (--webapp-dir) the framing rule only; both nosniff, X-Frame-Options and
// Referrer-Policy. The API under /api/ and the file server under /files/
// never get the UI's policy: they answer with their own headers.
func TestWebAddressSecurityHeaders(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		for _, build := range []struct {
			name string
			opts []testenv.Option
			csp  string
		}{
			{"embedded UI", nil, webapp.OwnUICSP},
			{"--webapp-dir", []testenv.Option{func(c *config.Config) { c.WebappDir = minimalBuild(t) }}, webapp.WebappCSP},
		} {
			t.Run(build.name, func(t *testing.T) {
				env := e
				if build.opts != nil {
					env = testenv.New(t, e.Backend, build.opts...)
				}
				web := httptest.NewServer(env.App.WebHandler)
				t.Cleanup(web.Close)
				own := []string{"/", "/index.html", "/projects", "/projects/p/experiments/t/output/debugImages",
					"/configuration.json", "/no-such-file.js"}
				if build.csp == webapp.OwnUICSP {
					own = append(own, "/assets/"+assetName(t), "/favicon.svg")
				}
				for _, p := range own {
					a := fetch(t, web.URL+p, nil)
					if a.status >= 500 {
						t.Fatalf("%s: %d", p, a.status)
					}
					for k, want := range map[string]string{
						"Content-Security-Policy": build.csp,
						"X-Content-Type-Options":  "nosniff",
						"X-Frame-Options":         "SAMEORIGIN",
						"Referrer-Policy":         "same-origin",
					} {
						if got := a.header.Values(k); len(got) != 1 || got[0] != want {
							t.Errorf("%s %s: %q, want %q", p, k, got, want)
						}
					}
				}
				file := uploadThroughWeb(t, web.URL)
				for _, p := range []string{"/api/debug.ping", "/api/users.get_current_user", "/api/no.such_endpoint",
					file, "/files/Demo/missing.png", "/files"} {
					a := fetch(t, web.URL+p, map[string]string{
						"Authorization": "Basic " + base64.StdEncoding.EncodeToString([]byte(testenv.AdminKey+":"+testenv.AdminSecret)),
					})
					if a.status == 0 || a.status >= 500 {
						t.Fatalf("%s: %d", p, a.status)
					}
					for _, csp := range a.header.Values("Content-Security-Policy") {
						if csp == webapp.OwnUICSP || csp == webapp.WebappCSP || strings.Contains(csp, "script-src 'self'") {
							t.Errorf("%s got the web address's policy %q", p, csp)
						}
					}
					if a.header.Get("X-Frame-Options") != "" && strings.HasPrefix(p, "/api/") {
						t.Errorf("%s got X-Frame-Options from the web address", p)
					}
				}
			})
		}
	})
}

// The embedded UI's policy is the one documented: script only from this
// origin with no inline script or eval, styles inline (plotly.js), images
// of this origin and the ones the UI draws, nothing framed or embedded.
func TestOwnUICSPDirectives(t *testing.T) {
	dirs := map[string]string{}
	for _, d := range strings.Split(webapp.OwnUICSP, ";") {
		f := strings.Fields(d)
		if len(f) == 0 {
			continue
		}
		if _, dup := dirs[f[0]]; dup {
			t.Errorf("directive %s twice", f[0])
		}
		dirs[f[0]] = strings.Join(f[1:], " ")
	}
	for k, want := range map[string]string{
		"default-src":     "'self'",
		"script-src":      "'self'",
		"style-src":       "'self' 'unsafe-inline'",
		"img-src":         "'self' data: blob:",
		"connect-src":     "'self'",
		"object-src":      "'none'",
		"base-uri":        "'self'",
		"frame-ancestors": "'self'",
		"form-action":     "'self'",
	} {
		if dirs[k] != want {
			t.Errorf("%s: %q, want %q", k, dirs[k], want)
		}
	}
}
