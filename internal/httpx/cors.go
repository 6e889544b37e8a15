// Package httpx holds the HTTP helpers the API port (internal/rpc) and the
// files port (internal/files) share.
package httpx

import "net/http"

// AllowOrigin lets the web UI, served from another origin, call with its
// session cookie: it echoes the request's Origin and, on a preflight
// (OPTIONS), allows methods and whatever headers the browser asked for.
// Requests without an Origin get no CORS headers.
func AllowOrigin(w http.ResponseWriter, r *http.Request, methods string) {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", origin)
	h.Set("Access-Control-Allow-Credentials", "true")
	// Add, not Set: a compressing wrapper may already vary on Accept-Encoding.
	h.Add("Vary", "Origin")
	if r.Method == http.MethodOptions {
		h.Set("Access-Control-Allow-Methods", methods)
		if req := r.Header.Get("Access-Control-Request-Headers"); req != "" {
			h.Set("Access-Control-Allow-Headers", req)
		}
		h.Set("Access-Control-Max-Age", "600")
	}
}
