package testenv

import (
	"encoding/json"
	"fmt"
	"regexp"
	"testing"
)

// scrollIDs are fresh random ids in every answer, not stored data.
var scrollIDs = regexp.MustCompile(`"scroll_id":"[^"]*"`)

// Answers runs each read (operation, body) and returns the data part of
// every answer, keyed by its position, operation and body, with scroll ids
// masked: two stores holding the same data give equal maps (tests of copy
// and import compare them).
func (e *Env) Answers(t testing.TB, reads [][2]any) map[string]string {
	t.Helper()
	out := map[string]string{}
	for i, r := range reads {
		resp := e.Call(t, r[0].(string), r[1]).OK(t)
		var env struct {
			Data json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(resp.Raw, &env); err != nil {
			t.Fatalf("%s: %v", r[0], err)
		}
		body, _ := json.Marshal(r[1])
		out[fmt.Sprintf("%02d %s %s", i, r[0], body)] = scrollIDs.ReplaceAllString(string(env.Data), `"scroll_id":"-"`)
	}
	return out
}
