package users

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// FuzzPreferences feeds arbitrary JSON as a set_preferences change: the
// key check never panics, refuses exactly the changes holding a key that
// starts with '$' or has a '.', and an accepted change merges into stored
// preferences that read back as they were written.
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
		if (err != nil) != hasBadKey(changes) {
			t.Fatalf("check of %s: %v", change, err)
		}
		if err != nil {
			return
		}
		MergePreferences(base, changes)
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
			got, _ := json.Marshal(back[k])
			if !bytes.Equal(want, got) {
				t.Fatalf("key %q: set %s, stored %s", k, want, got)
			}
		}
	})
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
