package security

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/config"
	"github.com/trove-ml/trove/internal/testenv"
)

// TestCORS sends preflights and simple requests from the web address,
// a listed origin and foreign ones, to the API port and the files port,
// with --cors-origins unset (the web address's own origin only) and set:
// only allowed origins get Access-Control-Allow-Origin (with credentials);
// a foreign origin gets no CORS header at all. Attack: "CORS echoes any
// Origin".
func TestCORS(t *testing.T) {
	const web = "http://trove.example:8080" // --public-host trove.example, web port 8080
	for _, setting := range []struct {
		name    string
		origins []string
		allowed map[string]bool
	}{
		{"unset", nil, map[string]bool{web: true, "https://trove.example:8080": true}},
		{"set", []string{"https://ui.example", "http://10.0.0.5:3000"},
			map[string]bool{web: true, "https://trove.example:8080": true, "https://ui.example": true, "http://10.0.0.5:3000": true}},
	} {
		t.Run(setting.name, func(t *testing.T) {
			testenv.Each(t, func(t *testing.T, e *testenv.Env) {
				files := httptest.NewServer(e.App.FilesHandler)
				t.Cleanup(files.Close)
				candidates := []string{web, "https://trove.example:8080", "https://ui.example", "http://10.0.0.5:3000",
					"https://evil.example", "http://trove.example:9999", "http://trove.example", "null"}
				for _, port := range []struct{ name, url, path string }{
					{"api", e.URL, "/projects.get_all"},
					{"files", files.URL, "/some/file.txt"},
				} {
					for _, origin := range candidates {
						for _, method := range []string{"OPTIONS", "GET", "POST"} {
							hdr := map[string]string{"Origin": origin, "Authorization": "Bearer " + e.Token}
							if method == "OPTIONS" {
								hdr = map[string]string{"Origin": origin, "Access-Control-Request-Method": "POST",
									"Access-Control-Request-Headers": "authorization, content-type"}
							}
							r := send(t, method, port.url+port.path, "", hdr)
							h := r.Header
							what := port.name + " " + method + " from " + origin
							if setting.allowed[origin] {
								if h.Get("Access-Control-Allow-Origin") != origin || h.Get("Access-Control-Allow-Credentials") != "true" {
									t.Errorf("%s: allowed origin without CORS headers: %v", what, h)
								}
								if method == "OPTIONS" && (!strings.Contains(h.Get("Access-Control-Allow-Methods"), "POST") ||
									h.Get("Access-Control-Allow-Headers") != "authorization, content-type") {
									t.Errorf("%s: preflight %v", what, h)
								}
							} else {
								for k := range h {
									if strings.HasPrefix(k, "Access-Control-") {
										t.Errorf("%s: a foreign origin got %s: %v", what, k, h)
									}
								}
							}
							if h.Get("Access-Control-Allow-Origin") == "*" {
								t.Errorf("%s: wildcard origin", what)
							}
							if !strings.Contains(strings.Join(h.Values("Vary"), ","), "Origin") {
								t.Errorf("%s: the answer does not vary on Origin: %v", what, h)
							}
						}
					}
				}
				// The request's own origin is always allowed (the web
				// address proxies /api/ and /files/ on its own origin).
				r := send(t, "OPTIONS", e.URL+"/projects.get_all", "", map[string]string{"Origin": originOf(e.URL), "Access-Control-Request-Method": "POST"})
				if r.Header.Get("Access-Control-Allow-Origin") != originOf(e.URL) {
					t.Errorf("own origin: %v", r.Header)
				}
			}, func(c *config.Config) {
				c.PublicHost = "trove.example"
				c.WebAddr = "0.0.0.0:8080"
				c.CORSOrigins = setting.origins
			})
		})
	}
}

// TestCORSOriginsRefused: "*" and what is not an origin stop the start
// with an error naming cors_origins (credentials are never shared with
// any origin).
func TestCORSOriginsRefused(t *testing.T) {
	for _, v := range []string{"*", "https://ui.example,*", "ui.example", "https://ui.example/app"} {
		_, err := config.Load([]string{"--cors-origins", v}, func(string) string { return "" })
		if err == nil || !strings.Contains(err.Error(), "cors_origins") {
			t.Errorf("--cors-origins %q: %v", v, err)
		}
		_, err = config.Load(nil, func(k string) string {
			if k == "TROVE_CORS_ORIGINS" {
				return v
			}
			return ""
		})
		if err == nil || !strings.Contains(err.Error(), "cors_origins") {
			t.Errorf("TROVE_CORS_ORIGINS %q: %v", v, err)
		}
	}
}
