package system_test

import (
	"testing"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/testenv"
)

// A user of another company.
var eve = auth.FixedUser{ID: "eve-id", Name: "eve", AccessKey: "EVEKEY0000000000000000000000", SecretKey: "eve-secret-000000000000000000000000000000", Company: "other-co"}

func accessKeys(r *testenv.Response) []string {
	out := []string{}
	for _, c := range r.List("credentials") {
		out = append(out, c.(map[string]any)["access_key"].(string))
	}
	return out
}

// The workspace settings page: create a labelled key pair, list keys
// (never secrets), relabel and revoke them; the new pair logs in until
// revoked.
func TestCredentialsLifecycle(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		tok := e.Login(t, bob.AccessKey, bob.SecretKey)
		r := e.CallAs(t, tok, "auth.create_credentials", map[string]any{"label": "laptop"}).OK(t)
		key, secret := r.Str("credentials.access_key"), r.Str("credentials.secret_key")
		if len(key) != 30 || len(secret) != 50 || r.Str("credentials.label") != "laptop" {
			t.Fatalf("created: %s", r.Raw)
		}
		if r := e.CallAs(t, tok, "auth.create_credentials", nil).OK(t); r.Str("credentials.label") != "" || r.Str("credentials.secret_key") == "" {
			t.Fatalf("without label: %s", r.Raw)
		}
		newTok := e.Login(t, key, secret)
		if e.CallAs(t, newTok, "users.get_current_user", nil).OK(t).Str("user.id") != bob.ID {
			t.Fatal("the new key does not log in as bob")
		}

		r = e.CallAs(t, tok, "auth.get_credentials", nil).OK(t)
		if keys := accessKeys(r); len(keys) != 3 || keys[0] != bob.AccessKey {
			t.Fatalf("bob's keys: %s", r.Raw)
		}
		for _, c := range r.List("credentials") {
			m := c.(map[string]any)
			if _, ok := m["secret_key"]; ok {
				t.Fatalf("a secret was listed: %s", r.Raw)
			}
			if m["access_key"] == key && (m["label"] != "laptop" || m["last_used"] == nil || m["last_used_from"] != "127.0.0.1") {
				t.Fatalf("the used key: %s", r.Raw)
			}
		}

		if r := e.CallAs(t, tok, "auth.edit_credentials", map[string]any{"access_key": key, "label": "desk"}).OK(t); r.Num("updated") != 1 {
			t.Fatalf("edit: %s", r.Raw)
		}
		r = e.CallAs(t, tok, "auth.get_credentials", nil).OK(t)
		if testenv.Get(r.Data, "credentials.1.label") != "desk" {
			t.Fatalf("relabelled: %s", r.Raw)
		}

		if r := e.CallAs(t, tok, "auth.revoke_credentials", map[string]any{"access_key": key}).OK(t); r.Num("revoked") != 1 {
			t.Fatalf("revoke: %s", r.Raw)
		}
		e.Do(t, "auth.login", nil, basicAuth(key, secret)).Err(t, 401, 22)
		if keys := accessKeys(e.CallAs(t, tok, "auth.get_credentials", nil).OK(t)); len(keys) != 2 {
			t.Fatalf("after revoke: %v", keys)
		}
	}, testenv.WithUsers(bob))
}

// A user sees and changes only its own keys, also in another company.
func TestCredentialsAreTheCallers(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		bobTok := e.Login(t, bob.AccessKey, bob.SecretKey)
		eveTok := e.Login(t, eve.AccessKey, eve.SecretKey)
		if keys := accessKeys(e.Call(t, "auth.get_credentials", nil).OK(t)); len(keys) != 1 || keys[0] != testenv.AdminKey {
			t.Fatalf("admin's keys: %v", keys)
		}
		if keys := accessKeys(e.CallAs(t, eveTok, "auth.get_credentials", nil).OK(t)); len(keys) != 1 || keys[0] != eve.AccessKey {
			t.Fatalf("eve's keys: %v", keys)
		}
		for _, c := range []struct {
			name, token, op, key string
			code, subcode        int
		}{
			{"relabel another user's key", bobTok, "auth.edit_credentials", testenv.AdminKey, 400, 75},
			{"revoke another user's key", bobTok, "auth.revoke_credentials", testenv.AdminKey, 400, 300},
			{"admin revokes a user's key", e.Token, "auth.revoke_credentials", bob.AccessKey, 400, 300},
			{"revoke a key of another company", eveTok, "auth.revoke_credentials", bob.AccessKey, 400, 300},
			{"relabel an unknown key", bobTok, "auth.edit_credentials", "NOSUCHKEY", 400, 75},
		} {
			t.Run(c.name, func(t *testing.T) {
				e.CallAs(t, c.token, c.op, map[string]any{"access_key": c.key, "label": "x"}).Err(t, c.code, c.subcode)
			})
		}
		// Every key still logs in.
		e.Login(t, testenv.AdminKey, testenv.AdminSecret)
		e.Login(t, bob.AccessKey, bob.SecretKey)
	}, testenv.WithUsers(bob, eve))
}

func TestCredentialsBadInput(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		for _, c := range []struct {
			name, op      string
			body          any
			code, subcode int
		}{
			{"label not a string", "auth.create_credentials", map[string]any{"label": 5}, 400, 12},
			{"edit without access_key", "auth.edit_credentials", map[string]any{"label": "x"}, 400, 12},
			{"edit label not a string", "auth.edit_credentials", map[string]any{"access_key": testenv.AdminKey, "label": []int{1}}, 400, 12},
			{"revoke without access_key", "auth.revoke_credentials", map[string]any{}, 400, 12},
			{"revoke access_key not a string", "auth.revoke_credentials", map[string]any{"access_key": 1}, 400, 12},
		} {
			t.Run(c.name, func(t *testing.T) {
				e.Call(t, c.op, c.body).Err(t, c.code, c.subcode)
			})
		}
		for _, op := range []string{"auth.create_credentials", "auth.get_credentials", "auth.edit_credentials", "auth.revoke_credentials"} {
			e.CallAs(t, "", op, nil).Err(t, 401, 20)
		}
	})
}
