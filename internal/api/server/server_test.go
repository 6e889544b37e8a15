package server_test

import (
	"strings"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/testenv"
)

type obj = map[string]any

var plainUser = auth.FixedUser{ID: "plain-user", Name: "plain", AccessKey: "PLAINKEY0000000000000000000", SecretKey: "plain-secret-00000000000000000000000", Role: auth.RoleUser}

var otherCompany = auth.FixedUser{ID: "other-user", Name: "other", AccessKey: "OTHERKEY0000000000000000000", SecretKey: "other-secret-00000000000000000000000", Role: auth.RoleUser, Company: "other-company"}

var otherAdmin = auth.FixedUser{ID: "other-admin", Name: "oa", AccessKey: "OTHERADMINKEY00000000000000", SecretKey: "other-admin-secret-0000000000000000000", Role: auth.RoleAdmin, Company: "other-company"}

// server.info answers any role, by version; not anonymous callers (as
// the reference since 2.3).
func TestServerInfo(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		r := e.Call(t, "server.info", nil).OK(t)
		if r.Str("version") != auth.ServerVersion || r.Str("api_version") != "2.34" || r.Data["uid"] != nil {
			t.Fatalf("info: %s", r.Raw)
		}
		r = e.Call(t, "v2.8/server.info", nil).OK(t)
		if r.Str("uid") != auth.DefaultCompanyID || r.Data["api_version"] != nil {
			t.Fatalf("info 2.8: %s", r.Raw)
		}
		if r = e.Call(t, "v2.1/server.info", nil).OK(t); r.Data["uid"] != nil || r.Data["api_version"] != nil {
			t.Fatalf("info 2.1: %s", r.Raw)
		}
		e.CallAs(t, "", "server.info", nil).Err(t, 401, 20)
		plain := e.Login(t, plainUser.AccessKey, plainUser.SecretKey)
		e.CallAs(t, plain, "server.info", nil).OK(t)
	}, testenv.WithUsers(plainUser))
}

// server.report_stats_option reads and sets the company's opt-in.
func TestReportStatsOption(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		t0 := time.Date(2025, 6, 1, 8, 0, 0, 0, time.UTC)
		e.App.Deps.Now = func() time.Time { return t0 }
		r := e.Call(t, "server.report_stats_option", obj{}).OK(t)
		if r.Data["supported"] != true || r.Data["enabled"] != false || r.Str("current_version") != auth.ServerVersion || r.Data["enabled_time"] != nil {
			t.Fatalf("unset: %s", r.Raw)
		}
		r = e.Call(t, "server.report_stats_option", obj{"enabled": true}).OK(t)
		if r.Data["enabled"] != true || r.Str("enabled_time") != "2025-06-01T08:00:00+00:00" || r.Str("enabled_version") != auth.ServerVersion || r.Str("enabled_user") == "" {
			t.Fatalf("set: %s", r.Raw)
		}
		if r = e.Call(t, "server.report_stats_option", nil).OK(t); r.Data["enabled"] != true {
			t.Fatalf("read back: %s", r.Raw)
		}
		// Any role of the company reads it; another company has its own.
		plain := e.Login(t, plainUser.AccessKey, plainUser.SecretKey)
		if r = e.CallAs(t, plain, "server.report_stats_option", nil).OK(t); r.Data["enabled"] != true {
			t.Fatalf("same company: %s", r.Raw)
		}
		other := e.Login(t, otherCompany.AccessKey, otherCompany.SecretKey)
		if r = e.CallAs(t, other, "server.report_stats_option", nil).OK(t); r.Data["enabled"] != false {
			t.Fatalf("other company: %s", r.Raw)
		}
		if r = e.Call(t, "server.report_stats_option", obj{"enabled": "yes"}).Err(t, 400, 12); !strings.Contains(r.Msg(), "enabled") {
			t.Fatalf("bad enabled: %s", r.Msg())
		}
		e.Call(t, "v2.3/server.report_stats_option", nil).Err(t, 404, 0)
		e.CallAs(t, "", "server.report_stats_option", nil).Err(t, 401, 20)
	}, testenv.WithUsers(plainUser, otherCompany))
}

// server.get_stats reports the company's queues, users, runs and agents;
// only privileged roles may read it.
func TestServerGetStats(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		e.Call(t, "queues.create", obj{"name": "stats queue"}).OK(t)
		task := e.Call(t, "tasks.create", obj{"name": "ran", "type": "training"}).OK(t).Str("id")
		e.Call(t, "tasks.started", obj{"task": task}).OK(t)
		e.Call(t, "workers.status_report", obj{"worker": "agent-1", "timestamp": time.Now().Unix(),
			"machine_stats": obj{"cpu_usage": []float64{10, 30}, "memory_used": 100}}).OK(t)
		r := e.Call(t, "server.get_stats", nil).OK(t)
		if r.Num("server.queues.count") != 2 || r.Num("server.users.count") < 2 || r.Num("server.experiments.count") != 1 ||
			r.Str("server.version") != auth.ServerVersion || r.Str("company_id") == "" {
			t.Fatalf("stats: %s", r.Raw)
		}
		if r.Str("agents.0.uuid") != "agent-1" || r.Num("agents.0.resources.num_cores") != 2 || r.Num("agents.0.resources.cpu_usage.max") != 30 {
			t.Fatalf("agents: %s", r.Raw)
		}
		plain := e.Login(t, plainUser.AccessKey, plainUser.SecretKey)
		e.CallAs(t, plain, "server.get_stats", nil).Err(t, 403, 20)
		e.Call(t, "server.get_stats", obj{"interval": "x"}).Err(t, 400, 12)
		// Another company's report counts none of it.
		other := e.Login(t, otherAdmin.AccessKey, otherAdmin.SecretKey)
		r = e.CallAs(t, other, "server.get_stats", nil).OK(t)
		if r.Num("server.experiments.count") != 0 || r.Num("server.users.count") != 1 || len(r.List("agents")) != 0 {
			t.Fatalf("other company: %s", r.Raw)
		}
	}, testenv.WithUsers(plainUser, otherAdmin))
}

// server.config answers the configuration without secrets, or a section.
func TestServerConfig(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		r := e.Call(t, "server.config", nil).OK(t)
		if r.Str("files.storage") == "" || r.Data["api_addr"] == nil {
			t.Fatalf("config: %s", r.Raw)
		}
		for _, secret := range []string{testenv.AdminSecret, "admin_secret", "token_secret", "secret_key"} {
			if strings.Contains(string(r.Raw), secret) {
				t.Fatalf("config leaks %q: %s", secret, r.Raw)
			}
		}
		if r = e.Call(t, "server.config", obj{"path": "files"}).OK(t); r.Str("storage") == "" {
			t.Fatalf("section: %s", r.Raw)
		}
		if r = e.Call(t, "server.config", obj{"path": "files.nope"}).Err(t, 400, 12); !strings.Contains(r.Msg(), "path") {
			t.Fatalf("unknown path: %s", r.Msg())
		}
		e.Call(t, "server.config", obj{"path": 3}).Err(t, 400, 12)
		plain := e.Login(t, plainUser.AccessKey, plainUser.SecretKey)
		e.CallAs(t, plain, "server.config", nil).Err(t, 403, 20)
	}, testenv.WithUsers(plainUser))
}
