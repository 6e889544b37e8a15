package mlflow_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	mlflowapi "github.com/trove-ml/trove/internal/api/mlflow"
	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/testenv"
)

// placeholder is a "{name}" segment of a row's path.
var placeholder = regexp.MustCompile(`\{[a-z_]+(\.\.\.)?\}`)

// annotatorUser is the other read-only role.
var annotatorUser = auth.FixedUser{ID: "mlf-annotator", Name: "annotator", AccessKey: "MLFANNOTKEY000000000", SecretKey: "mlf-annot-secret-00000000000000000", Role: auth.RoleAnnotator}

// TestRoleMatrix calls every row of every MLflow endpoint table, with
// every method it takes, as a guest, an annotator and the admin. A role
// the row does not name gets 403 PERMISSION_DENIED before anything is
// read; a role it names never gets 403 (its empty parameters get 400 or
// 404 instead), and nothing answers 500. The table's access is checked
// too: read-only roles may call no row that changes records.
func TestRoleMatrix(t *testing.T) {
	rows := mlflowapi.TableRows()
	if len(rows) < 50 {
		t.Fatalf("only %d rows", len(rows))
	}
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		c := &client{e: e, auth: "Bearer " + e.Token}
		callers := []struct {
			role string
			c    *client
		}{{auth.RoleGuest, c.as(guestUser)}, {auth.RoleAnnotator, c.as(annotatorUser)}, {auth.RoleAdmin, c}}
		for _, row := range rows {
			path, only, _ := strings.Cut(row.Path, "#")
			path = placeholder.ReplaceAllString(path, "x-0000")
			prefix := "/api/2.0/mlflow/"
			if v, ok := strings.CutPrefix(path, "3.0/"); ok {
				path, prefix = v, "/api/3.0/mlflow/"
			}
			for _, method := range row.Methods {
				if only != "" && method != only {
					continue
				}
				var body any
				if method != "GET" {
					body = map[string]any{}
				}
				for _, who := range callers {
					cl := *who.c
					cl.prefix = prefix
					a := cl.do(t, method, path, body, nil)
					allowed := slices.Contains(row.Roles, who.role)
					switch {
					case a.Status >= 500:
						t.Errorf("%s %s as %s: %d %s", method, path, who.role, a.Status, a.Raw)
					case !allowed && (a.Status != 403 || a.Body["error_code"] != "PERMISSION_DENIED"):
						t.Errorf("%s %s as %s (not allowed): %d %s", method, path, who.role, a.Status, a.Raw)
					case allowed && a.Status == 403:
						t.Errorf("%s %s as %s (allowed): 403 %s", method, path, who.role, a.Raw)
					}
				}
			}
		}
	}, testenv.WithUsers(guestUser, annotatorUser))
}

// The read-only roles may call only rows that read: a row with a
// change-making method, other than the searches sent by POST, names
// only roles that write.
func TestReadOnlyRolesOnlyRead(t *testing.T) {
	for _, row := range mlflowapi.TableRows() {
		if !slices.Contains(row.Roles, auth.RoleGuest) {
			continue
		}
		if !slices.ContainsFunc(row.Methods, func(m string) bool { return m != "GET" }) {
			continue // GET changes nothing
		}
		p, _, _ := strings.Cut(row.Path, "#")
		verb := p[strings.LastIndex(p, "/")+1:]
		switch {
		case strings.HasPrefix(verb, "get"), strings.HasPrefix(verb, "search"), verb == "list",
			verb == "calculate-filter-correlation", // counts traces, changes nothing
			p == "3.0/traces/metrics":              // aggregates traces, changes nothing
		default:
			t.Errorf("read-only roles may call %s %v", row.Path, row.Methods)
		}
	}
}
