// Package httpx holds the HTTP helpers the API port (internal/rpc) and the
// files port (internal/files) share: the origin policy that decides which
// web pages may call with the session cookie (CORS and the cross-site
// request gate).
package httpx

import (
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"sort"
	"strings"
)

// SessionCookie is the session cookie the web clients use; a request
// whose only credentials are this cookie is what a foreign page can make a
// browser send.
const SessionCookie = "clearml_token_basic"

// Origins is the origin policy of both ports: the origins allowed to call
// with the session cookie (the web address's own and --cors-origins), plus
// the request's own origin (scheme and Host) always.
type Origins struct {
	allowed map[string]bool
}

// NewOrigins checks and normalises a list of origins
// ("scheme://host[:port]"). "*" is refused: credentials are never shared
// with any origin.
func NewOrigins(list []string) (*Origins, error) {
	o := &Origins{allowed: map[string]bool{}}
	for _, raw := range list {
		raw = strings.TrimSpace(raw)
		if raw == "" {
			continue
		}
		norm, err := ParseOrigin(raw)
		if err != nil {
			return nil, err
		}
		o.allowed[norm] = true
	}
	return o, nil
}

// ParseOrigin checks one allowed origin and returns its normal form
// (lower case, no default port, no trailing slash).
func ParseOrigin(raw string) (string, error) {
	if raw == "*" {
		return "", fmt.Errorf("cors_origins: %q is not allowed: the session cookie is never shared with any origin; list the origins", raw)
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", fmt.Errorf("cors_origins: %q is not an origin (want scheme://host[:port], http or https)", raw)
	}
	return normalize(u.Scheme, u.Host), nil
}

// normalize is scheme://host[:port] in lower case without the scheme's
// default port.
func normalize(scheme, host string) string {
	scheme, host = strings.ToLower(scheme), strings.ToLower(host)
	if (scheme == "http" && strings.HasSuffix(host, ":80")) || (scheme == "https" && strings.HasSuffix(host, ":443")) {
		host = host[:strings.LastIndexByte(host, ':')]
	}
	return scheme + "://" + host
}

// List is the allowed origins, sorted, for the start-up log.
func (o *Origins) List() []string {
	out := make([]string, 0, len(o.allowed))
	for k := range o.allowed {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// ownOrigin is the origin the request was sent to: its scheme (the
// connection's, or X-Forwarded-Proto set by a proxy in front) and Host
// (or X-Forwarded-Host). A page cannot make a browser send the forwarding
// headers cross-site without a preflight this policy refuses.
func ownOrigin(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	if p := firstValue(r.Header.Get("X-Forwarded-Proto")); p == "http" || p == "https" {
		scheme = p
	}
	host := r.Host
	if h := firstValue(r.Header.Get("X-Forwarded-Host")); h != "" {
		host = h
	}
	return normalize(scheme, host)
}

func firstValue(v string) string {
	v, _, _ = strings.Cut(v, ",")
	return strings.ToLower(strings.TrimSpace(v))
}

// Allowed says whether origin (an Origin header) may call with
// credentials: it is in the list or is the request's own origin.
func (o *Origins) Allowed(r *http.Request, origin string) bool {
	if origin == "" || origin == "null" {
		return false
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	norm := normalize(u.Scheme, u.Host)
	return (o != nil && o.allowed[norm]) || norm == ownOrigin(r)
}

// CORS writes the CORS headers for an allowed Origin: the origin echoed
// with credentials and, on a preflight (OPTIONS), methods and the headers
// the browser asked for. A foreign origin, or a request without Origin,
// gets none, so the browser keeps the answer from the page.
func (o *Origins) CORS(w http.ResponseWriter, r *http.Request, methods string) {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return
	}
	h := w.Header()
	// Add, not Set: a compressing wrapper may already vary on Accept-Encoding.
	h.Add("Vary", "Origin")
	if !o.Allowed(r, origin) {
		return
	}
	h.Set("Access-Control-Allow-Origin", origin)
	h.Set("Access-Control-Allow-Credentials", "true")
	if r.Method == http.MethodOptions {
		h.Set("Access-Control-Allow-Methods", methods)
		if req := r.Header.Get("Access-Control-Request-Headers"); req != "" {
			h.Set("Access-Control-Allow-Headers", req)
		}
		h.Set("Access-Control-Max-Age", "600")
	}
}

// CookieOnly says whether the request's credentials are the session
// cookie alone (no Authorization header): what a foreign page can make a
// browser send.
func CookieOnly(r *http.Request) bool {
	if r.Header.Get("Authorization") != "" {
		return false
	}
	ck, err := r.Cookie(SessionCookie)
	return err == nil && ck.Value != ""
}

// SameSite says whether a request comes from an allowed page: its Origin
// is allowed, or the browser says Sec-Fetch-Site: same-origin (which a
// page cannot forge; it covers a proxy in front that rewrites Host).
func (o *Origins) SameSite(r *http.Request) bool {
	if o.Allowed(r, r.Header.Get("Origin")) {
		return true
	}
	return strings.EqualFold(strings.TrimSpace(r.Header.Get("Sec-Fetch-Site")), "same-origin")
}

// CheckCookieChange is the cross-site gate of an API call that changes
// anything and carries only the session cookie: it must be a POST with a
// JSON or JSON-lines body from an allowed origin. It returns "" when the
// call may go on, else what was missing.
func (o *Origins) CheckCookieChange(r *http.Request) string {
	if r.Method != http.MethodPost {
		return fmt.Sprintf("a change made with the session cookie must be a POST, not %s", r.Method)
	}
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || (mt != "application/json" && mt != "application/json-lines") {
		return fmt.Sprintf("a change made with the session cookie must send Content-Type application/json or application/json-lines, not %q", r.Header.Get("Content-Type"))
	}
	return o.checkOrigin(r)
}

// CheckCookieFileChange is the gate of a file upload or delete that
// carries only the session cookie: it must come from an allowed origin
// (any body type).
func (o *Origins) CheckCookieFileChange(r *http.Request) string {
	return o.checkOrigin(r)
}

func (o *Origins) checkOrigin(r *http.Request) string {
	if o.SameSite(r) {
		return ""
	}
	if origin := r.Header.Get("Origin"); origin != "" {
		return fmt.Sprintf("a change made with the session cookie must come from an allowed origin, not %q", origin)
	}
	if s := r.Header.Get("Sec-Fetch-Site"); s != "" {
		return fmt.Sprintf("a change made with the session cookie must come from an allowed origin (Sec-Fetch-Site is %q, Origin is missing)", s)
	}
	return "a change made with the session cookie must come from an allowed origin (no Origin header)"
}
