package app_test

import (
	"compress/gzip"
	"encoding/base64"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// TestWire covers the envelope, paths, versions, auth and bad input, on
// every backend, through the real router.
func TestWire(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		cases := []struct {
			name    string
			path    string
			body    any
			hdr     func(http.Header)
			noAuth  bool
			code    int
			subcode int
			check   func(t *testing.T, r *testenv.Response)
		}{
			{name: "ping without auth", path: "debug.ping", body: map[string]any{"x": 1}, noAuth: true, code: 200,
				check: func(t *testing.T, r *testenv.Response) {
					if r.Str("msg") != "ClearML server" || r.Num("x") != 1 {
						t.Fatalf("bad ping %s", r.Raw)
					}
				}},
			{name: "versioned path", path: "v2.23/debug.ping", code: 200, check: func(t *testing.T, r *testenv.Response) {
				ep := r.Meta["endpoint"].(map[string]any)
				if ep["requested_version"] != "2.23" || ep["actual_version"] != "1.0" || ep["name"] != "debug.ping" {
					t.Fatalf("bad endpoint meta %v", ep)
				}
			}},
			{name: "old version is a number", path: "v2.0/debug.ping", code: 200, check: func(t *testing.T, r *testenv.Response) {
				ep := r.Meta["endpoint"].(map[string]any)
				if ep["requested_version"] != 2.0 {
					t.Fatalf("want number 2.0, got %v", ep["requested_version"])
				}
			}},
			{name: "version above max runs newest", path: "v999.0/projects.get_all", code: 200},
			{name: "leading zero version", path: "v2.05/debug.ping", code: 400, subcode: 2},
			{name: "bad path", path: "nothing", code: 400, subcode: 0},
			{name: "unknown endpoint", path: "tasks.nonexistent_call", code: 404, subcode: 0},
			{name: "unknown endpoint without auth", path: "foo.bar", noAuth: true, code: 404},
			{name: "version below min", path: "v2.1/projects.make_public", code: 404},
			{name: "missing credentials", path: "projects.get_all", noAuth: true, code: 401, subcode: 20},
			{name: "bad token", path: "projects.get_all", noAuth: true, hdr: func(h http.Header) { h.Set("Authorization", "Bearer abc.def.ghi") }, code: 401, subcode: 30},
			{name: "bad scheme", path: "projects.get_all", noAuth: true, hdr: func(h http.Header) { h.Set("Authorization", "Digest x") }, code: 401, subcode: 10},
			{name: "bad basic", path: "projects.get_all", noAuth: true, hdr: func(h http.Header) { h.Set("Authorization", "Basic !!!") }, code: 401, subcode: 21},
			{name: "wrong secret", path: "auth.login", noAuth: true, hdr: func(h http.Header) { h.Set("Authorization", "Basic VEVTVEFETUlOS0VZMDAwMDAwMDAwMDAwMDAwMDA6bm8=") }, code: 401, subcode: 22},
			{name: "malformed json", path: "projects.create", body: `{"name": `, code: 400, subcode: 0},
			{name: "array body", path: "projects.create", body: `[1,2]`, code: 400, subcode: 12},
			{name: "scalar body", path: "projects.create", body: `"x"`, code: 400, subcode: 12},
			{name: "wrong field type", path: "projects.create", body: `{"name": 5}`, code: 400, subcode: 12, check: func(t *testing.T, r *testenv.Response) {
				if !strings.Contains(r.Msg(), "name") {
					t.Fatalf("message does not name the field: %s", r.Msg())
				}
			}},
			{name: "missing required field", path: "projects.create", body: `{}`, code: 400, subcode: 12, check: func(t *testing.T, r *testenv.Response) {
				if !strings.Contains(r.Msg(), "name") {
					t.Fatalf("message does not name the field: %s", r.Msg())
				}
			}},
			{name: "unknown fields ignored", path: "projects.get_all", body: `{"method": "get", "whatever": [1]}`, code: 200},
			{name: "empty body", path: "projects.get_all", body: ``, code: 200},
			{name: "null body", path: "projects.get_all", body: `null`, code: 200},
			{name: "NaN accepted", path: "debug.ping", body: `{"v": NaN, "w": -Infinity}`, code: 200, check: func(t *testing.T, r *testenv.Response) {
				if !strings.Contains(string(r.Raw), `"v":NaN`) || !strings.Contains(string(r.Raw), `"w":-Infinity`) {
					t.Fatalf("non-finite numbers not echoed: %s", r.Raw)
				}
			}},
			{name: "negative page", path: "projects.get_all", body: `{"page": -1}`, code: 400, subcode: 12},
			{name: "zero page size", path: "projects.get_all", body: `{"page_size": 0}`, code: 400, subcode: 12},
			{name: "page with null size", path: "projects.get_all", body: `{"page": 1, "page_size": null}`, code: 400, subcode: 11},
			{name: "scroll without size", path: "projects.get_all", body: `{"scroll_id": null}`, code: 400, subcode: 12},
			{name: "bad regex", path: "projects.get_all", body: `{"name": "a("}`, code: 400, subcode: 21},
			{name: "unknown only_fields", path: "projects.get_all", body: `{"only_fields": ["nope"]}`, code: 400, subcode: 14},
			{name: "unknown order_by", path: "projects.get_all", body: `{"order_by": ["-nope"]}`, code: 400, subcode: 14},
			{name: "text score without search", path: "projects.get_all", body: `{"order_by": ["@text_score"]}`, code: 400, subcode: 16},
			{name: "unknown list operator", path: "projects.get_all", body: `{"tags": ["__$foo", "a"]}`, code: 400, subcode: 16},
			{name: "bad filters", path: "projects.get_all_ex", body: `{"filters": {"tags": {"bogus": 1}}}`, code: 400, subcode: 12},
			{name: "unknown project id", path: "projects.get_by_id", body: `{"project": "nope"}`, code: 400, subcode: 401},
			{name: "query string merged", path: "debug.ping?a.b=3&c=true&d=x&e[]=1", code: 200, check: func(t *testing.T, r *testenv.Response) {
				if testenv.Get(r.Data, "a.b") != 3.0 || r.Data["c"] != true || r.Data["d"] != "x" || len(r.List("e")) != 1 {
					t.Fatalf("query not merged: %s", r.Raw)
				}
			}},
			{name: "json lines to plain endpoint is one item", path: "debug.ping", body: "{\"a\":1}\n{\"b\":2}", hdr: func(h http.Header) { h.Set("Content-Type", "application/json-lines") }, code: 200},
			{name: "users.get_current_user", path: "users.get_current_user", code: 200, check: func(t *testing.T, r *testenv.Response) {
				if r.Str("user.company.id") != "d1bd92a3b039400cbafc60a7a5b1e52b" || r.Str("user.role") != "admin" {
					t.Fatalf("bad current user %s", r.Raw)
				}
			}},
			{name: "server.info", path: "server.info", code: 200, check: func(t *testing.T, r *testenv.Response) {
				if r.Str("api_version") != "2.34" {
					t.Fatalf("bad info %s", r.Raw)
				}
			}},
			{name: "server.info needs credentials", path: "server.info", noAuth: true, code: 401, subcode: 20},
			{name: "supported modes", path: "login.supported_modes", noAuth: true, code: 200, check: func(t *testing.T, r *testenv.Response) {
				if r.Data["authenticated"] != false || r.Data["sso"] == nil {
					t.Fatalf("bad modes %s", r.Raw)
				}
			}},
			{name: "user companies", path: "organization.get_user_companies", code: 200, check: func(t *testing.T, r *testenv.Response) {
				if r.Str("companies.0.name") != "clearml" {
					t.Fatalf("bad companies %s", r.Raw)
				}
			}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				r := e.Do(t, tc.path, tc.body, func(h http.Header) {
					if !tc.noAuth {
						h.Set("Authorization", "Bearer "+e.Token)
					}
					if tc.hdr != nil {
						tc.hdr(h)
					}
				})
				if tc.code == 200 {
					r.OK(t)
					if r.Meta["result_msg"] != "OK" || r.Meta["error_stack"] != "" || r.Meta["id"] == "" || r.Meta["trx"] != r.Meta["id"] {
						t.Fatalf("bad success meta: %s", r.Raw)
					}
				} else {
					r.Err(t, tc.code, tc.subcode)
					if len(r.Data) != 0 {
						t.Fatalf("error data must be {}: %s", r.Raw)
					}
				}
				if tc.check != nil {
					tc.check(t, r)
				}
			})
		}
	})
}

func TestAuthTokens(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		// Expiry from the query string, and the cookie.
		r := e.Do(t, "auth.login?expiration_sec=100", nil, func(h http.Header) {
			h.Set("Authorization", "Bearer "+e.Token)
		}).OK(t)
		tok := r.Str("token")
		if tok == "" || !strings.Contains(r.Header.Get("Set-Cookie"), "clearml_token_basic=") {
			t.Fatalf("no token or cookie: %s %v", r.Raw, r.Header)
		}
		e.Do(t, "auth.login?expiration_sec=99999999999", nil, func(h http.Header) {
			h.Set("Authorization", "Bearer "+e.Token)
		}).Err(t, 400, 12)
		// The cookie alone authenticates.
		e.Do(t, "projects.get_all", nil, func(h http.Header) {
			h.Set("Cookie", "clearml_token_basic="+tok)
		}).OK(t)
		// Logout revokes (login.logout and auth.logout alike).
		e.CallAs(t, tok, "login.logout", nil).OK(t)
		e.CallAs(t, tok, "projects.get_all", nil).Err(t, 401, 30)
		tok2 := e.Login(t, testenv.AdminKey, testenv.AdminSecret)
		e.CallAs(t, tok2, "auth.logout", nil).OK(t)
		e.CallAs(t, tok2, "projects.get_all", nil).Err(t, 401, 30)
		// login.logout without credentials still answers.
		e.CallAs(t, "", "login.logout", nil).OK(t)
		// Basic works on any endpoint.
		e.Do(t, "projects.get_all", nil, func(h http.Header) {
			h.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(testenv.AdminKey+":"+testenv.AdminSecret)))
		}).OK(t)
	})
}

func TestClientConnectionsClose(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		r := e.Do(t, "debug.ping", nil, func(h http.Header) { h.Set("X-ClearML-Client", "clearml-1.0") })
		if !r.Close {
			t.Fatalf("SDK calls must not keep alive: %v", r.Header)
		}
	})
}

func TestGzipWhenAccepted(t *testing.T) {
	e := testenv.New(t, "sqlite")
	body := `{"pad":"` + strings.Repeat("abcdefgh", 1000) + `"}`
	req, _ := http.NewRequest(http.MethodPost, e.URL+"/debug.ping", strings.NewReader(body))
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("large reply not compressed: %v", resp.Header)
	}
	zr, err := gzip.NewReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(zr)
	if !strings.Contains(string(out), `"msg":"ClearML server"`) {
		t.Fatalf("bad body %.200s", out)
	}
}
