package users

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// FuzzPreferences feeds arbitrary JSON as a set_preferences change: the
// key check never panics, refuses exactly the changes holding a key that
// starts with '$' or (below the top level) has a '.', a top-level path with
// an empty part or one starting with '$', and an accepted change merges
// into stored preferences that read back as they were written, a dotted
// top-level key at the nested place it names.
func FuzzPreferences(f *testing.F) {
	for _, s := range []string{`{"a":0}`, `{"section":{"a":null}}`, `{"a.b":1}`, `{"$x":1}`, `{"l":[{"k.v":1}]}`, `{"n":12345678901234567890}`, `[]`, `1`} {
		f.Add(`{"keep":true}`, s)
	}
	f.Fuzz(func(t *testing.T, stored, change string) {
		base, err := decodePreferences(stored)
		if err != nil {
			return
		}
		var changes map[string]any
		dec := json.NewDecoder(strings.NewReader(change))
		dec.UseNumber()
		if dec.Decode(&changes) != nil || changes == nil {
			return
		}
		err = CheckPreferenceKeys(changes)
		if (err != nil) != hasBadTopKey(changes) {
			t.Fatalf("check of %s: %v", change, err)
		}
		if err != nil {
			return
		}
		if MergePreferences(base, changes) != nil {
			return
		}
		text, err := json.Marshal(base)
		if err != nil {
			t.Fatal(err)
		}
		back, err := decodePreferences(string(text))
		if err != nil {
			t.Fatal(err)
		}
		again, _ := json.Marshal(back)
		if !bytes.Equal(text, again) {
			t.Fatalf("stored %s read back as %s", text, again)
		}
		for k := range changes {
			want, _ := json.Marshal(changes[k])
			got, _ := json.Marshal(atPath(back, k))
			if !bytes.Equal(want, got) {
				t.Fatalf("key %q: set %s, stored %s", k, want, got)
			}
		}
	})
}

// hasBadTopKey is the rule for the top level: dotted paths of non-empty
// parts not starting with '$', values checked by hasBadKey.
func hasBadTopKey(changes map[string]any) bool {
	for k, c := range changes {
		for _, p := range strings.Split(k, ".") {
			if p == "" || p[0] == '$' {
				return true
			}
		}
		if hasBadKey(c) {
			return true
		}
	}
	return false
}

// atPath reads the value a dotted key names.
func atPath(m map[string]any, key string) any {
	parts := strings.Split(key, ".")
	for _, p := range parts[:len(parts)-1] {
		m, _ = m[p].(map[string]any)
	}
	return m[parts[len(parts)-1]]
}

// hasBadKey is the rule written another way: walk every object key.
func hasBadKey(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			if (len(k) > 0 && k[0] == '$') || strings.ContainsRune(k, '.') || hasBadKey(c) {
				return true
			}
		}
	case []any:
		for _, c := range x {
			if hasBadKey(c) {
				return true
			}
		}
	}
	return false
}
