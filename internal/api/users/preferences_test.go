package users_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// The reference's test_no_preferences, test_nested_update and test_delete:
// a new user has {}; each top-level key sent replaces the stored one and
// the others stay.
func TestPreferencesMerge(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		tok := e.Login(t, alice.AccessKey, alice.SecretKey)
		if r := e.CallAs(t, tok, "users.get_preferences", nil).OK(t); asJSON(r.Data["preferences"]) != `{}` {
			t.Fatalf("no preferences: %s", r.Raw)
		}
		steps := []struct {
			set     string
			want    string
			updated float64
		}{
			{`{"a": 0}`, `{"a":0}`, 1},
			{`{"b": 1}`, `{"a":0,"b":1}`, 1},
			{`{"section": {"a": 2}}`, `{"a":0,"b":1,"section":{"a":2}}`, 1},
			{`{"section": {"a": 0, "b": 1}}`, `{"a":0,"b":1,"section":{"a":0,"b":1}}`, 1},
			{`{"section": {"a": null}}`, `{"a":0,"b":1,"section":{"a":null}}`, 1},
			{`{"section": null}`, `{"a":0,"b":1,"section":null}`, 1},
			{`{"section": null}`, `{"a":0,"b":1,"section":null}`, 0},
			{`{"big": 12345678901234567890, "list": [{"x": 1}, "y"]}`, `{"a":0,"b":1,"big":12345678901234567890,"list":[{"x":1},"y"],"section":null}`, 1},
		}
		for _, s := range steps {
			r := e.CallAs(t, tok, "users.set_preferences", `{"user": "alice-id", "preferences": `+s.set+`}`).OK(t)
			if r.Num("updated") != s.updated {
				t.Fatalf("set %s: %s", s.set, r.Raw)
			}
			if s.updated == 1 && !bytes.Contains(r.Raw, []byte(`"preferences":`+s.want)) {
				t.Fatalf("set %s answered %s", s.set, r.Raw)
			}
			got := e.CallAs(t, tok, "users.get_preferences", nil).OK(t)
			if g := string(mustRaw(t, got.Raw)); g != s.want {
				t.Fatalf("after %s: got %s, want %s", s.set, g, s.want)
			}
		}
	}, withUsers())
}

// mustRaw extracts data.preferences from an answer as written, so big
// numbers are compared exactly.
func mustRaw(t *testing.T, raw []byte) []byte {
	t.Helper()
	var env struct {
		Data struct {
			Preferences json.RawMessage `json:"preferences"`
		} `json:"data"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := json.Compact(&out, env.Data.Preferences); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// Preferences belong to the caller: another user, even one naming alice
// in "user", reads and changes only its own.
func TestPreferencesArePerUser(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		aliceTok := e.Login(t, alice.AccessKey, alice.SecretKey)
		bobTok := e.Login(t, bob.AccessKey, bob.SecretKey)
		eveTok := e.Login(t, eve.AccessKey, eve.SecretKey)
		e.CallAs(t, aliceTok, "users.set_preferences", map[string]any{"preferences": map[string]any{"theme": "dark"}}).OK(t)
		e.CallAs(t, bobTok, "users.set_preferences", map[string]any{"user": "alice-id", "preferences": map[string]any{"theme": "light"}}).OK(t)
		for _, c := range []struct {
			tok, want string
		}{{aliceTok, `{"theme":"dark"}`}, {bobTok, `{"theme":"light"}`}, {eveTok, `{}`}} {
			r := e.CallAs(t, c.tok, "users.get_preferences", map[string]any{"user": "alice-id"}).OK(t)
			if asJSON(r.Data["preferences"]) != c.want {
				t.Fatalf("want %s, got %s", c.want, r.Raw)
			}
		}
	}, withUsers())
}

func TestSetPreferencesBadInput(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		tok := e.Login(t, alice.AccessKey, alice.SecretKey)
		for _, c := range []struct {
			name          string
			body          string
			code, subcode int
		}{
			{"missing preferences", `{}`, 400, 12},
			{"preferences null", `{"preferences": null}`, 400, 12},
			{"preferences not an object", `{"preferences": [1]}`, 400, 12},
			{"preferences a string", `{"preferences": "x"}`, 400, 12},
			{"dotted path with an empty part", `{"preferences": {"a..b": 1}}`, 400, 16},
			{"dotted path ending in a dot", `{"preferences": {"a.": 1}}`, 400, 16},
			{"dotted path with a dollar part", `{"preferences": {"a.$b": 1}}`, 400, 16},
			{"return_updated not a boolean", `{"preferences": {"a": 1}, "return_updated": "no"}`, 400, 12},
			{"dollar key", `{"preferences": {"$set": 1}}`, 400, 16},
			{"nested dotted key", `{"preferences": {"a": {"b": {"c.d": 1}}}}`, 400, 16},
			{"dotted key inside a list", `{"preferences": {"a": [{"c.d": 1}]}}`, 400, 16},
			{"malformed JSON", `{"preferences": {`, 400, 0},
		} {
			t.Run(c.name, func(t *testing.T) {
				e.CallAs(t, tok, "users.set_preferences", c.body).Err(t, c.code, c.subcode)
			})
		}
		// Nothing was stored by the refused calls.
		if r := e.CallAs(t, tok, "users.get_preferences", nil).OK(t); asJSON(r.Data["preferences"]) != `{}` {
			t.Fatalf("after refused calls: %s", r.Raw)
		}
	}, withUsers())
}

// TestPreferencesDottedPaths is the reference's v2.3.0 test_nested_update:
// a top-level key with dots sets the nested value it names, creating the
// objects on the way and keeping their other keys; a path through a value
// that is not an object is refused (400/305) and stores nothing.
func TestPreferencesDottedPaths(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		tok := e.Login(t, alice.AccessKey, alice.SecretKey)
		steps := []struct{ set, want string }{
			{`{"a": 0}`, `{"a":0}`},
			{`{"b": 1}`, `{"a":0,"b":1}`},
			{`{"section.a": 2}`, `{"a":0,"b":1,"section":{"a":2}}`},
			{`{"section.b.c": "x"}`, `{"a":0,"b":1,"section":{"a":2,"b":{"c":"x"}}}`},
			{`{"section.a": null}`, `{"a":0,"b":1,"section":{"a":null,"b":{"c":"x"}}}`},
		}
		for _, s := range steps {
			e.CallAs(t, tok, "users.set_preferences", `{"preferences": `+s.set+`}`).OK(t)
			got := e.CallAs(t, tok, "users.get_preferences", nil).OK(t)
			if g := string(mustRaw(t, got.Raw)); g != s.want {
				t.Fatalf("after %s: got %s, want %s", s.set, g, s.want)
			}
		}
		e.CallAs(t, tok, "users.set_preferences", `{"preferences": {"a.x": 1}}`).Err(t, 400, 305)
		got := e.CallAs(t, tok, "users.get_preferences", nil).OK(t)
		if g := string(mustRaw(t, got.Raw)); g != steps[len(steps)-1].want {
			t.Fatalf("refused path stored: %s", g)
		}
	}, withUsers())
}

// TestPreferencesReturnUpdated covers return_updated (2.33): true or absent
// answers the new preferences in fields, false answers empty fields; the
// update happens either way.
func TestPreferencesReturnUpdated(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		tok := e.Login(t, alice.AccessKey, alice.SecretKey)
		for _, c := range []struct {
			name, body, fields string
		}{
			{"absent", `{"preferences": {"a": 1}}`, `{"preferences":{"a":1}}`},
			{"true", `{"preferences": {"a": 2}, "return_updated": true}`, `{"preferences":{"a":2}}`},
			{"false", `{"preferences": {"a": 3}, "return_updated": false}`, `{}`},
		} {
			t.Run(c.name, func(t *testing.T) {
				r := e.CallAs(t, tok, "users.set_preferences", c.body).OK(t)
				if r.Num("updated") != 1 || asJSON(r.Data["fields"]) != c.fields {
					t.Fatalf("answer %s", r.Raw)
				}
			})
		}
		if r := e.CallAs(t, tok, "users.get_preferences", nil).OK(t); asJSON(r.Data["preferences"]) != `{"a":3}` {
			t.Fatalf("stored %s", r.Raw)
		}
	}, withUsers())
}
