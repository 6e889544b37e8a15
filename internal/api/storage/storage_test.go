package storage_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/testenv"
)

type obj = map[string]any

var otherCompany = auth.FixedUser{ID: "other-user", Name: "other", AccessKey: "OTHERKEY0000000000000000000", SecretKey: "other-secret-00000000000000000000000", Role: auth.RoleAdmin, Company: "other-company"}

func asJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// The storage settings start empty; set_settings replaces whole sections,
// get_settings returns them (secrets included, to the company) and
// reset_settings drops sections.
func TestStorageSettings(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		t0 := time.Date(2025, 7, 1, 9, 0, 0, 0, time.UTC)
		e.App.Deps.Now = func() time.Time { return t0 }
		r := e.Call(t, "storage.get_settings", nil).OK(t)
		empty := `{"aws":{"key":"","secret":"","token":"","region":"","use_credentials_chain":false,"buckets":[]},"azure":{"containers":[]},"google":{"project":"","credentials_json":"","buckets":[]},"last_update":null}`
		if got := asJSON(r.Data["settings"]); got != asJSON(mustMap(empty)) {
			t.Fatalf("empty settings: %s", got)
		}
		aws := obj{"key": "AK", "secret": "SK", "region": "eu", "buckets": []obj{{"bucket": "b1", "host": "minio:9000", "secure": false}}}
		if r = e.Call(t, "storage.set_settings", obj{"aws": aws}).OK(t); r.Num("updated") != 1 {
			t.Fatalf("set: %s", r.Raw)
		}
		e.Call(t, "storage.set_settings", obj{"google": obj{"project": "p", "credentials_json": `{"type":"service_account"}`},
			"azure": obj{"containers": []obj{{"account_name": "acc", "account_key": "key", "container_name": "c"}}}}).OK(t)
		r = e.Call(t, "storage.get_settings", nil).OK(t)
		s := &testenv.Response{Data: r.Data["settings"].(map[string]any)}
		if s.Str("aws.key") != "AK" || s.Str("aws.secret") != "SK" || s.Str("aws.buckets.0.bucket") != "b1" ||
			s.Data["aws"].(map[string]any)["buckets"].([]any)[0].(map[string]any)["secure"] != false ||
			s.Data["aws"].(map[string]any)["buckets"].([]any)[0].(map[string]any)["multipart"] != true {
			t.Fatalf("aws: %s", r.Raw)
		}
		if s.Str("google.project") != "p" || s.Str("azure.containers.0.account_name") != "acc" || s.Str("last_update") != "2025-07-01T09:00:00+00:00" {
			t.Fatalf("google and azure: %s", r.Raw)
		}
		if r = e.Call(t, "storage.reset_settings", obj{"keys": []string{"aws", "azure"}}).OK(t); r.Num("updated") != 1 {
			t.Fatalf("reset: %s", r.Raw)
		}
		s = &testenv.Response{Data: e.Call(t, "storage.get_settings", nil).OK(t).Data["settings"].(map[string]any)}
		if s.Str("aws.key") != "" || len(s.List("azure.containers")) != 0 || s.Str("google.project") != "p" {
			t.Fatalf("after reset: %v", s.Data)
		}
		// Another company has its own (none), and resetting them changes nothing.
		other := e.Login(t, otherCompany.AccessKey, otherCompany.SecretKey)
		s = &testenv.Response{Data: e.CallAs(t, other, "storage.get_settings", nil).OK(t).Data["settings"].(map[string]any)}
		if s.Str("google.project") != "" || s.Data["last_update"] != nil {
			t.Fatalf("other company: %v", s.Data)
		}
		if r = e.CallAs(t, other, "storage.reset_settings", obj{"keys": []string{"google"}}).OK(t); r.Num("updated") != 0 {
			t.Fatalf("other reset: %s", r.Raw)
		}
	}, testenv.WithUsers(otherCompany))
}

func mustMap(s string) map[string]any {
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		panic(err)
	}
	return m
}

// Bad input is refused with a 400 naming the field, and writes nothing.
func TestStorageSettingsBadInput(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		cases := []struct {
			name, op string
			body     obj
			field    string
		}{
			{"nothing to set", "storage.set_settings", obj{}, "aws"},
			{"google credentials not JSON", "storage.set_settings", obj{"google": obj{"credentials_json": "{nope"}}, "google.credentials_json"},
			{"bucket credentials not JSON", "storage.set_settings", obj{"google": obj{"buckets": []obj{{"bucket": "b", "credentials_json": "x"}}}}, "google.buckets.0.credentials_json"},
			{"azure container without key", "storage.set_settings", obj{"azure": obj{"containers": []obj{{"account_name": "a"}}}}, "azure.containers.0.account_key"},
			{"aws not an object", "storage.set_settings", obj{"aws": "x"}, "aws"},
			{"secure not a flag", "storage.set_settings", obj{"aws": obj{"buckets": []obj{{"secure": "yes"}}}}, "secure"},
			{"unknown reset key", "storage.reset_settings", obj{"keys": []string{"dropbox"}}, "keys"},
		}
		for _, c := range cases {
			if r := e.Call(t, c.op, c.body).Err(t, 400, 12); !strings.Contains(r.Msg(), c.field) {
				t.Errorf("%s: %q does not name %s", c.name, r.Msg(), c.field)
			}
		}
		if r := e.Call(t, "storage.get_settings", nil).OK(t); testenv.Get(r.Data, "settings.last_update") != nil {
			t.Fatalf("refused calls wrote: %s", r.Raw)
		}
		e.Call(t, "v2.21/storage.get_settings", nil).Err(t, 404, 0)
	})
}

var (
	storageGuest     = auth.FixedUser{ID: "storage-guest", Name: "guest", AccessKey: "STORAGEGUESTKEY000000000000", SecretKey: "storage-guest-secret-000000000000000000", Role: auth.RoleGuest}
	storageAnnotator = auth.FixedUser{ID: "storage-annotator", Name: "annotator", AccessKey: "STORAGEANNOTATORKEY00000000", SecretKey: "storage-annotator-secret-00000000000000", Role: auth.RoleAnnotator}
	storageUser      = auth.FixedUser{ID: "storage-user", Name: "user", AccessKey: "STORAGEUSERKEY0000000000000", SecretKey: "storage-user-secret-0000000000000000000", Role: auth.RoleUser}
)

// get_settings never hands a guest or an annotator a credential: the raw
// answer holds none of the stored secrets, yet keeps the shape the web app
// parses (buckets, hosts, accounts). The roles that write get them whole.
func TestStorageSecretsHiddenFromReadOnlyRoles(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		secrets := []string{"AKIA-TOP-SECRET-KEY", "top-secret-s3-secret", "top-secret-session-token", "AKIA-BUCKET-SECRET-KEY",
			"bucket-secret-s3-secret", "bucket-secret-session-token", "google-private-key-secret", "google-bucket-private-key-secret", "azure-account-key-secret"}
		e.Call(t, "storage.set_settings", obj{
			"aws": obj{"key": secrets[0], "secret": secrets[1], "token": secrets[2], "region": "eu-west-1",
				"buckets": []obj{{"bucket": "debug-samples", "host": "minio:9000", "key": secrets[3], "secret": secrets[4], "token": secrets[5]}}},
			"google": obj{"project": "gproj", "credentials_json": `{"private_key":"` + secrets[6] + `"}`,
				"buckets": []obj{{"bucket": "gbucket", "credentials_json": `{"private_key":"` + secrets[7] + `"}`}}},
			"azure": obj{"containers": []obj{{"account_name": "acct", "account_key": secrets[8], "container_name": "cont"}}},
		}).OK(t)
		cases := []struct {
			user  auth.FixedUser
			token string
			sees  bool
		}{
			{user: storageGuest}, {user: storageAnnotator},
			{user: storageUser, sees: true}, {user: auth.FixedUser{Name: "admin", Role: auth.RoleAdmin}, token: e.Token, sees: true},
		}
		for _, c := range cases {
			t.Run(c.user.Role, func(t *testing.T) {
				tok := c.token
				if tok == "" {
					tok = e.Login(t, c.user.AccessKey, c.user.SecretKey)
				}
				r := e.CallAs(t, tok, "storage.get_settings", nil).OK(t)
				for _, s := range secrets {
					if got := strings.Contains(string(r.Raw), s); got != c.sees {
						t.Errorf("secret %q in the answer: %v, want %v", s, got, c.sees)
					}
				}
				s := &testenv.Response{Data: r.Data["settings"].(map[string]any)}
				if s.Str("aws.buckets.0.bucket") != "debug-samples" || s.Str("aws.buckets.0.host") != "minio:9000" || s.Str("aws.region") != "eu-west-1" ||
					s.Str("google.buckets.0.bucket") != "gbucket" || s.Str("azure.containers.0.account_name") != "acct" || s.Str("last_update") == "" {
					t.Errorf("the settings lost their shape: %s", r.Raw)
				}
				if !c.sees && (s.Str("aws.secret") != "" || s.Str("aws.buckets.0.secret") != "" || s.Str("azure.containers.0.account_key") != "") {
					t.Errorf("credentials not blank: %s", r.Raw)
				}
			})
		}
	}, testenv.WithUsers(storageGuest, storageAnnotator, storageUser))
}
