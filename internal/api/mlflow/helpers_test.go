package mlflow_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/testenv"
)

// Users of another company and a guest of the default one.
var (
	otherUser = auth.FixedUser{ID: "mlf-other", Name: "other", AccessKey: "MLFOTHERKEY000000000", SecretKey: "mlf-other-secret-00000000000000000", Role: auth.RoleUser, Company: "mlf-other-company"}
	guestUser = auth.FixedUser{ID: "mlf-guest", Name: "guest", AccessKey: "MLFGUESTKEY000000000", SecretKey: "mlf-guest-secret-00000000000000000", Role: auth.RoleGuest}
)

func each(t *testing.T, fn func(t *testing.T, c *client)) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		fn(t, &client{e: e, auth: "Bearer " + e.Token})
	}, testenv.WithUsers(otherUser, guestUser))
}

// client calls the MLflow API with one credential.
type client struct {
	e      *testenv.Env
	auth   string
	prefix string
}

func (c *client) as(u auth.FixedUser) *client {
	return &client{e: c.e, auth: "Basic " + base64.StdEncoding.EncodeToString([]byte(u.AccessKey+":"+u.SecretKey)), prefix: c.prefix}
}

// answer is a decoded MLflow answer.
type answer struct {
	Status int
	Body   map[string]any
	Raw    []byte
}

func (c *client) do(t testing.TB, method, path string, body any, query url.Values) *answer {
	t.Helper()
	prefix := c.prefix
	if prefix == "" {
		prefix = "/api/2.0/mlflow/"
		// the 3.0 rows of the table (v3.go)
		if rest, ok := strings.CutPrefix(path, "3.0/"); ok {
			prefix, path = "/api/3.0/mlflow/", rest
		}
	}
	u := c.e.URL + prefix + path
	if query != nil {
		u += "?" + query.Encode()
	}
	var rd io.Reader
	if body != nil {
		raw, ok := body.(string)
		if !ok {
			b, err := json.Marshal(body)
			if err != nil {
				t.Fatal(err)
			}
			raw = string(b)
		}
		rd = bytes.NewReader([]byte(raw))
	}
	req, err := http.NewRequest(method, u, rd)
	if err != nil {
		t.Fatal(err)
	}
	if c.auth != "" {
		req.Header.Set("Authorization", c.auth)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	a := &answer{Status: resp.StatusCode, Raw: raw}
	if err := json.Unmarshal(raw, &a.Body); err != nil {
		t.Fatalf("%s %s: answer is not a JSON object (%d): %q", method, path, resp.StatusCode, raw)
	}
	return a
}

func (c *client) post(t testing.TB, path string, body any) *answer {
	t.Helper()
	return c.do(t, "POST", path, body, nil)
}

func (c *client) get(t testing.TB, path string, q url.Values) *answer {
	t.Helper()
	return c.do(t, "GET", path, nil, q)
}

// ok fails unless the call answered 200 and returns its body.
func (a *answer) ok(t testing.TB) map[string]any {
	t.Helper()
	if a.Status != 200 {
		t.Fatalf("want 200, got %d: %s", a.Status, a.Raw)
	}
	return a.Body
}

// fails checks MLflow's error envelope: the status and error_code, and a
// message that contains part.
func (a *answer) fails(t testing.TB, status int, code, part string) {
	t.Helper()
	if a.Status != status || a.Body["error_code"] != code {
		t.Fatalf("want %d %s, got %d: %s", status, code, a.Status, a.Raw)
	}
	msg, _ := a.Body["message"].(string)
	if !bytes.Contains([]byte(msg), []byte(part)) {
		t.Fatalf("message %q does not say %q", msg, part)
	}
	if len(a.Body) != 2 {
		t.Fatalf("the envelope has exactly error_code and message: %s", a.Raw)
	}
}

// at reads a nested value by keys and list indexes.
func at(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			l, _ := v.([]any)
			if k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

func str(v any, path ...any) string {
	s, _ := at(v, path...).(string)
	return s
}

// kv turns a list of {key, value} into a map.
func kv(v any) map[string]string {
	out := map[string]string{}
	l, _ := v.([]any)
	for _, it := range l {
		m, _ := it.(map[string]any)
		k, _ := m["key"].(string)
		out[k] = str(m, "value")
	}
	return out
}

func (c *client) experiment(t testing.TB, name string) string {
	t.Helper()
	return str(c.post(t, "experiments/create", map[string]any{"name": name}).ok(t), "experiment_id")
}

func (c *client) run(t testing.TB, exp string, extra map[string]any) string {
	t.Helper()
	body := map[string]any{"experiment_id": exp}
	for k, v := range extra {
		body[k] = v
	}
	return str(c.post(t, "runs/create", body).ok(t), "run", "info", "run_id")
}

func basic(key, secret string) string {
	return base64.StdEncoding.EncodeToString([]byte(key + ":" + secret))
}
