package app

import (
	"context"
	"net/http"
	"time"
)

// withOpsRoutes puts the health checks and, when enabled, /metrics in
// front of the API handler. A plain path switch, not a ServeMux: the API
// accepts unclean paths ("//tasks.get") that a ServeMux would redirect.
func (a *App) withOpsRoutes(api http.Handler) http.Handler {
	var metrics http.Handler
	if a.Metrics != nil {
		metrics = a.Metrics.Handler()
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/healthz":
			writeText(w, http.StatusOK, "ok\n")
		case r.URL.Path == "/readyz":
			a.readyz(w, r)
		case r.URL.Path == "/metrics" && metrics != nil:
			metrics.ServeHTTP(w, r)
		default:
			api.ServeHTTP(w, r)
		}
	})
}

// readyz answers 200 when the database answers and its schema is current.
func (a *App) readyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
	defer cancel()
	if err := a.DB.Ready(ctx); err != nil {
		a.Log.Warn("not ready", "error", err.Error())
		writeText(w, http.StatusServiceUnavailable, "not ready: "+err.Error()+"\n")
		return
	}
	writeText(w, http.StatusOK, "ready\n")
}

func writeText(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}
