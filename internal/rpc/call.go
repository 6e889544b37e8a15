package rpc

import (
	"io"
	"net/http"

	"github.com/trove-ml/trove/internal/auth"
)

// Call carries one decoded request to its handler.
type Call struct {
	// Endpoint is the operation name from the path.
	Endpoint string
	// Version is the requested API version.
	Version Version
	// Identity is the authenticated caller; nil on AuthNone endpoints and on
	// AuthOptional endpoints called without valid credentials.
	Identity *auth.Identity
	// Body is the request object (JSON, NaN tokens sanitized), query-string
	// values merged in. For JSON-lines requests it is nil.
	Body []byte
	// Lines holds the objects of a JSON-lines body (or the single object of a
	// plain JSON body sent to a batch endpoint).
	Lines [][]byte
	// JSONLines is true when the body was sent as application/json-lines.
	JSONLines bool
	// Request is the underlying HTTP request (headers, remote address).
	Request *http.Request

	cookies []*http.Cookie
	raw     *RawResponse
}

// RawResponse is a non-envelope success reply (file downloads).
type RawResponse struct {
	ContentType string
	Filename    string
	Body        []byte
	// Stream, when set, writes the body instead of Body, so large
	// downloads need not be held in memory. The status is already sent:
	// an error ends the body early and is logged.
	Stream func(w io.Writer) error
}

// SetCookie adds a cookie to the response.
func (c *Call) SetCookie(ck *http.Cookie) { c.cookies = append(c.cookies, ck) }

// SetRaw makes the reply a raw body instead of the envelope.
func (c *Call) SetRaw(r *RawResponse) { c.raw = r }

// Company is the caller's company id ("" without identity).
func (c *Call) Company() string {
	if c.Identity == nil {
		return ""
	}
	return c.Identity.CompanyID
}

// User is the caller's user id.
func (c *Call) User() string {
	if c.Identity == nil {
		return ""
	}
	return c.Identity.UserID
}

// Header returns a request header under its X-ClearML- or X-Trains- name.
func (c *Call) Header(suffix string) string {
	if c.Request == nil {
		return ""
	}
	if v := c.Request.Header.Get("X-ClearML-" + suffix); v != "" {
		return v
	}
	return c.Request.Header.Get("X-Trains-" + suffix)
}
