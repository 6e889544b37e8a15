package security

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"mime/multipart"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/config"
	"github.com/trove-ml/trove/internal/httpx"
	"github.com/trove-ml/trove/internal/testenv"
)

// allowedOrigin is the --cors-origins of the cross-site tests.
const allowedOrigin = "https://ui.allowed.example"

func withCORS(origins ...string) testenv.Option {
	return func(c *config.Config) { c.CORSOrigins = origins }
}

// origins are the Origin / Sec-Fetch-Site variants of a request; ok says
// whether the gate lets a cookie-only change through.
func originCases(own string) []struct {
	name string
	hdr  map[string]string
	ok   bool
} {
	return []struct {
		name string
		hdr  map[string]string
		ok   bool
	}{
		{"same origin", map[string]string{"Origin": own}, true},
		{"allowed origin", map[string]string{"Origin": allowedOrigin}, true},
		{"foreign origin", map[string]string{"Origin": "https://evil.example"}, false},
		{"null origin", map[string]string{"Origin": "null"}, false},
		{"no origin", map[string]string{}, false},
		{"fetch same-origin", map[string]string{"Sec-Fetch-Site": "same-origin"}, true},
		{"fetch same-site", map[string]string{"Sec-Fetch-Site": "same-site"}, false},
		{"fetch cross-site", map[string]string{"Sec-Fetch-Site": "cross-site"}, false},
		{"fetch cross-site with foreign origin", map[string]string{"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"}, false},
	}
}

func originOf(u string) string {
	p, _ := url.Parse(u)
	return p.Scheme + "://" + p.Host
}

// body is a projects.create request naming name in the given content type.
func body(ctype, name string) (string, string) {
	switch ctype {
	case "form":
		return "application/x-www-form-urlencoded", "name=" + name
	case "multipart":
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		_ = mw.WriteField("name", name)
		_ = mw.Close()
		return mw.FormDataContentType(), buf.String()
	case "json-lines":
		return "application/json-lines", fmt.Sprintf(`{"name":%q}`, name)
	case "json-charset":
		return "application/json; charset=utf-8", fmt.Sprintf(`{"name":%q}`, name)
	case "text":
		return "text/plain", fmt.Sprintf(`{"name":%q}`, name)
	}
	return "application/json", fmt.Sprintf(`{"name":%q}`, name)
}

// projectExists says whether a project of this name was created.
func projectExists(t *testing.T, e *testenv.Env, name string) bool {
	t.Helper()
	r := e.Call(t, "projects.get_all", map[string]any{"name": "^" + name + "$", "only_fields": []string{"id"}}).OK(t)
	return len(r.List("projects")) > 0
}

// TestCrossSiteMatrix sends a change (projects.create) in every method x
// content type x origin x credentials: with the session cookie alone only
// a JSON POST from an allowed origin acts, the rest get 403/90 and change
// nothing; with a Bearer token or Basic key pair every call goes through
// the gate untouched (the SDK sends GET with a JSON body). Attacks: "every
// operation answers GET with only the cookie", "any content type is
// accepted".
func TestCrossSiteMatrix(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		own := originOf(e.URL)
		creds := map[string]map[string]string{
			"cookie": {"Cookie": httpx.SessionCookie + "=" + e.Token},
			"bearer": {"Authorization": "Bearer " + e.Token},
			"basic":  {"Authorization": "Basic " + base64.StdEncoding.EncodeToString([]byte(testenv.AdminKey+":"+testenv.AdminSecret))},
		}
		n := 0
		for _, method := range []string{"GET", "POST", "PUT"} {
			for _, ct := range []string{"json", "json-charset", "json-lines", "text", "form", "multipart"} {
				for _, oc := range originCases(own) {
					for _, cred := range []string{"cookie", "bearer", "basic"} {
						n++
						name := fmt.Sprintf("csrf-%d", n)
						ctype, b := body(ct, name)
						hdr := map[string]string{"Content-Type": ctype}
						for k, v := range oc.hdr {
							hdr[k] = v
						}
						for k, v := range creds[cred] {
							hdr[k] = v
						}
						r := send(t, method, e.URL+"/projects.create", b, hdr)
						what := fmt.Sprintf("%s %s %s %s", method, ct, oc.name, cred)
						// projects.create reads one JSON object: a JSON-lines
						// body reaches it (the gate let it through) and is
						// refused there for its missing name.
						acts := ct != "form" && ct != "multipart" && ct != "json-lines"
						passed := func() bool {
							if ct == "json-lines" {
								return r.Status == 400 && r.Subcode == 12 && strings.Contains(r.Msg, "name")
							}
							return r.Status == 200 && projectExists(t, e, name)
						}
						switch {
						case cred != "cookie":
							if r.isCrossSite() || r.Status >= 500 {
								t.Errorf("%s: %s", what, r)
							}
							if (acts || ct == "json-lines") && !passed() {
								t.Errorf("%s: a call with an Authorization header must act: %s", what, r)
							}
						case method == "POST" && (ct == "json" || ct == "json-charset" || ct == "json-lines") && oc.ok:
							if !passed() {
								t.Errorf("%s: an allowed cookie call must act: %s", what, r)
							}
						default:
							if !r.isCrossSite() || !strings.Contains(r.Msg, "session cookie") {
								t.Errorf("%s: want 403/90 naming what is missing, got %s", what, r)
							}
							if projectExists(t, e, name) {
								t.Errorf("%s: refused, yet the project was created", what)
							}
						}
					}
				}
			}
		}
	}, withCORS(allowedOrigin))
}

// TestCrossSiteQueryString: a link or form naming the request in the query
// string (GET /auth.edit_user?user=X&role=admin) with the admin's cookie
// is refused and changes no role; reads by cookie stay GET (the web app
// downloads logs and CSVs that way); the refusal names what is missing.
func TestCrossSiteQueryString(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		guest := userOf(auth.RoleGuest)
		cookie := map[string]string{"Cookie": httpx.SessionCookie + "=" + e.Token}
		for _, c := range []struct {
			method, ctype, why string
			hdr                map[string]string
		}{
			{"GET", "", "must be a POST", nil},
			{"GET", "", "must be a POST", map[string]string{"Sec-Fetch-Site": "same-origin"}},
			{"POST", "application/x-www-form-urlencoded", "Content-Type", map[string]string{"Origin": "https://evil.example"}},
			{"POST", "application/json", "allowed origin", map[string]string{"Origin": "https://evil.example"}},
		} {
			hdr := map[string]string{"Cookie": cookie["Cookie"]}
			if c.ctype != "" {
				hdr["Content-Type"] = c.ctype
			}
			for k, v := range c.hdr {
				hdr[k] = v
			}
			r := send(t, c.method, e.URL+"/auth.edit_user?user="+guest.ID+"&role=admin", "", hdr)
			if !r.isCrossSite() || !strings.Contains(r.Msg, c.why) {
				t.Errorf("%s %s %v: want 403/90 saying %q, got %s", c.method, c.ctype, c.hdr, c.why, r)
			}
		}
		me := e.CallAs(t, login(t, e, guest), "users.get_current_user", nil).OK(t)
		if me.Str("user.role") != auth.RoleGuest {
			t.Fatalf("the guest became %s", me.Str("user.role"))
		}
		// The settings a query string would set are refused the same way
		// when the operation decides by its body (report_stats_option).
		if r := send(t, "GET", e.URL+"/server.report_stats_option?enabled=true", "", cookie); !r.isCrossSite() {
			t.Errorf("report_stats_option set by a cookie GET: %s", r)
		}
		if r := send(t, "GET", e.URL+"/server.report_stats_option", "", cookie); r.Status != 200 || r.Data["enabled"] != false {
			t.Errorf("report_stats_option read by a cookie GET: %s", r)
		}
		// Reads by cookie stay GET.
		if r := send(t, "GET", e.URL+"/projects.get_all", "", cookie); r.Status != 200 {
			t.Errorf("a read by cookie GET: %s", r)
		}
		// A bearer GET with a JSON body is the SDK's way of changing.
		hdr := bearer(e.Token)
		if r := send(t, "GET", e.URL+"/projects.create", `{"name":"by the sdk"}`, hdr); r.Status != 200 {
			t.Errorf("the SDK's GET: %s", r)
		}
	}, testenv.WithUsers(userOf(auth.RoleGuest)))
}

// TestCrossSiteFilesPort: an upload or delete carrying only the cookie
// must come from an allowed origin, on the files port and under /files/
// of the web address; any body type is fine there. Downloads by cookie
// stay open; a Bearer token needs no origin.
func TestCrossSiteFilesPort(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		files := httptest.NewServer(e.App.FilesHandler)
		t.Cleanup(files.Close)
		web := httptest.NewServer(e.App.WebHandler)
		t.Cleanup(web.Close)
		cookie := httpx.SessionCookie + "=" + e.Token
		for _, port := range []struct{ name, base string }{{"files port", files.URL}, {"web address", web.URL + "/files"}} {
			for i, oc := range originCases(originOf(port.base)) {
				path := fmt.Sprintf("sec/%s/f%d.txt", strings.ReplaceAll(port.name, " ", "-"), i)
				up := func(hdr map[string]string) *reply {
					var buf bytes.Buffer
					mw := multipart.NewWriter(&buf)
					w, _ := mw.CreateFormFile(path, path)
					_, _ = w.Write([]byte("payload"))
					_ = mw.Close()
					h := map[string]string{"Content-Type": mw.FormDataContentType()}
					for k, v := range hdr {
						h[k] = v
					}
					return send(t, "POST", port.base+"/", buf.String(), h)
				}
				get := func() int {
					return send(t, "GET", port.base+"/"+path, "", map[string]string{"Authorization": "Bearer " + e.Token}).Status
				}
				hdr := map[string]string{"Cookie": cookie}
				for k, v := range oc.hdr {
					hdr[k] = v
				}
				what := port.name + " " + oc.name
				r := up(hdr)
				if oc.ok != (r.Status == 200) || (!oc.ok && (r.Status != 403 || !strings.Contains(r.Raw, "session cookie"))) {
					t.Errorf("%s: cookie upload: %s", what, r)
				}
				if stored := get() == 200; stored != oc.ok {
					t.Errorf("%s: stored %v after the cookie upload", what, stored)
				}
				if !oc.ok {
					if r := up(map[string]string{"Authorization": "Bearer " + e.Token}); r.Status != 200 {
						t.Fatalf("%s: bearer upload: %s", what, r)
					}
				}
				// Reading by cookie needs no origin.
				if r := send(t, "GET", port.base+"/"+path, "", map[string]string{"Cookie": cookie}); r.Status != 200 {
					t.Errorf("%s: cookie download: %s", what, r)
				}
				r = send(t, "DELETE", port.base+"/"+path, "", hdr)
				if oc.ok != (r.Status == 200) || (!oc.ok && r.Status != 403) {
					t.Errorf("%s: cookie delete: %s", what, r)
				}
				if gone := get() == 404; gone != oc.ok {
					t.Errorf("%s: gone %v after the cookie delete", what, gone)
				}
			}
		}
	}, withCORS(allowedOrigin))
}

// TestCrossSiteWebAddress: the API under /api/ of the web address keeps
// the gate; the web app's own POSTs (same origin) act.
func TestCrossSiteWebAddress(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		web := httptest.NewServer(e.App.WebHandler)
		t.Cleanup(web.Close)
		cookie := httpx.SessionCookie + "=" + e.Token
		ok := send(t, "POST", web.URL+"/api/v2.31/projects.create", `{"name":"from the app"}`,
			map[string]string{"Cookie": cookie, "Content-Type": "application/json", "Origin": web.URL})
		if ok.Status != 200 || !projectExists(t, e, "from the app") {
			t.Fatalf("the web app's own call: %s", ok)
		}
		bad := send(t, "POST", web.URL+"/api/v2.31/projects.create", `{"name":"from evil"}`,
			map[string]string{"Cookie": cookie, "Content-Type": "text/plain", "Origin": "https://evil.example"})
		if !bad.isCrossSite() || projectExists(t, e, "from evil") {
			t.Fatalf("a foreign page through the web address: %s", bad)
		}
		logout := send(t, "GET", web.URL+"/api/auth.logout", "", map[string]string{"Cookie": cookie})
		if !logout.isCrossSite() {
			t.Fatalf("a logout link: %s", logout)
		}
		e.Call(t, "users.get_current_user", nil).OK(t)
	})
}
