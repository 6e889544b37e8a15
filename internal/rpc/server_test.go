package rpc

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/httpx"
)

// fixedAuth accepts the token "good" and refuses everything else.
type fixedAuth struct{}

func (fixedAuth) Authenticate(_ context.Context, r *http.Request) (*auth.Identity, error) {
	if r.Header.Get("Authorization") == "Bearer good" {
		return &auth.Identity{UserID: "u", CompanyID: "c", Role: auth.RoleUser}, nil
	}
	return nil, apierr.NoCredentials()
}

type echoReq struct {
	Name  string `json:"name" required:"true"`
	Count int    `json:"count"`
}

func testServer(t *testing.T) *httptest.Server {
	reg := NewRegistry()
	reg.Add(
		Endpoint{Name: "test.echo", Access: Read, Handler: Typed(func(_ context.Context, _ *Call, r *echoReq) (*echoReq, error) { return r, nil })},
		Endpoint{Name: "test.echo", MinVersion: "2.20", Access: Read, Handler: Typed(func(_ context.Context, _ *Call, r *echoReq) (*echoReq, error) {
			r.Count += 1000
			return r, nil
		})},
		Endpoint{Name: "test.panic", Access: Read, Handler: func(context.Context, *Call) (any, error) { panic("boom") }},
		Endpoint{Name: "test.fail", Access: Read, Handler: func(context.Context, *Call) (any, error) { return nil, io.ErrUnexpectedEOF }},
		Endpoint{Name: "test.admin", Access: Access{Roles: []string{auth.RoleAdmin}}, Handler: func(context.Context, *Call) (any, error) { return nil, nil }},
		Endpoint{Name: "test.setting", Access: ReadOrSet("value", []string{auth.RoleAdmin}), Handler: func(context.Context, *Call) (any, error) { return nil, nil }},
		Endpoint{Name: "test.big", Access: Read, Handler: func(context.Context, *Call) (any, error) {
			return map[string]string{"text": strings.Repeat("trove ", 2000)}, nil
		}},
	)
	origins, err := httpx.NewOrigins([]string{"http://ui.example"})
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Registry: reg, Auth: fixedAuth{}, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), MaxBody: 1024, Origins: origins}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return srv
}

func TestServer(t *testing.T) {
	srv := testServer(t)
	cases := []struct {
		name, method, path, body string
		hdr                      map[string]string
		status, subcode          int
		check                    func(t *testing.T, resp *http.Response, env map[string]any)
	}{
		{name: "typed call", path: "/test.echo", body: `{"name":"x","count":2}`, status: 200, check: func(t *testing.T, _ *http.Response, env map[string]any) {
			if d := env["data"].(map[string]any); d["count"] != 1002.0 {
				t.Fatalf("newest implementation runs without a version: %v", d)
			}
		}},
		{name: "old version picks old implementation", path: "/v2.5/test.echo", body: `{"name":"x","count":2}`, status: 200, check: func(t *testing.T, _ *http.Response, env map[string]any) {
			if d := env["data"].(map[string]any); d["count"] != 2.0 {
				t.Fatalf("2.5 < 2.20 must run the 1.0 implementation: %v", d)
			}
		}},
		{name: "GET with a body", method: http.MethodGet, path: "/test.echo", body: `{"name":"x"}`, status: 200},
		{name: "required field", path: "/test.echo", body: `{}`, status: 400, subcode: 12},
		{name: "panic becomes 500 envelope", path: "/test.panic", status: 500, subcode: 0, check: func(t *testing.T, _ *http.Response, env map[string]any) {
			meta := env["meta"].(map[string]any)
			if meta["error_stack"] == nil || meta["error_stack"] == "" {
				t.Fatalf("500/0 carries a stack: %v", meta)
			}
		}},
		{name: "unknown error becomes 500", path: "/test.fail", status: 500},
		{name: "role check", path: "/test.admin", status: 403, subcode: 20},
		{name: "read for every role", path: "/test.setting", body: `{}`, status: 200},
		{name: "setting is a change for its roles", path: "/test.setting", body: `{"value":1}`, status: 403, subcode: 20},
		{name: "setting by query string too", path: "/test.setting?value=1", body: `{}`, status: 403, subcode: 20},
		{name: "null sets nothing", path: "/test.setting", body: `{"value":null}`, status: 200},
		{name: "setting in JSON lines", path: "/test.setting", body: "{}\n{\"value\":2}", hdr: map[string]string{"Content-Type": "application/json-lines"}, status: 403, subcode: 20},
		{name: "body too large", path: "/test.echo", body: `{"name":"` + strings.Repeat("x", 2000) + `"}`, status: 400},
		{name: "content encoding refused", path: "/test.echo", body: `{}`, hdr: map[string]string{"Content-Encoding": "gzip"}, status: 415},
		{name: "trx echoed", path: "/test.echo", body: `{"name":"x"}`, hdr: map[string]string{"X-ClearML-Trx": "my-trx"}, status: 200, check: func(t *testing.T, _ *http.Response, env map[string]any) {
			if env["meta"].(map[string]any)["trx"] != "my-trx" {
				t.Fatalf("trx not echoed: %v", env["meta"])
			}
		}},
		{name: "CORS preflight", method: http.MethodOptions, path: "/test.echo", hdr: map[string]string{"Origin": "http://ui.example", "Access-Control-Request-Headers": "authorization"}, status: 200, check: func(t *testing.T, resp *http.Response, _ map[string]any) {
			if resp.Header.Get("Access-Control-Allow-Origin") != "http://ui.example" || resp.Header.Get("Access-Control-Allow-Credentials") != "true" {
				t.Fatalf("CORS headers: %v", resp.Header)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			method := tc.method
			if method == "" {
				method = http.MethodPost
			}
			req, _ := http.NewRequest(method, srv.URL+tc.path, strings.NewReader(tc.body))
			req.Header.Set("Authorization", "Bearer good")
			for k, v := range tc.hdr {
				req.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			raw, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.status, raw)
			}
			var env map[string]any
			if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
				if err := json.Unmarshal(raw, &env); err != nil {
					t.Fatalf("bad envelope %s", raw)
				}
				meta := env["meta"].(map[string]any)
				if int(meta["result_code"].(float64)) != tc.status || int(meta["result_subcode"].(float64)) != tc.subcode {
					t.Fatalf("meta %v, want %d/%d", meta, tc.status, tc.subcode)
				}
			}
			if tc.check != nil {
				tc.check(t, resp, env)
			}
		})
	}
}

func TestParseVersion(t *testing.T) {
	cases := []struct {
		in   string
		want Version
		ok   bool
	}{
		{"2.31", Version{2, 31}, true}, {"22", Version{22, 0}, true}, {"999.0", Version{999, 0}, true},
		{"2.05", Version{}, false}, {"02.1", Version{}, false}, {"2.", Version{}, false}, {"", Version{}, false},
	}
	for _, c := range cases {
		got, err := ParseVersion(c.in)
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("ParseVersion(%q) = %v, %v", c.in, got, err)
		}
	}
	if !(Version{2, 5}).Less(Version{2, 31}) {
		t.Error("versions compare as integer pairs")
	}
}

func TestQueryValues(t *testing.T) {
	cases := map[string]any{"5": int64(5), "2.5": 2.5, "true": true, "False": false, "-1": "-1", "abc": "abc", "1.2.3": "1.2.3"}
	for in, want := range cases {
		if got := convertQueryValue(in); got != want {
			t.Errorf("convertQueryValue(%q) = %#v, want %#v", in, got, want)
		}
	}
}

// An endpoint that looks at credentials must state its access: the
// registry refuses one without at start-up; AuthNone needs none.
func TestAddRequiresAccess(t *testing.T) {
	h := func(context.Context, *Call) (any, error) { return nil, nil }
	for _, ep := range []Endpoint{
		{Name: "test.none", Handler: h},
		{Name: "test.optional", Auth: AuthOptional, Handler: h},
		{Name: "test.setby", Access: Access{Roles: auth.Everyone, SetBy: "x"}, Handler: h},
	} {
		func() {
			defer func() {
				if p := recover(); p == nil || !strings.Contains(fmt.Sprint(p), ep.Name) {
					t.Errorf("%s: want a panic naming it, got %v", ep.Name, p)
				}
			}()
			NewRegistry().Add(ep)
		}()
	}
	NewRegistry().Add(Endpoint{Name: "test.open", Auth: AuthNone, Handler: h})
}
