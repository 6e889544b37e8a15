package security

import (
	"slices"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/testenv"
)

// pathOf calls exactly this implementation: its own minimum version.
func pathOf(ep *rpc.Endpoint) string {
	v := ep.MinVersion
	if v == "" {
		v = "1.0"
	}
	return "/v" + v + "/" + ep.Name
}

// TestRoleMatrix calls every registered operation (each implementation)
// as a user of each of the seven roles, with an empty body: a role outside
// the entry's access gets 403/20; a role inside never does (other errors,
// such as a missing field, are fine). The operations come from the
// registry the app builds, so a new entry is covered as it is added.
// Attack: "guests can do what admins do".
func TestRoleMatrix(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		tokens := map[string]string{}
		for _, u := range roleUsers {
			tokens[u.Role] = login(t, e, u)
		}
		checked := 0
		for _, ep := range e.App.Registry.Endpoints() {
			if ep.Auth == rpc.AuthNone {
				continue
			}
			checked++
			for _, role := range auth.Everyone {
				r := send(t, "POST", e.URL+pathOf(ep), "{}", bearer(tokens[role]))
				allowed := slices.Contains(ep.Access.Roles, role)
				if allowed && r.isRoleRefusal() {
					t.Errorf("%s as %s: refused by role, but the table allows %v: %s", pathOf(ep), role, ep.Access.Roles, r)
				}
				if !allowed && !r.isRoleRefusal() {
					t.Errorf("%s as %s: want 403/20 (table allows %v), got %s", pathOf(ep), role, ep.Access.Roles, r)
				}
				if r.Status >= 500 {
					t.Errorf("%s as %s: %s", pathOf(ep), role, r)
				}
				if ep.Name == "auth.logout" || ep.Name == "login.logout" {
					tokens[role] = login(t, e, userOf(role)) // the call revoked it
				}
			}
		}
		if checked < 190 {
			t.Fatalf("only %d implementations checked: the registry is not the app's", checked)
		}
	}, testenv.WithUsers(roleUsers...))
}

// TestAccessTable checks the decisions of the endpoint tables that the
// matrix alone would not pin: who may change what.
func TestAccessTable(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) { checkAccessTable(t, e) })
}

func checkAccessTable(t *testing.T, e *testenv.Env) {
	want := map[string]rpc.Access{
		"users.set_preferences":                     rpc.Own,
		"auth.logout":                               rpc.Own,
		"login.logout":                              rpc.Own,
		"auth.login":                                rpc.Own,
		"auth.create_user":                          rpc.Admin,
		"auth.edit_user":                            rpc.Admin,
		"storage.set_settings":                      rpc.Admin,
		"storage.reset_settings":                    rpc.Admin,
		"storage.get_settings":                      rpc.Read,
		"server.get_stats":                          rpc.AdminRead,
		"server.config":                             rpc.AdminRead,
		"server.info":                               rpc.Read,
		"users.delete":                              rpc.Root,
		"users.update":                              rpc.Write,
		"auth.create_credentials":                   rpc.Write,
		"queues.get_next_task":                      rpc.Write,
		"tasks.ping":                                rpc.Write,
		"workers.status_report":                     rpc.Write,
		"tasks.validate":                            rpc.Read,
		"projects.validate_delete":                  rpc.Read,
		"events.clear_scroll":                       rpc.Read,
		"organization.prepare_download_for_get_all": rpc.Read,
	}
	for _, ep := range e.App.Registry.Endpoints() {
		if w, ok := want[ep.Name]; ok && (!slices.Equal(ep.Access.Roles, w.Roles) || ep.Access.Changes != w.Changes) {
			t.Errorf("%s: access %+v, want %+v", ep.Name, ep.Access, w)
		}
		// Every read-only role changes nothing but its own session and
		// preferences.
		if ep.Access.Changes && slices.Contains(ep.Access.Roles, auth.RoleGuest) && !slices.Contains([]string{"users.set_preferences", "auth.logout", "login.logout", "auth.login"}, ep.Name) {
			t.Errorf("%s: a change open to guests", ep.Name)
		}
		// Only debug.ping answers without credentials.
		if ep.Auth == rpc.AuthNone && ep.Name != "debug.ping" {
			t.Errorf("%s answers anonymous callers", ep.Name)
		}
		if strings.HasPrefix(ep.Name, "server.report_stats_option") && (ep.Access.SetBy != "enabled" || !slices.Equal(ep.Access.SetRoles, auth.Privileged)) {
			t.Errorf("report_stats_option: %+v", ep.Access)
		}
	}
	e.Do(t, "server.info", nil, nil).Err(t, 401, 20)
}

// TestEscalations are the concrete attacks of the role side: read-only
// roles change nothing of others, nor the company's settings or roles.
func TestEscalations(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		guest := login(t, e, userOf(auth.RoleGuest))
		annotator := login(t, e, userOf(auth.RoleAnnotator))
		user := login(t, e, userOf(auth.RoleUser))
		task := e.CallAs(t, user, "tasks.create", map[string]any{"name": "not yours", "type": "training"}).OK(t).Str("id")
		settings := map[string]any{"aws": map[string]any{"key": "attacker", "secret": "s"}}
		cases := []struct {
			name, token, op string
			body            any
		}{
			{"guest deletes another user's task", guest, "tasks.delete", map[string]any{"task": task, "force": true}},
			{"guest deletes many", guest, "tasks.delete_many", map[string]any{"ids": []string{task}, "force": true}},
			{"guest edits another user's task", guest, "tasks.edit", map[string]any{"task": task, "name": "mine"}},
			{"annotator deletes another user's task", annotator, "tasks.delete", map[string]any{"task": task, "force": true}},
			{"guest sets storage settings", guest, "storage.set_settings", settings},
			{"annotator sets storage settings", annotator, "storage.set_settings", settings},
			{"guest makes itself admin", guest, "auth.edit_user", map[string]any{"user": userOf(auth.RoleGuest).ID, "role": "admin"}},
			{"annotator makes itself admin", annotator, "auth.edit_user", map[string]any{"user": userOf(auth.RoleAnnotator).ID, "role": "admin"}},
			{"user makes itself admin", user, "auth.edit_user", map[string]any{"user": userOf(auth.RoleUser).ID, "role": "admin"}},
			{"guest creates a user", guest, "auth.create_user", map[string]any{"name": "x", "company": auth.DefaultCompanyID}},
			{"guest turns on usage reports", guest, "server.report_stats_option", map[string]any{"enabled": true}},
			{"user turns on usage reports", user, "server.report_stats_option", map[string]any{"enabled": true}},
			{"guest renames another user", guest, "users.update", map[string]any{"user": userOf(auth.RoleUser).ID, "name": "pwned"}},
			{"guest makes keys", guest, "auth.create_credentials", nil},
			{"admin deletes a user", e.Token, "users.delete", map[string]any{"user": userOf(auth.RoleUser).ID}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				e.CallAs(t, c.token, c.op, c.body).Err(t, 403, 20)
			})
		}
		// Nothing changed.
		if r := e.CallAs(t, user, "tasks.get_by_id", map[string]any{"task": task}).OK(t); r.Str("task.name") != "not yours" {
			t.Fatalf("task: %s", r.Raw)
		}
		if s := e.Call(t, "storage.get_settings", nil).OK(t); strings.Contains(string(s.Raw), "attacker") {
			t.Fatalf("settings changed: %s", s.Raw)
		}
		for _, role := range []string{auth.RoleGuest, auth.RoleAnnotator, auth.RoleUser} {
			me := e.CallAs(t, login(t, e, userOf(role)), "users.get_current_user", nil).OK(t)
			if me.Str("user.role") != role || me.Str("user.name") != userOf(role).Name {
				t.Fatalf("%s: %s", role, me.Raw)
			}
		}
		if r := e.Call(t, "server.report_stats_option", nil).OK(t); r.Data["enabled"] != false {
			t.Fatalf("usage reports: %s", r.Raw)
		}
		// What read-only roles may do: read, and their own preferences
		// and session; a user changes its own profile, not another's.
		e.CallAs(t, guest, "tasks.get_by_id", map[string]any{"task": task}).OK(t)
		e.CallAs(t, guest, "server.report_stats_option", nil).OK(t)
		e.CallAs(t, guest, "users.set_preferences", map[string]any{"preferences": map[string]any{"theme": "dark"}}).OK(t)
		e.CallAs(t, user, "users.update", map[string]any{"user": userOf(auth.RoleUser).ID, "name": "renamed"}).OK(t)
		e.CallAs(t, user, "users.update", map[string]any{"user": userOf(auth.RoleGuest).ID, "name": "pwned"}).Err(t, 400, 301)
		e.Call(t, "users.update", map[string]any{"user": userOf(auth.RoleGuest).ID, "name": "by admin"}).OK(t)
		e.Call(t, "server.report_stats_option", map[string]any{"enabled": true}).OK(t)
		e.CallAs(t, guest, "auth.logout", nil).OK(t)
	}, testenv.WithUsers(roleUsers...))
}
