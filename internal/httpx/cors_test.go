package httpx

import (
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
)

func mustOrigins(t *testing.T, list ...string) *Origins {
	t.Helper()
	o, err := NewOrigins(list)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// The allow-list takes origins only; "*" and anything with a path are
// refused at start.
func TestNewOrigins(t *testing.T) {
	for _, bad := range []string{"*", "ui.example", "ftp://ui.example", "http://ui.example/app", "http://ui.example?x=1", "http://"} {
		if _, err := NewOrigins([]string{bad}); err == nil || !strings.Contains(err.Error(), "cors_origins") {
			t.Errorf("%q: want a cors_origins error, got %v", bad, err)
		}
	}
	o := mustOrigins(t, " HTTP://UI.example:80/ ", "https://b.example:443", "http://c.example:8080")
	got := map[string]bool{}
	for _, s := range o.List() {
		got[s] = true
	}
	if want := map[string]bool{"http://ui.example": true, "https://b.example": true, "http://c.example:8080": true}; !reflect.DeepEqual(got, want) {
		t.Fatalf("normalised list %v", got)
	}
}

func TestCORS(t *testing.T) {
	const methods = "GET, POST, OPTIONS"
	o := mustOrigins(t, "http://ui.example:8080")
	cases := []struct {
		name, method, host, origin string
		allowed                    bool
	}{
		{"listed origin", http.MethodPost, "api.example:8008", "http://ui.example:8080", true},
		{"listed origin, preflight", http.MethodOptions, "api.example:8008", "http://ui.example:8080", true},
		{"own origin", http.MethodPost, "api.example:8008", "http://api.example:8008", true},
		{"foreign origin", http.MethodPost, "api.example:8008", "https://evil.example", false},
		{"foreign origin, preflight", http.MethodOptions, "api.example:8008", "https://evil.example", false},
		{"listed host on another port", http.MethodPost, "api.example:8008", "http://ui.example:9090", false},
		{"null origin", http.MethodPost, "api.example:8008", "null", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			w.Header().Set("Vary", "Accept-Encoding")
			r := httptest.NewRequest(c.method, "http://"+c.host+"/", nil)
			r.Header.Set("Origin", c.origin)
			r.Header.Set("Access-Control-Request-Headers", "authorization, x-clearml-client")
			o.CORS(w, r, methods)
			h := w.Header()
			if got := h.Values("Vary"); !reflect.DeepEqual(got, []string{"Accept-Encoding", "Origin"}) {
				t.Fatalf("Vary %v: an earlier value must be kept and Origin added", got)
			}
			if !c.allowed {
				for k := range h {
					if strings.HasPrefix(k, "Access-Control-") {
						t.Fatalf("foreign origin got %s: %v", k, h)
					}
				}
				return
			}
			if h.Get("Access-Control-Allow-Origin") != c.origin || h.Get("Access-Control-Allow-Credentials") != "true" {
				t.Fatalf("headers %v", h)
			}
			preflight := h.Get("Access-Control-Allow-Methods") != ""
			if preflight != (c.method == http.MethodOptions) {
				t.Fatalf("preflight headers %v on %s", h, c.method)
			}
			if preflight && (h.Get("Access-Control-Allow-Headers") != "authorization, x-clearml-client" || h.Get("Access-Control-Max-Age") != "600") {
				t.Fatalf("preflight headers %v", h)
			}
		})
	}
	t.Run("no origin, no headers", func(t *testing.T) {
		w := httptest.NewRecorder()
		o.CORS(w, httptest.NewRequest(http.MethodPost, "/", nil), methods)
		if len(w.Header()) != 0 {
			t.Fatalf("headers %v", w.Header())
		}
	})
}

// The cross-site gate of cookie-only changes: POST, JSON, allowed origin;
// what is missing is named.
func TestCheckCookieChange(t *testing.T) {
	o := mustOrigins(t, "http://ui.example:8080")
	cases := []struct {
		name, method, ctype string
		hdr                 map[string]string
		want                string // "" = allowed, else a part of the reason
	}{
		{"same origin json", "POST", "application/json", map[string]string{"Origin": "http://api.example"}, ""},
		{"charset allowed", "POST", "application/json; charset=utf-8", map[string]string{"Origin": "http://api.example"}, ""},
		{"json lines", "POST", "application/json-lines", map[string]string{"Origin": "http://ui.example:8080"}, ""},
		{"fetch metadata same-origin", "POST", "application/json", map[string]string{"Sec-Fetch-Site": "same-origin"}, ""},
		{"proxy scheme", "POST", "application/json", map[string]string{"Origin": "https://api.example", "X-Forwarded-Proto": "https"}, ""},
		{"GET", "GET", "application/json", map[string]string{"Origin": "http://api.example"}, "must be a POST"},
		{"PUT", "PUT", "application/json", map[string]string{"Origin": "http://api.example"}, "must be a POST"},
		{"text/plain", "POST", "text/plain", map[string]string{"Origin": "http://api.example"}, "Content-Type"},
		{"form", "POST", "application/x-www-form-urlencoded", map[string]string{"Origin": "http://api.example"}, "Content-Type"},
		{"no content type", "POST", "", map[string]string{"Origin": "http://api.example"}, "Content-Type"},
		{"foreign origin", "POST", "application/json", map[string]string{"Origin": "https://evil.example"}, "evil.example"},
		{"same-site", "POST", "application/json", map[string]string{"Sec-Fetch-Site": "same-site"}, "same-site"},
		{"cross-site", "POST", "application/json", map[string]string{"Sec-Fetch-Site": "cross-site"}, "cross-site"},
		{"no origin at all", "POST", "application/json", nil, "no Origin"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest(c.method, "http://api.example/tasks.delete", nil)
			if c.ctype != "" {
				r.Header.Set("Content-Type", c.ctype)
			}
			for k, v := range c.hdr {
				r.Header.Set(k, v)
			}
			got := o.CheckCookieChange(r)
			if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestCookieOnly(t *testing.T) {
	r := httptest.NewRequest("POST", "/", nil)
	if CookieOnly(r) {
		t.Fatal("no credentials is not cookie-only")
	}
	r.AddCookie(&http.Cookie{Name: SessionCookie, Value: "tok"})
	if !CookieOnly(r) {
		t.Fatal("the cookie alone")
	}
	r.Header.Set("Authorization", "Bearer x")
	if CookieOnly(r) {
		t.Fatal("an Authorization header is not cookie-only")
	}
}
