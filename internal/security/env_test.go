package security

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/testenv"
)

// roleUsers are one user of each role, in the default company.
var roleUsers = func() []auth.FixedUser {
	var out []auth.FixedUser
	for _, role := range auth.Everyone {
		up := strings.ToUpper(role)
		out = append(out, auth.FixedUser{
			ID: "sec-" + role, Name: "sec " + role, Role: role,
			AccessKey: (up + "KEY00000000000000000000000000")[:27],
			SecretKey: (role + "-secret-000000000000000000000000000000")[:36],
		})
	}
	return out
}()

func userOf(role string) auth.FixedUser {
	for _, u := range roleUsers {
		if u.Role == role {
			return u
		}
	}
	panic("no user of role " + role)
}

// reply is one answer: status, the envelope's subcode and message when it
// is one, the raw body and headers.
type reply struct {
	Status  int
	Subcode int
	Msg     string
	Data    map[string]any
	Raw     string
	Header  http.Header
}

// send makes one request as given, nothing added.
func send(t testing.TB, method, url, body string, hdr map[string]string) *reply {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	r := &reply{Status: resp.StatusCode, Raw: string(raw), Header: resp.Header}
	var env struct {
		Meta struct {
			Subcode int    `json:"result_subcode"`
			Msg     string `json:"result_msg"`
		} `json:"meta"`
		Data map[string]any `json:"data"`
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") && json.Unmarshal(jsonx.Sanitize(raw), &env) == nil {
		r.Subcode, r.Msg, r.Data = env.Meta.Subcode, env.Meta.Msg, env.Data
	}
	return r
}

func (r *reply) String() string {
	raw := r.Raw
	if len(raw) > 400 {
		raw = raw[:400] + "..."
	}
	return fmt.Sprintf("%d/%d %s", r.Status, r.Subcode, raw)
}

// isRoleRefusal is the transport's 403/20.
func (r *reply) isRoleRefusal() bool { return r.Status == 403 && r.Subcode == 20 }

// isCrossSite is the cross-site gate's 403/90.
func (r *reply) isCrossSite() bool { return r.Status == 403 && r.Subcode == 90 }

func bearer(tok string) map[string]string {
	return map[string]string{"Authorization": "Bearer " + tok, "Content-Type": "application/json"}
}

// login returns a token of a fixed user.
func login(t testing.TB, e *testenv.Env, u auth.FixedUser) string {
	t.Helper()
	return e.Login(t, u.AccessKey, u.SecretKey)
}
