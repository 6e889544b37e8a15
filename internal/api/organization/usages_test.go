package organization_test

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/testenv"
)

// setTask rewrites a stored task (the times only a worker's run sets).
func setTask(t *testing.T, e *testenv.Env, id string, fn func(*store.Task)) {
	t.Helper()
	ctx := context.Background()
	err := e.App.DB.Tx(ctx, func(q store.Querier) error {
		tk, err := e.App.DB.Tasks().Get(ctx, q, id)
		if err != nil {
			return err
		}
		fn(tk)
		return e.App.DB.Tasks().Update(ctx, q, tk)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func at(s string) *jsonx.Time {
	tm, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return &jsonx.Time{Time: tm}
}

// usageItem finds the item of id in a breakdown's total or series.
func usageItem(t *testing.T, r *testenv.Response, path string, id any) map[string]any {
	t.Helper()
	for _, it := range r.List(path) {
		if m := it.(map[string]any); m["id"] == id {
			return m
		}
	}
	t.Fatalf("no %v in %s: %s", id, path, r.Raw)
	return nil
}

// TestProjectUsages covers organization.get_project_usages (2.34): running
// time per day of the request's time zone, summed under the asked
// project's children (their subprojects included) and itself, by user and
// by queue (deleted queues as "other"); development and never-enqueued
// tasks only with include_development; excluded types; tasks outside the
// range; running tasks until now; the default weights flagged artificial;
// bad input named by field.
func TestProjectUsages(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		now := time.Date(2025, 3, 10, 12, 0, 0, 0, time.UTC)
		e.App.Deps.Now = func() time.Time { return now }
		root := e.Call(t, "projects.create", obj{"name": "Usage root"}).OK(t).Str("id")
		alpha := e.Call(t, "projects.create", obj{"name": "Usage root/Alpha"}).OK(t).Str("id")
		deep := e.Call(t, "projects.create", obj{"name": "Usage root/Alpha/Deep"}).OK(t).Str("id")
		beta := e.Call(t, "projects.create", obj{"name": "Usage root/Beta"}).OK(t).Str("id")
		queue := e.Call(t, "queues.create", obj{"name": "usage queue"}).OK(t).Str("id")
		task := func(name, project, typ string, fn func(*store.Task)) {
			id := e.Call(t, "tasks.create", obj{"name": name, "type": typ, "project": project}).OK(t).Str("id")
			setTask(t, e, id, fn)
		}
		task("finished", alpha, "training", func(tk *store.Task) {
			tk.Status, tk.Execution.Queue = "completed", queue
			tk.Started, tk.Completed = at("2025-03-08T22:00:00Z"), at("2025-03-09T02:00:00Z")
		})
		task("running", deep, "training", func(tk *store.Task) {
			tk.Status, tk.Execution.Queue, tk.Started = "in_progress", queue, at("2025-03-10T10:00:00Z")
		})
		task("failed", root, "training", func(tk *store.Task) {
			tk.Status, tk.Execution.Queue = "failed", "deleted-queue"
			tk.Started, tk.StatusChanged = at("2025-03-09T00:00:00Z"), at("2025-03-09T01:00:00Z")
		})
		task("development", beta, "training", func(tk *store.Task) {
			tk.Status, tk.SystemTags = "stopped", []string{"development"}
			tk.Started, tk.Completed = at("2025-03-09T00:00:00Z"), at("2025-03-09T01:00:00Z")
		})
		task("controller", beta, "controller", func(tk *store.Task) {
			tk.Status, tk.Execution.Queue = "completed", queue
			tk.Started, tk.Completed = at("2025-03-09T00:00:00Z"), at("2025-03-09T05:00:00Z")
		})
		task("long ago", alpha, "training", func(tk *store.Task) {
			tk.Status, tk.Execution.Queue = "completed", queue
			tk.Started, tk.Completed = at("2025-02-01T00:00:00Z"), at("2025-02-02T00:00:00Z")
		})
		days := []float64{float64(at("2025-03-08T00:00:00Z").Unix()), float64(at("2025-03-09T00:00:00Z").Unix()), float64(at("2025-03-10T00:00:00Z").Unix())}
		body := obj{"projects": []string{root}, "from_date": "2025-03-08T00:00:00Z", "to_date": "2025-03-10T00:00:00Z"}

		r := e.Call(t, "organization.get_project_usages", body).OK(t)
		type want struct {
			path  string
			id    any
			name  any
			daily []float64
		}
		for _, w := range []want{
			{"projects", alpha, "Usage root/Alpha", []float64{7200, 7200, 7200}},
			{"projects", root, "Usage root", []float64{0, 3600, 0}},
			{"queues", queue, "usage queue", []float64{7200, 7200, 7200}},
			{"queues", "_other_", "other", []float64{0, 3600, 0}},
			{"users", auth.AdminUserID, nil, []float64{7200, 10800, 7200}},
		} {
			se := usageItem(t, r, w.path+".series", w.id)
			tot := usageItem(t, r, w.path+".total", w.id)
			if !sameNums(se["dates"], days) || !sameNums(se["duration"], w.daily) || !sameNums(se["gpu_usage"], w.daily) ||
				se["gpu_artificial_weights"] != true || se["cpu_usage"] != nil {
				t.Fatalf("%s %v series: %v", w.path, w.id, se)
			}
			sum := 0.0
			for _, v := range w.daily {
				sum += v
			}
			if tot["duration"] != sum || tot["gpu_usage"] != sum || tot["gpu_artificial_weights"] != true || (w.name != nil && tot["name"] != w.name) {
				t.Fatalf("%s %v total: %v", w.path, w.id, tot)
			}
		}
		if n := len(r.List("projects.total")); n != 2 {
			t.Fatalf("beta has no counted tasks: %s", r.Raw)
		}

		// A worker registering on the queue with resources (2.34) sets its
		// weights: gpu_usage doubles and is no longer artificial there.
		e.Call(t, "v2.33/workers.register", obj{"worker": "old-agent", "queues": []string{queue}, "resources": obj{"gpu_usage": 5}}).OK(t)
		e.Call(t, "workers.register", obj{"worker": "usage-agent", "queues": []string{queue}, "resources": obj{"gpu_usage": 2}}).OK(t)
		e.Call(t, "workers.register", obj{"worker": "bad-agent", "queues": []string{queue}, "resources": obj{"gpu_usage": -1}}).Err(t, 400, 12)
		w := e.Call(t, "organization.get_project_usages", obj{"projects": []string{root}, "from_date": "2025-03-08T00:00:00Z",
			"to_date": "2025-03-10T00:00:00Z", "usage_fields": []string{"gpu_usage", "cpu_usage"}}).OK(t)
		if q := usageItem(t, w, "queues.series", queue); !sameNums(q["gpu_usage"], []float64{14400, 14400, 14400}) ||
			!sameNums(q["cpu_usage"], []float64{7200, 7200, 7200}) || q["gpu_artificial_weights"] != nil || q["cpu_artificial_weights"] != true || q["duration"] != nil {
			t.Fatalf("queue resources: %v", q)
		}
		if o := usageItem(t, w, "queues.total", "_other_"); o["gpu_usage"] != 3600.0 || o["gpu_artificial_weights"] != true {
			t.Fatalf("other queue: %v", o)
		}
		if u := usageItem(t, w, "users.total", auth.AdminUserID); u["gpu_usage"] != 46800.0 || u["gpu_artificial_weights"] != true {
			t.Fatalf("user mixes weights: %v", u)
		}

		// With development tasks: beta's, and a series for no queue.
		dev := e.Call(t, "organization.get_project_usages", obj{"projects": []string{root}, "from_date": "2025-03-08T00:00:00Z",
			"to_date": "2025-03-10T00:00:00Z", "include_development": true, "breakdown_keys": []string{"project", "queue"},
			"usage_fields": []string{"duration", "cpu_usage"}}).OK(t)
		if b := usageItem(t, dev, "projects.series", beta); !sameNums(b["duration"], []float64{0, 3600, 0}) ||
			!sameNums(b["cpu_usage"], []float64{0, 3600, 0}) || b["cpu_artificial_weights"] != true || b["gpu_usage"] != nil {
			t.Fatalf("development: %v", b)
		}
		if nq := usageItem(t, dev, "queues.total", nil); nq["duration"] != 3600.0 {
			t.Fatalf("no queue: %v", nq)
		}
		if dev.Data["users"] != nil {
			t.Fatalf("only the asked breakdowns: %s", dev.Raw)
		}

		// Several projects: each with its subprojects; a time zone's days
		// (the finished task ran 00:00 to 04:00 at +02:00, all on the 9th).
		tz := e.Call(t, "organization.get_project_usages", obj{"projects": []string{alpha, beta}, "from_date": "2025-03-09T00:00:00+02:00",
			"to_date": "2025-03-09T10:00:00+02:00", "breakdown_keys": []string{"project"}}).OK(t)
		a := usageItem(t, tz, "projects.series", alpha)
		if !sameNums(a["dates"], []float64{float64(at("2025-03-08T22:00:00Z").Unix())}) || !sameNums(a["duration"], []float64{14400}) {
			t.Fatalf("time zone: %s", tz.Raw)
		}
		if len(tz.List("projects.total")) != 1 {
			t.Fatalf("several projects: %s", tz.Raw)
		}
		// A project without tasks in the range: empty breakdowns.
		empty := e.Call(t, "organization.get_project_usages", obj{"projects": []string{deep}, "from_date": "2024-01-01", "to_date": "2024-01-02"}).OK(t)
		for _, k := range []string{"projects", "users", "queues"} {
			if len(empty.List(k+".total")) != 0 || len(empty.List(k+".series")) != 0 {
				t.Fatalf("empty: %s", empty.Raw)
			}
		}

		for _, c := range []struct {
			name string
			body obj
		}{
			{"no projects", obj{"projects": []string{}, "from_date": "2025-03-08", "to_date": "2025-03-09"}},
			{"projects missing", obj{"from_date": "2025-03-08", "to_date": "2025-03-09"}},
			{"from_date missing", obj{"projects": []string{root}, "to_date": "2025-03-09"}},
			{"bad date", obj{"projects": []string{root}, "from_date": "yesterday", "to_date": "2025-03-09"}},
			{"from after to", obj{"projects": []string{root}, "from_date": "2025-03-10", "to_date": "2025-03-09"}},
			{"range too long", obj{"projects": []string{root}, "from_date": "1900-01-01", "to_date": "2025-03-09"}},
			{"unknown breakdown", obj{"projects": []string{root}, "from_date": "2025-03-08", "to_date": "2025-03-09", "breakdown_keys": []string{"team"}}},
			{"unknown usage field", obj{"projects": []string{root}, "from_date": "2025-03-08", "to_date": "2025-03-09", "usage_fields": []string{"ram"}}},
			{"date a number", obj{"projects": []string{root}, "from_date": 5, "to_date": "2025-03-09"}},
		} {
			t.Run(c.name, func(t *testing.T) {
				e.Call(t, "organization.get_project_usages", c.body).Err(t, 400, 12)
			})
		}
		e.Call(t, "v2.33/organization.get_project_usages", body).Err(t, 404, 0)
	})
}

func sameNums(v any, want []float64) bool {
	list, ok := v.([]any)
	if !ok || len(list) != len(want) {
		return false
	}
	for i, x := range list {
		if f, ok := x.(float64); !ok || f != want[i] {
			return false
		}
	}
	return true
}

// TestProjectWorkloadsIsTheWebAppsName covers organization.get_project_workloads,
// the name the newest web app's Workloads tab calls: the same answer as
// get_project_usages for the body that tab sends (a date with milliseconds
// and an offset), the same field errors, and 2.34 and later only.
func TestProjectWorkloadsIsTheWebAppsName(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		now := time.Date(2025, 3, 10, 12, 0, 0, 0, time.UTC)
		e.App.Deps.Now = func() time.Time { return now }
		root := e.Call(t, "projects.create", obj{"name": "Workloads root"}).OK(t).Str("id")
		child := e.Call(t, "projects.create", obj{"name": "Workloads root/Child"}).OK(t).Str("id")
		queue := e.Call(t, "queues.create", obj{"name": "workloads queue"}).OK(t).Str("id")
		id := e.Call(t, "tasks.create", obj{"name": "ran", "type": "training", "project": child}).OK(t).Str("id")
		setTask(t, e, id, func(tk *store.Task) {
			tk.Status, tk.Execution.Queue = "completed", queue
			tk.Started, tk.Completed = at("2025-03-09T10:00:00Z"), at("2025-03-09T11:30:00Z")
		})
		// As the tab sends it: from the start of a day a week back, to now.
		body := obj{"projects": []string{root}, "include_development": false, "from_date": "2025-03-04T00:00:00.000+00:00",
			"to_date": "2025-03-10T12:00:00.000Z", "usage_fields": []string{"duration"}}
		w := e.Call(t, "organization.get_project_workloads", body).OK(t)
		u := e.Call(t, "organization.get_project_usages", body).OK(t)
		if !reflect.DeepEqual(w.Data, u.Data) {
			t.Fatalf("get_project_workloads %s\nget_project_usages %s", w.Raw, u.Raw)
		}
		if q := usageItem(t, w, "queues.total", queue); q["name"] != "workloads queue" || q["duration"] != 5400.0 {
			t.Fatalf("queue total: %v", q)
		}
		if p := usageItem(t, w, "projects.series", child); len(p["dates"].([]any)) != 7 || !sameNums(p["duration"], []float64{0, 0, 0, 0, 0, 5400, 0}) {
			t.Fatalf("project series: %v", p)
		}
		for field, bad := range map[string]obj{
			"from_date": {"projects": []string{root}, "from_date": "last week", "to_date": "2025-03-10"},
			"projects":  {"from_date": "2025-03-04", "to_date": "2025-03-10"},
		} {
			if msg := e.Call(t, "organization.get_project_workloads", bad).Err(t, 400, 12).Msg(); !strings.Contains(msg, field) {
				t.Fatalf("the error does not name %s: %s", field, msg)
			}
		}
		e.Call(t, "v2.33/organization.get_project_workloads", body).Err(t, 404, 0)
	})
}
