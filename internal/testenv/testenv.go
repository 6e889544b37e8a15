// Package testenv starts the real Trove router on a fresh store for tests,
// on SQLite always and on PostgreSQL when TROVE_TEST_POSTGRES names a
// server (each environment gets its own throwaway database).
package testenv

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/app"
	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/config"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// Admin credentials of every test environment.
const (
	AdminKey    = "TESTADMINKEY0000000000000000"
	AdminSecret = "test-admin-secret-0000000000000000000000000000"
)

// Env is one running server.
type Env struct {
	Backend string
	URL     string
	App     *app.App
	// Token is an admin token of the default company.
	Token string
	// Clock is the server's clock; tests advance it instead of sleeping.
	Clock *Clock
}

// Backends lists the backends to test on.
func Backends() []string { return storetest.Backends() }

// Option changes the configuration or dependencies of an environment.
type Option func(*config.Config)

// WithUsers adds fixed users.
func WithUsers(users ...auth.FixedUser) Option {
	return func(c *config.Config) { c.Users = append(c.Users, users...) }
}

// Each runs fn once per backend as a subtest with a fresh environment;
// the backends' subtests run in parallel (each has its own store and
// server). A test that changes process-wide settings while it runs (a
// budget, a test hook) or measures the process uses EachSerial.
func Each(t *testing.T, fn func(t *testing.T, e *Env), opts ...Option) {
	storetest.Run(t, true, func(t *testing.T, b string) { fn(t, New(t, b, opts...)) })
}

// EachSerial is Each with the backends one after the other.
func EachSerial(t *testing.T, fn func(t *testing.T, e *Env), opts ...Option) {
	storetest.Run(t, false, func(t *testing.T, b string) { fn(t, New(t, b, opts...)) })
}

// New starts an environment on backend ("sqlite" or "postgres").
func New(t testing.TB, backend string, opts ...Option) *Env {
	t.Helper()
	cfg := config.Defaults()
	cfg.DataDir = t.TempDir()
	cfg.AdminKey, cfg.AdminSecret = AdminKey, AdminSecret
	cfg.TokenSecret = "test-token-secret"
	cfg.FilesAddr = "127.0.0.1:1"
	if backend == "postgres" {
		cfg.DB = NewPostgresDB(t)
	}
	for _, o := range opts {
		o(&cfg)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if os.Getenv("TROVE_TEST_LOG") != "" {
		log = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	clock := &Clock{}
	a, err := app.New(context.Background(), cfg, log, app.WithClock(clock.Now))
	if err != nil {
		t.Fatalf("start trove: %v", err)
	}
	srv := httptest.NewServer(a.Handler)
	t.Cleanup(func() {
		srv.Close()
		a.Close()
	})
	e := &Env{Backend: backend, URL: srv.URL, App: a, Clock: clock}
	e.Token = e.Login(t, AdminKey, AdminSecret)
	return e
}

// NewPostgresDB creates a throwaway database and returns its URL.
func NewPostgresDB(t testing.TB) string { return storetest.NewPostgresDB(t) }

// Login returns a token for a key pair.
func (e *Env) Login(t testing.TB, key, secret string) string {
	t.Helper()
	r := e.Do(t, "auth.login", nil, func(h http.Header) {
		h.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(key+":"+secret)))
	})
	r.OK(t)
	tok, _ := r.Data["token"].(string)
	if tok == "" {
		t.Fatalf("login gave no token: %s", r.Raw)
	}
	return tok
}

// Response is a decoded envelope.
type Response struct {
	Status int
	Meta   map[string]any
	Data   map[string]any
	Raw    []byte
	Header http.Header
	// Close is true when the server closed the connection after replying.
	Close bool
}

// Call runs an operation as the admin.
func (e *Env) Call(t testing.TB, endpoint string, body any) *Response {
	t.Helper()
	return e.CallAs(t, e.Token, endpoint, body)
}

// CallAs runs an operation with a token ("" = no credentials).
func (e *Env) CallAs(t testing.TB, token, endpoint string, body any) *Response {
	t.Helper()
	return e.Do(t, endpoint, body, func(h http.Header) {
		if token != "" {
			h.Set("Authorization", "Bearer "+token)
		}
	})
}

// Do posts body (a value to encode, or a string/[]byte sent as is) to
// path "/"+endpoint with headers set by hdr.
func (e *Env) Do(t testing.TB, endpoint string, body any, hdr func(http.Header)) *Response {
	t.Helper()
	return e.do(t, http.DefaultClient, endpoint, body, hdr)
}

// DoFrom is Do from another local address (such as 127.0.0.2, also
// loopback on Linux), for what the server tells apart by the caller's
// address.
func (e *Env) DoFrom(t testing.TB, ip, endpoint string, body any, hdr func(http.Header)) *Response {
	t.Helper()
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	tr := &http.Transport{DialContext: dialer.DialContext}
	defer tr.CloseIdleConnections()
	return e.do(t, &http.Client{Transport: tr}, endpoint, body, hdr)
}

func (e *Env) do(t testing.TB, client *http.Client, endpoint string, body any, hdr func(http.Header)) *Response {
	t.Helper()
	var raw []byte
	switch b := body.(type) {
	case nil:
		raw = []byte("{}")
	case string:
		raw = []byte(b)
	case []byte:
		raw = b
	default:
		var err error
		if raw, err = json.Marshal(b); err != nil {
			t.Fatalf("encode body: %v", err)
		}
	}
	req, err := http.NewRequest(http.MethodPost, e.URL+"/"+strings.TrimPrefix(endpoint, "/"), bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if hdr != nil {
		hdr(req.Header)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s: %v", endpoint, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	r := &Response{Status: resp.StatusCode, Raw: out, Header: resp.Header, Close: resp.Close}
	var env struct {
		Meta map[string]any `json:"meta"`
		Data map[string]any `json:"data"`
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(jsonx.Sanitize(out), &env); err != nil {
			t.Fatalf("%s: bad envelope %q: %v", endpoint, out, err)
		}
		r.Meta, r.Data = env.Meta, env.Data
	}
	return r
}

// OK fails the test unless the call succeeded; it returns r.
func (r *Response) OK(t testing.TB) *Response {
	t.Helper()
	if r.Status != 200 {
		t.Fatalf("want 200, got %d: %s", r.Status, r.Raw)
	}
	return r
}

// Err fails the test unless the call failed with code/subcode.
func (r *Response) Err(t testing.TB, code, subcode int) *Response {
	t.Helper()
	if r.Status != code || r.Meta == nil || int(r.Meta["result_code"].(float64)) != code || int(r.Meta["result_subcode"].(float64)) != subcode {
		t.Fatalf("want %d/%d, got HTTP %d: %s", code, subcode, r.Status, r.Raw)
	}
	return r
}

// Msg returns meta.result_msg.
func (r *Response) Msg() string {
	s, _ := r.Meta["result_msg"].(string)
	return s
}

// Str returns a string member of data at a dotted path.
func (r *Response) Str(path string) string {
	v, _ := Get(r.Data, path).(string)
	return v
}

// List returns a list member of data.
func (r *Response) List(path string) []any {
	v, _ := Get(r.Data, path).([]any)
	return v
}

// Num returns a numeric member of data.
func (r *Response) Num(path string) float64 {
	v, _ := Get(r.Data, path).(float64)
	return v
}

// Get walks a dotted path through maps (and list indexes).
func Get(v any, path string) any {
	if path == "" {
		return v
	}
	for _, p := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[p]
		case []any:
			var i int
			if _, err := fmt.Sscanf(p, "%d", &i); err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}
