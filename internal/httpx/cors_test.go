package httpx

import (
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"
)

func TestAllowOrigin(t *testing.T) {
	const methods = "GET, POST, OPTIONS"
	t.Run("no origin, no headers", func(t *testing.T) {
		w := httptest.NewRecorder()
		AllowOrigin(w, httptest.NewRequest(http.MethodPost, "/", nil), methods)
		if len(w.Header()) != 0 {
			t.Fatalf("headers %v", w.Header())
		}
	})
	t.Run("call from another origin", func(t *testing.T) {
		w := httptest.NewRecorder()
		w.Header().Set("Vary", "Accept-Encoding")
		r := httptest.NewRequest(http.MethodPost, "/", nil)
		r.Header.Set("Origin", "http://ui.example:8080")
		AllowOrigin(w, r, methods)
		h := w.Header()
		if h.Get("Access-Control-Allow-Origin") != "http://ui.example:8080" || h.Get("Access-Control-Allow-Credentials") != "true" {
			t.Fatalf("headers %v", h)
		}
		if got := h.Values("Vary"); !reflect.DeepEqual(got, []string{"Accept-Encoding", "Origin"}) {
			t.Fatalf("Vary %v: an earlier value must be kept", got)
		}
		if h.Get("Access-Control-Allow-Methods") != "" {
			t.Fatalf("preflight headers on a plain call: %v", h)
		}
	})
	t.Run("preflight", func(t *testing.T) {
		w := httptest.NewRecorder()
		r := httptest.NewRequest(http.MethodOptions, "/", nil)
		r.Header.Set("Origin", "http://ui.example")
		r.Header.Set("Access-Control-Request-Headers", "authorization, x-clearml-client")
		AllowOrigin(w, r, methods)
		h := w.Header()
		if h.Get("Access-Control-Allow-Methods") != methods || h.Get("Access-Control-Allow-Headers") != "authorization, x-clearml-client" ||
			h.Get("Access-Control-Max-Age") != "600" {
			t.Fatalf("headers %v", h)
		}
	})
}
