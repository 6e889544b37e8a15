package system_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/testenv"
)

// Seed document 1, login.supported_modes: "basic ({enabled: boolean,
// guest: {enabled: boolean, name: string, password: string, username:
// string}})".
func TestSeedSupportedModesGuestFields(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		r := e.CallAs(t, "", "login.supported_modes", nil).OK(t)
		guest, _ := testenv.Get(r.Data, "basic.guest").(map[string]any)
		if _, ok := guest["enabled"].(bool); !ok {
			t.Fatalf("guest.enabled: %s", r.Raw)
		}
		for _, k := range []string{"name", "password", "username"} {
			if _, ok := guest[k].(string); !ok {
				t.Fatalf("guest.%s must be a string: %s", k, r.Raw)
			}
		}
		if _, ok := testenv.Get(r.Data, "basic.enabled").(bool); !ok {
			t.Fatalf("basic.enabled: %s", r.Raw)
		}
		for _, k := range []string{"es_connection_error", "missed_es_upgrade"} {
			if _, ok := testenv.Get(r.Data, "server_errors."+k).(bool); !ok {
				t.Fatalf("server_errors.%s: %s", k, r.Raw)
			}
		}
		if _, ok := r.Data["authenticated"].(bool); !ok {
			t.Fatalf("authenticated: %s", r.Raw)
		}
	})
}

// jwtClaims reads the claims of a token without checking it.
func jwtClaims(t *testing.T, tok string) map[string]any {
	t.Helper()
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		t.Fatalf("not a JWT: %q", tok)
	}
	b, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	var c map[string]any
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// Seed document 1, authentication: "By default the token expires after 30
// days. A shorter lifetime is requested with expiration_sec (seconds),
// given as a query parameter or in a JSON payload."
func TestSeedTokenLifetime(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		basic := func(h http.Header) {
			h.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(testenv.AdminKey+":"+testenv.AdminSecret)))
		}
		lifetime := func(r *testenv.Response) time.Duration {
			exp, _ := jwtClaims(t, r.OK(t).Str("token"))["exp"].(float64)
			return time.Until(time.Unix(int64(exp), 0))
		}
		if d := lifetime(e.Do(t, "auth.login", nil, basic)); d < 30*24*time.Hour-time.Minute || d > 30*24*time.Hour {
			t.Fatalf("default lifetime %v", d)
		}
		if d := lifetime(e.Do(t, "auth.login", map[string]any{"expiration_sec": 600}, basic)); d < 540*time.Second || d > 600*time.Second {
			t.Fatalf("expiration_sec in the payload: %v", d)
		}
		if d := lifetime(e.Do(t, "auth.login?expiration_sec=600", nil, basic)); d < 540*time.Second || d > 600*time.Second {
			t.Fatalf("expiration_sec in the query: %v", d)
		}
	})
}

// Seed document 1, organization.get_tags: "tags used by company tasks and
// models"; "filter (...; the value null means empty tags and the value
// __Snot means the next value is excluded), include_system (boolean,
// default false)"; "system_tags (string[], only when include_system is
// true)".
func TestSeedOrganizationGetTags(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		e.Call(t, "tasks.create", map[string]any{"name": "tagged", "type": "training", "tags": []string{"t-plain"}}).OK(t)
		e.Call(t, "tasks.create", map[string]any{"name": "system", "type": "training", "tags": []string{"t-sys"}, "system_tags": []string{"s1"}}).OK(t)
		e.Call(t, "models.create", map[string]any{"name": "model", "uri": "file:///m", "tags": []string{"m-tag"}}).OK(t)
		r := e.Call(t, "organization.get_tags", nil).OK(t)
		if _, ok := r.Data["system_tags"]; ok || asJSON(r.List("tags")) != `["m-tag","t-plain","t-sys"]` {
			t.Fatalf("default: %s", r.Raw)
		}
		r = e.Call(t, "organization.get_tags", map[string]any{"include_system": true}).OK(t)
		if asJSON(r.List("system_tags")) != `["s1"]` {
			t.Fatalf("include_system: %s", r.Raw)
		}
		for _, op := range []string{"__Snot", "__$not"} {
			r = e.Call(t, "organization.get_tags", map[string]any{"filter": map[string]any{"system_tags": []string{op, "s1"}}}).OK(t)
			if asJSON(r.List("tags")) != `["m-tag","t-plain"]` {
				t.Fatalf("filter %s: %s", op, r.Raw)
			}
		}
		r = e.Call(t, "organization.get_tags", map[string]any{"filter": map[string]any{"system_tags": []any{nil}}}).OK(t)
		if asJSON(r.List("tags")) != `["m-tag","t-plain"]` {
			t.Fatalf("filter null (empty system tags): %s", r.Raw)
		}
	})
}

// Seed document 1, organization.get_user_companies: "companies (array of
// Company; the first is the user's own company)"; Company: "id (string),
// name (string), allocated (integer, number of users allocated), owners
// (array of {id: string, name: string, avatar: string ...})".
func TestSeedUserCompanies(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		own := e.Call(t, "tasks.create", map[string]any{"name": "probe", "type": "training"}).OK(t).Str("id")
		company := e.Call(t, "tasks.get_by_id", map[string]any{"task": own}).OK(t).Str("task.company")
		r := e.Call(t, "organization.get_user_companies", nil).OK(t)
		first, _ := testenv.Get(r.Data, "companies.0").(map[string]any)
		if first["id"] != company {
			t.Fatalf("first company must be the user's own (%s): %s", company, r.Raw)
		}
		if _, ok := first["name"].(string); !ok {
			t.Fatalf("name: %s", r.Raw)
		}
		if n, ok := first["allocated"].(float64); !ok || n < 1 {
			t.Fatalf("allocated: %s", r.Raw)
		}
		owners, ok := first["owners"].([]any)
		if !ok {
			t.Fatalf("owners: %s", r.Raw)
		}
		for _, o := range owners {
			for _, k := range []string{"id", "name", "avatar"} {
				if _, ok := o.(map[string]any)[k].(string); !ok {
					t.Fatalf("owner.%s: %s", k, r.Raw)
				}
			}
		}
	})
}

func asJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
