package webapp_test

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/testenv"
)

// appFixtures are the recorded drives replayed, one per web app version:
// the 2.0 release and clearml-web master at 48b61702 (2.5.0, the newest
// when recorded). e2e/webapp/README.md says how to record them.
var appFixtures = []string{"testdata/app_calls.json", "testdata/app_calls_v2.5.json"}

// recordedCall is one call of a fixture (written by e2e/webapp/drive.mjs
// from the real app in Chromium).
type recordedCall struct {
	Page         string          `json:"page"`
	Op           string          `json:"op"`
	Version      string          `json:"version"`
	Method       string          `json:"method"`
	Query        string          `json:"query"`
	Body         json.RawMessage `json:"body"`
	Status       int             `json:"status"`
	ResponseKeys []string        `json:"response_keys"`
	Captures     []struct {
		Path string `json:"path"`
		As   string `json:"as"`
	} `json:"captures"`
}

func loadAppCalls(t *testing.T, file string) []recordedCall {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Calls []recordedCall `json:"calls"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Calls) < 100 {
		t.Fatalf("%s holds %d calls; re-record it with e2e/webapp/drive.mjs", file, len(f.Calls))
	}
	return f.Calls
}

// TestAppCallsReplay replays every call the web app made in each recorded
// drive (the 2.0 app and the newest), in order, with its request body, on
// a store seeded like the drive's, and checks each answers 200 with the
// fields the app got then.
func TestAppCallsReplay(t *testing.T) {
	for _, file := range appFixtures {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".json"), func(t *testing.T) {
			replayFixture(t, loadAppCalls(t, file))
		})
	}
}

func replayFixture(t *testing.T, calls []recordedCall) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		ids := seedLikeTheDrive(t, e)
		replayed := 0
		for i, c := range calls {
			body, ok := fill(string(c.Body), ids)
			query, qok := fill(c.Query, ids)
			if !ok || !qok {
				t.Errorf("call %d (%s, %s): a placeholder has no value: %s", i, c.Page, c.Op, c.Body)
				continue
			}
			status, data, raw := replay(t, e, c, query, body)
			replayed++
			if status != http.StatusOK {
				t.Errorf("call %d (%s, %s %s): %d %s", i, c.Page, c.Op, body, status, raw)
				continue
			}
			if missing := missingKeys(data, c.ResponseKeys); len(missing) > 0 {
				t.Errorf("call %d (%s, %s): the answer lacks %v the app read: %s", i, c.Page, c.Op, missing, raw)
			}
			for _, cp := range c.Captures {
				v, _ := testenv.Get(data, cp.Path).(string)
				if v == "" {
					t.Fatalf("call %d (%s, %s): no id at %s to stand for %s: %s", i, c.Page, c.Op, cp.Path, cp.As, raw)
				}
				ids[cp.As] = v
			}
		}
		if replayed != len(calls) {
			t.Fatalf("only %d of %d calls were replayed", replayed, len(calls))
		}
	})
}

// fill replaces the placeholders; false when one is left without a value.
func fill(s string, ids seeded) (string, bool) {
	for ph, id := range ids {
		s = strings.ReplaceAll(s, ph, id)
	}
	return s, !strings.Contains(s, "{{")
}

// replay sends one call as the app did (method, version path, query,
// body) with the admin's token and returns the status and data.
func replay(t *testing.T, e *testenv.Env, c recordedCall, query, body string) (int, map[string]any, string) {
	t.Helper()
	path := "/" + c.Op
	if c.Version != "" {
		path = "/v" + c.Version + path
	}
	method := c.Method
	if method == "" {
		method = http.MethodPost
	}
	var rd io.Reader
	if body != "" && body != "null" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, e.URL+path+query, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+e.Token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var env struct {
		Data map[string]any `json:"data"`
	}
	_ = json.Unmarshal(jsonx.Sanitize(raw), &env)
	if len(raw) > 600 {
		raw = append(raw[:600:600], "..."...)
	}
	return resp.StatusCode, env.Data, string(raw)
}

func missingKeys(data map[string]any, keys []string) []string {
	var out []string
	for _, k := range keys {
		if _, ok := data[k]; !ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}
