// Package rpc is the transport kernel: it maps /[v<ver>/]<service>.<action>
// paths to registered endpoints, authenticates, decodes bodies (JSON, JSON
// lines, query strings), runs typed handlers and writes the {meta, data}
// envelope. Every operation goes through this one path.
package rpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/httpx"
	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/limits"
	"github.com/trove-ml/trove/internal/store"
)

// Finished describes one finished call, for the Observer.
type Finished struct {
	// Operation is the registered operation that ran ("" when the path
	// named none, so unknown paths stay out of metric labels).
	Operation string
	Status    int
	Duration  time.Duration
	// Result is the handler's answer (nil when the call failed).
	Result any
}

// Observer receives one notification per finished call (metrics).
type Observer func(Finished)

// Server is the http.Handler of the API port.
type Server struct {
	Registry *Registry
	Auth     Authenticator
	Log      *slog.Logger
	// MaxBody is the request body limit in bytes.
	MaxBody int64
	// Timeout is the deadline of a call (0 = DefaultTimeout, negative =
	// none); streaming endpoints are exempt.
	Timeout time.Duration
	// AccessLog logs every call at info; otherwise calls of SlowCall or
	// longer (0: none) are logged at info and the others at debug.
	// Failures are logged as errors either way.
	AccessLog bool
	SlowCall  time.Duration
	// Observe, when set, sees every finished call.
	Observe Observer
	// Origins is the origin policy: CORS and the cross-site gate of
	// calls made with the session cookie (nil = same origin only).
	Origins *httpx.Origins
}

var pathRe = regexp.MustCompile(`^/*(?:v([0-9]+(?:\.[0-9]+)?)/+)?([A-Za-z_]\w+)\.([A-Za-z_]\w+)/*$`)

// clientHeaders mark the ClearML SDK and agent, which must not get
// keep-alive connections (their forked reporters share sockets).
var clientHeaders = []string{"X-ClearML-Client", "X-Trains-Client", "X-ClearML-Agent", "X-Trains-Agent", "X-ClearML-Worker", "X-Trains-Worker"}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	for _, h := range clientHeaders {
		if r.Header.Get(h) != "" {
			w.Header().Set("Connection", "close")
			break
		}
	}
	s.Origins.CORS(w, r, "GET, POST, PUT, OPTIONS")
	w.Header().Set("Server", "trove")
	if r.Method == http.MethodOptions {
		w.WriteHeader(http.StatusOK)
		return
	}
	if enc := r.Header.Get("Content-Encoding"); enc != "" && !strings.EqualFold(enc, "identity") {
		http.Error(w, fmt.Sprintf("Content encoding is not supported (%s)", enc), http.StatusUnsupportedMediaType)
		return
	}

	id := ids.New()
	trx := r.Header.Get("X-ClearML-Trx")
	if trx == "" {
		trx = r.Header.Get("X-Trains-Trx")
	}
	if trx == "" {
		trx = id
	}
	m := meta{ID: id, Trx: trx, Endpoint: metaEndpoint{Name: "", RequestedVersion: 1.0}}
	status := 0
	name, op := "", ""
	var result any
	defer func() {
		if p := recover(); p != nil {
			stack := string(debug.Stack())
			s.Log.Error("panic", "endpoint", name, "request_id", id, "panic", fmt.Sprint(p), "stack", stack)
			status = 500
			writeJSON(w, 500, encodeError(m, apierr.Internal(fmt.Errorf("%v", p)), fmt.Sprint(p)))
		}
		d := time.Since(start)
		level, msg := slog.LevelDebug, "call"
		if s.AccessLog || (s.SlowCall > 0 && d >= s.SlowCall) {
			level = slog.LevelInfo
			if !s.AccessLog {
				msg = "slow call"
			}
		}
		s.Log.Log(r.Context(), level, msg, "endpoint", name, "status", status, "duration_ms", float64(d.Microseconds())/1000, "request_id", id, "remote", r.RemoteAddr)
		if s.Observe != nil {
			s.Observe(Finished{Operation: op, Status: status, Duration: d, Result: result})
		}
	}()

	pm := pathRe.FindStringSubmatch(r.URL.Path)
	if pm == nil {
		status = 400
		writeJSON(w, 400, encodeError(m, apierr.BadRequest("Invalid request path "+r.URL.Path), ""))
		return
	}
	name = pm[2] + "." + pm[3]
	m.Endpoint.Name = name
	ver := MaxVersion
	if pm[1] != "" {
		v, err := ParseVersion(pm[1])
		if err != nil {
			status = 400
			writeJSON(w, 400, encodeError(m, apierr.InvalidVersion(pm[1]), ""))
			return
		}
		ver = v
	}
	m.Endpoint.RequestedVersion = ver.wire()
	ep := s.Registry.Resolve(name, ver)
	if ep == nil {
		status = 404
		writeJSON(w, 404, encodeError(m, apierr.UnknownEndpoint(name, ver.String()), ""))
		return
	}
	op = name
	m.Endpoint.ActualVersion = ep.min.String()
	if ver.Less(Version{2, 1}) {
		m.Endpoint.ActualVersion = ep.min.wire()
	}

	call := &Call{Endpoint: name, Version: ver, Request: r}
	ctx, cancel := s.callContext(r.Context(), ep)
	defer cancel()
	data, err := s.run(ctx, ep, call, w, r)
	if err == nil {
		result = data
	}
	for _, ck := range call.cookies {
		http.SetCookie(w, ck)
	}
	if err != nil {
		if ae, ok := s.deadlineError(ctx, err); ok {
			status = ae.Code
			s.Log.Warn("call ended by its context", "endpoint", name, "request_id", id, "reason", ae.Message())
			writeJSON(w, ae.Code, encodeError(m, ae, ""))
			return
		}
		ae := apierr.As(err)
		if ae == nil {
			ae = limits.PatternTooCostly(err) // the store stopped a costly pattern
		}
		if ae == nil || ae.Code == 500 {
			if f := store.FaultOf(err); f != "" { // a store fault, not a bug: retryable
				ae = apierr.StoreUnavailable(string(f), err)
				s.Log.Warn("call failed, retryable", "endpoint", name, "request_id", id, "error", err.Error())
			}
		}
		stack := ""
		if ae == nil || ae.Code >= 500 && ae.Code != 503 {
			if ae == nil {
				ae = apierr.Internal(err)
			}
			stack = fmt.Sprint(errors.Unwrap(ae))
			s.Log.Error("call failed", "endpoint", name, "request_id", id, "error", err.Error())
		}
		status = ae.Code
		if ae.RetryAfter > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(ae.RetryAfter))
		}
		writeJSON(w, ae.Code, encodeError(m, ae, stack))
		return
	}
	if call.raw != nil {
		status = 200
		w.Header().Set("Content-Type", call.raw.ContentType)
		if call.raw.Filename != "" {
			w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", call.raw.Filename))
		}
		w.WriteHeader(200)
		if call.raw.Stream != nil {
			if err := call.raw.Stream(w); err != nil {
				s.Log.Error("stream failed", "endpoint", name, "request_id", id, "error", err.Error())
			}
			return
		}
		_, _ = w.Write(call.raw.Body)
		return
	}
	out, encErr := encodeSuccess(m, data)
	if encErr != nil {
		s.Log.Error("encode failed", "endpoint", name, "request_id", id, "error", encErr.Error())
		status = 500
		writeJSON(w, 500, encodeError(m, apierr.Internal(encErr), encErr.Error()))
		return
	}
	status = 200
	writeJSON(w, 200, out)
}

// run authenticates, checks the endpoint's access, decodes and
// dispatches; it returns the handler's data.
func (s *Server) run(ctx context.Context, ep *Endpoint, call *Call, w http.ResponseWriter, r *http.Request) (any, error) {
	switch ep.Auth {
	case AuthRequired:
		id, err := s.Auth.Authenticate(ctx, r)
		if err != nil {
			return nil, err
		}
		call.Identity = id
	case AuthOptional:
		if id, err := s.Auth.Authenticate(ctx, r); err == nil {
			call.Identity = id
		}
	}
	if call.Identity != nil && !contains(ep.Access.Roles, call.Identity.Role) {
		return nil, apierr.RoleNotAllowed(call.Identity.Role, ep.Access.Roles)
	}
	if ep.Auth != AuthNone && ep.Access.Changes {
		if err := s.crossSite(r); err != nil {
			return nil, err
		}
	}

	body, err := readBody(w, r, s.MaxBody)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, apierr.BodyTooLarge(s.MaxBody)
		}
		return nil, apierr.BadRequest("Failed reading request body")
	}
	body = jsonx.Sanitize(body)
	if strings.TrimSpace(r.Header.Get("Content-Type")) == "application/json-lines" {
		split := splitLines
		if ep.LenientLines {
			split = splitLinesLenient
		}
		lines, err := split(body)
		if err != nil {
			return nil, err
		}
		for _, ln := range lines {
			if call.Identity != nil && ep.Access.sets(ln) {
				if !contains(ep.Access.SetRoles, call.Identity.Role) {
					return nil, apierr.RoleNotAllowed(call.Identity.Role, ep.Access.SetRoles)
				}
				if err := s.crossSite(r); err != nil {
					return nil, err
				}
				break
			}
		}
		call.Lines, call.JSONLines = lines, true
		return ep.Handler(ctx, call)
	}
	obj, err := objectBody(body, r.URL.RawQuery)
	if err != nil {
		return nil, err
	}
	if call.Identity != nil && ep.Access.sets(obj) {
		if !contains(ep.Access.SetRoles, call.Identity.Role) {
			return nil, apierr.RoleNotAllowed(call.Identity.Role, ep.Access.SetRoles)
		}
		if err := s.crossSite(r); err != nil {
			return nil, err
		}
	}
	call.Body = obj
	call.Lines = [][]byte{obj}
	return ep.Handler(ctx, call)
}

// objectBody is the request object of a JSON body (empty or null: {}),
// with the query string's values merged in.
func objectBody(body []byte, rawQuery string) ([]byte, error) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		trimmed = []byte("{}")
	}
	if !json.Valid(trimmed) {
		return nil, apierr.MalformedJSON("invalid JSON body")
	}
	if !isObject(trimmed) {
		return nil, apierr.ValidationMsg("request body must be a JSON object")
	}
	if rawQuery == "" {
		return trimmed, nil
	}
	q, _ := url.ParseQuery(rawQuery) // as URL.Query: what parses is kept
	merged, err := mergeQuery(trimmed, q)
	if err != nil {
		return nil, apierr.MalformedJSON(err.Error())
	}
	return merged, nil
}

// readBody reads the request body up to limit bytes, in one allocation
// when the client announced its length (event batches run to megabytes).
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	body := http.MaxBytesReader(w, r.Body, limit)
	if n := r.ContentLength; n > 0 && n <= limit {
		buf := make([]byte, n)
		if _, err := io.ReadFull(body, buf); err != nil {
			return nil, err
		}
		return buf, nil
	}
	return io.ReadAll(body)
}

// splitLines splits a JSON-lines body into its objects.
func splitLines(body []byte) ([][]byte, error) {
	var out [][]byte
	for _, ln := range bytes.Split(body, []byte("\n")) {
		ln = bytes.TrimSpace(ln)
		if len(ln) == 0 {
			continue
		}
		if len(out) == limits.Lines {
			return nil, limits.TooMany("(json lines)", bytes.Count(body, []byte("\n"))+1, limits.Lines)
		}
		if !json.Valid(ln) {
			return nil, apierr.MalformedJSON(fmt.Sprintf("invalid JSON on line %d", len(out)+1))
		}
		if ln[0] != '{' {
			return nil, apierr.BadRequest("json lines must contain objects, found: " + jsonType(ln))
		}
		out = append(out, ln)
	}
	return out, nil
}

// splitLinesLenient splits a JSON-lines body into its non-blank lines
// without judging them.
func splitLinesLenient(body []byte) ([][]byte, error) {
	var out [][]byte
	for _, ln := range bytes.Split(body, []byte("\n")) {
		if ln = bytes.TrimSpace(ln); len(ln) > 0 {
			if len(out) == limits.Lines {
				return nil, limits.TooMany("(json lines)", bytes.Count(body, []byte("\n"))+1, limits.Lines)
			}
			out = append(out, ln)
		}
	}
	return out, nil
}

func jsonType(b []byte) string {
	switch b[0] {
	case '[':
		return "list"
	case '"':
		return "str"
	case 't', 'f':
		return "bool"
	case 'n':
		return "NoneType"
	}
	return "number"
}

// crossSite refuses a change carried by the session cookie alone unless
// it is a JSON POST from an allowed origin.
func (s *Server) crossSite(r *http.Request) error {
	if !httpx.CookieOnly(r) {
		return nil
	}
	if why := s.Origins.CheckCookieChange(r); why != "" {
		return apierr.CrossSiteRefused(why)
	}
	return nil
}

func writeJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
