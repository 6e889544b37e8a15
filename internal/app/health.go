package app

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"syscall"
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

// readyz answers 200 when the node can do its work: no start-up check
// marked it not ready (MarkNotReady), the database answers and its schema
// is current, and the data directory's filesystem has at least
// --min-free-mb free. /healthz stays about the process alone.
func (a *App) readyz(w http.ResponseWriter, r *http.Request) {
	if err := a.notReadyReason(r.Context()); err != nil {
		a.Log.Warn("not ready", "error", err.Error())
		writeText(w, http.StatusServiceUnavailable, "not ready: "+err.Error()+"\n")
		return
	}
	writeText(w, http.StatusOK, "ready\n")
}

func (a *App) notReadyReason(ctx context.Context) error {
	if reason := a.notReady.Load(); reason != nil {
		return errors.New(*reason)
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := a.DB.Ready(ctx); err != nil {
		return err
	}
	return a.checkFreeSpace()
}

// MarkNotReady makes /readyz answer 503 with reason until MarkReady (for
// start-up checks that find the store unfit but leave the process up).
func (a *App) MarkNotReady(reason string) { a.notReady.Store(&reason) }

// MarkReady undoes MarkNotReady.
func (a *App) MarkReady() { a.notReady.Store(nil) }

// FreeSpaceFunc reports the bytes an unprivileged writer may still use on
// the filesystem holding path.
type FreeSpaceFunc func(path string) (uint64, error)

// StatfsFree is the FreeSpaceFunc of the running system (statfs).
func StatfsFree(path string) (uint64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err != nil {
		return 0, err
	}
	return st.Bavail * uint64(st.Bsize), nil
}

// SetFreeSpace replaces the free-space source (tests).
func (a *App) SetFreeSpace(f FreeSpaceFunc) { a.freeSpace.Store(&f) }

// checkFreeSpace fails when the data directory (and the SQLite database's
// directory, when elsewhere) has less than MinFreeMB free.
func (a *App) checkFreeSpace() error {
	if a.Cfg.MinFreeMB <= 0 {
		return nil
	}
	free := StatfsFree
	if f := a.freeSpace.Load(); f != nil {
		free = *f
	}
	dirs := []string{a.Cfg.DataDir}
	if p := a.DB.SQLitePath(); p != "" && filepath.Dir(p) != filepath.Clean(a.Cfg.DataDir) {
		dirs = append(dirs, filepath.Dir(p))
	}
	min := uint64(a.Cfg.MinFreeMB) << 20
	for _, d := range dirs {
		n, err := free(d)
		if err != nil {
			return fmt.Errorf("free space of %s: %w", d, err)
		}
		if n < min {
			return fmt.Errorf("%d MB free on the filesystem of %s, below --min-free-mb %d", n>>20, d, a.Cfg.MinFreeMB)
		}
	}
	return nil
}

func writeText(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}
