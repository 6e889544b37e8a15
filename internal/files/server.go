// Package files is Trove's built-in file server, where the ClearML SDK
// uploads artifacts, model weights and debug images and reads them back
// (the "files host", port 8081 by default).
//
// The protocol is the reference file server's: POST / with a multipart
// body whose parts' field names are the storage paths; GET, HEAD and
// DELETE /<path>. Every request but the "/" ping carries the API's
// credentials, and each company sees only the files it wrote. Other
// services delete stored files with Service.DeleteURLs.
package files

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/httpx"
	"github.com/trove-ml/trove/internal/store"
)

// Authenticator resolves a request's credentials (rpc.RequestAuth: Bearer
// token, Basic key:secret or the web session cookie).
type Authenticator interface {
	Authenticate(ctx context.Context, r *http.Request) (*auth.Identity, error)
}

// Options configure a Service.
type Options struct {
	Storage Storage
	// SpoolDir receives uploads before Storage.Put (for Local: its SpoolDir).
	SpoolDir string
	Auth     Authenticator
	// MaxUpload limits the bytes of one upload request (0 = no limit).
	MaxUpload int64
	// URLPrefixes are the public base URLs of this file server
	// ("http://host:8081"); DeleteURLs deletes only files under them.
	URLPrefixes []string
	Log         *slog.Logger
	// Origins is the origin policy shared with the API port: CORS, and
	// which pages may upload or delete with the session cookie (nil =
	// same origin only).
	Origins *httpx.Origins
	// AccessLog logs every request at info; otherwise requests of SlowCall
	// or longer (0: none) at info and the others at debug.
	AccessLog bool
	SlowCall  time.Duration
}

// Service is the file server: an http.Handler for the files port and the
// file deletion other services call.
type Service struct {
	store     Storage
	spool     string
	auth      Authenticator
	maxUpload int64
	prefixes  []urlPrefix
	log       *slog.Logger
	origins   *httpx.Origins
	accessLog bool
	slowCall  time.Duration
}

// New checks the options and builds the service.
func New(o Options) (*Service, error) {
	if o.Storage == nil || o.Auth == nil || o.SpoolDir == "" {
		return nil, fmt.Errorf("files: storage, auth and spool dir are required")
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	s := &Service{store: o.Storage, spool: o.SpoolDir, auth: o.Auth, maxUpload: o.MaxUpload, log: o.Log, origins: o.Origins,
		accessLog: o.AccessLog, slowCall: o.SlowCall}
	for _, p := range o.URLPrefixes {
		up, err := parsePrefix(p)
		if err != nil {
			return nil, err
		}
		s.prefixes = append(s.prefixes, up)
	}
	return s, nil
}

// statusWriter remembers the status and size of a reply for the log.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

// ReadFrom keeps net/http's sendfile path reachable through the wrapper.
func (w *statusWriter) ReadFrom(src io.Reader) (int64, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := io.Copy(w.ResponseWriter, src)
	w.bytes += n
	return n, err
}

// ServeHTTP routes a files-port request.
func (s *Service) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	start := time.Now()
	w := &statusWriter{ResponseWriter: rw}
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("files panic", "method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			if w.status == 0 {
				http.Error(w, "internal error", http.StatusInternalServerError)
			}
		}
		d := time.Since(start)
		level, msg := slog.LevelDebug, "files"
		if s.accessLog || (s.slowCall > 0 && d >= s.slowCall) {
			level = slog.LevelInfo
			if !s.accessLog {
				msg = "slow files request"
			}
		}
		s.log.Log(r.Context(), level, msg, "method", r.Method, "path", r.URL.Path, "status", w.status, "bytes", w.bytes,
			"duration_ms", float64(d.Microseconds())/1000, "remote", r.RemoteAddr)
	}()
	h := w.Header()
	h.Set("Server", "trove")
	// The SDK forks reporting processes that share pooled sockets: never
	// keep a connection alive (as the reference never does).
	h.Set("Connection", "close")
	// Stored files are user content: never sniffed into another type, and
	// sandboxed when opened as a page (see headersFor).
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", sandboxPolicy)
	// The web UI (an allowed origin) shows debug images and downloads
	// artifacts with its session cookie.
	s.origins.CORS(w, r, "GET, HEAD, POST, DELETE, OPTIONS")
	if r.Method == http.MethodOptions {
		w.WriteHeader(http.StatusOK)
		return
	}
	if enc := r.Header.Get("Content-Encoding"); enc != "" && enc != "identity" {
		http.Error(w, fmt.Sprintf("content encoding %q is not supported", enc), http.StatusUnsupportedMediaType)
		return
	}
	if r.URL.Path == "/" {
		switch r.Method {
		case http.MethodGet, http.MethodHead:
			// Liveness check, open like the reference's.
			h.Set("Content-Type", "text/plain; charset=utf-8")
			_, _ = w.Write([]byte("OK"))
		case http.MethodPost:
			s.withIdentity(w, r, s.writer("upload", s.upload))
		default:
			methodNotAllowed(w, "GET, HEAD, POST, OPTIONS")
		}
		return
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		s.withIdentity(w, r, s.download)
	case http.MethodDelete:
		s.withIdentity(w, r, s.writer("delete", s.remove))
	default:
		methodNotAllowed(w, "GET, HEAD, DELETE, OPTIONS")
	}
}

// withIdentity authenticates the request and runs fn as its caller. An
// upload or delete carrying only the session cookie must come from an
// allowed origin (httpx.Origins), or a foreign page could make a
// browser send it.
func (s *Service) withIdentity(w http.ResponseWriter, r *http.Request, fn func(http.ResponseWriter, *http.Request, *auth.Identity)) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead && httpx.CookieOnly(r) {
		if why := s.origins.CheckCookieFileChange(r); why != "" {
			ae := apierr.CrossSiteRefused(why)
			http.Error(w, ae.Message(), ae.Code)
			return
		}
	}
	id, err := s.authenticateHolding(r)
	if err != nil {
		ae := apierr.As(err)
		if ae == nil || ae.Code >= 500 {
			s.fail(w, r, err)
			return
		}
		if ae.RetryAfter > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(ae.RetryAfter))
		}
		http.Error(w, ae.Message(), ae.Code)
		return
	}
	fn(w, r, id)
}

// writer lets only the roles that change the company's records
// (auth.Writers) run fn: annotators and guests read files and never
// upload or delete them.
func (s *Service) writer(what string, fn func(http.ResponseWriter, *http.Request, *auth.Identity)) func(http.ResponseWriter, *http.Request, *auth.Identity) {
	return func(w http.ResponseWriter, r *http.Request, id *auth.Identity) {
		if !slices.Contains(auth.Writers, id.Role) {
			s.fail(w, r, fmt.Errorf("%w: the %q role is read-only and may not %s files (allowed roles: %s)",
				ErrForbidden, id.Role, what, strings.Join(auth.Writers, ", ")))
			return
		}
		fn(w, r, id)
	}
}

// The hold bounds how long a request whose authentication meets a store
// fault (the database unreachable) is held, retrying, before it is
// answered 503. The SDK retries a failed upload only a few times at once
// (urllib3 does not retry a POST's 503), so the server waits out a short
// outage itself; 20 s stays below the SDK's 30 s upload timeout.
var faultHold atomic.Int64

func init() { faultHold.Store(int64(20 * time.Second)) }

// SetFaultHold changes the hold and returns a function restoring it (for
// tests).
func SetFaultHold(d time.Duration) (restore func()) {
	old := faultHold.Swap(int64(d))
	return func() { faultHold.Store(old) }
}

// authenticateHolding authenticates r, retrying for up to FaultHold while
// the store has a fault (SetFaultHold).
func (s *Service) authenticateHolding(r *http.Request) (*auth.Identity, error) {
	deadline := time.Now().Add(time.Duration(faultHold.Load()))
	for {
		id, err := s.auth.Authenticate(r.Context(), r)
		if err == nil || store.FaultOf(err) == "" || time.Now().After(deadline) {
			return id, err
		}
		select {
		case <-r.Context().Done():
			return nil, err
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// fail answers an error with its status and a plain-text message (the SDK
// shows the body in its exception); unexpected errors are logged once.
func (s *Service) fail(w http.ResponseWriter, r *http.Request, err error) {
	code := statusOf(err)
	msg := err.Error()
	if code == http.StatusServiceUnavailable {
		if f := store.FaultOf(err); f != "" {
			msg = string(f) + "; retry shortly"
		}
		s.log.Warn("files request failed, retryable", "method", r.Method, "path", r.URL.Path, "error", err.Error())
		w.Header().Set("Retry-After", strconv.Itoa(retryAfter))
	}
	if code == http.StatusInternalServerError {
		s.log.Error("files request failed", "method", r.Method, "path", r.URL.Path, "error", msg)
		msg = "internal error"
	}
	http.Error(w, msg, code)
}

func methodNotAllowed(w http.ResponseWriter, allow string) {
	w.Header().Set("Allow", allow)
	http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
}
