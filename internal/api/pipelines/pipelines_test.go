package pipelines_test

import (
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/testenv"
)

var otherUser = auth.FixedUser{ID: "other-user", Name: "other", AccessKey: "OTHERKEY000000000000",
	SecretKey: "other-secret-000000000000000000", Role: "user", Company: "other-company"}

type obj = map[string]any

// controller makes a pipeline project with its controller task.
func controller(t *testing.T, e *testenv.Env, name string) (project, task string) {
	t.Helper()
	project = e.Call(t, "projects.create", obj{"name": name}).OK(t).Str("id")
	task = e.Call(t, "tasks.create", obj{"name": name, "type": "controller", "project": project, "system_tags": []string{"pipeline"},
		"hyperparams": obj{"properties": obj{"version": obj{"section": "properties", "name": "version", "type": "str", "value": "3.2"}}}}).OK(t).Str("id")
	return project, task
}

func TestStartPipeline(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		queue := e.Call(t, "queues.get_default", obj{}).OK(t).Str("id")
		project, task := controller(t, e, "pipelines test")
		r := e.Call(t, "pipelines.start_pipeline", obj{"task": task, "queue": queue,
			"args": []obj{{"name": "hello", "value": "test"}, {"name": "n", "value": 3}}}).OK(t)
		run := r.Str("pipeline")
		if !r.Data["enqueued"].(bool) || r.Data["queue_watched"] != nil {
			t.Fatalf("answer: %s", r.Raw)
		}
		got := e.Call(t, "tasks.get_all_ex", obj{"id": []string{run}}).OK(t)
		if got.Str("tasks.0.status") != "queued" || got.Str("tasks.0.project.id") != project ||
			!strings.HasPrefix(got.Str("tasks.0.name"), "pipelines test #") {
			t.Fatalf("run: %s", got.Raw)
		}
		if got.Str("tasks.0.hyperparams.Args.hello.value") != "test" || got.Str("tasks.0.hyperparams.Args.n.value") != "3" ||
			got.Str("tasks.0.hyperparams.properties.version.value") != "3.2" {
			t.Fatalf("hyperparams: %s", got.Raw)
		}
		// The default queue when none is given; queue_watched when asked.
		_, task2 := controller(t, e, "pipelines test2")
		r = e.Call(t, "pipelines.start_pipeline", obj{"task": task2, "verify_watched_queue": true}).OK(t)
		if r.Data["queue_watched"] != false {
			t.Fatalf("unwatched queue: %s", r.Raw)
		}
		e.Call(t, "workers.register", obj{"worker": "pipeline-worker", "queues": []string{queue}}).OK(t)
		r = e.Call(t, "pipelines.start_pipeline", obj{"task": task2, "verify_watched_queue": true}).OK(t)
		if r.Data["queue_watched"] != true {
			t.Fatalf("watched queue: %s", r.Raw)
		}

		for _, c := range []struct {
			name string
			body obj
			code int
		}{
			{"no task", obj{}, 12},
			{"unknown task", obj{"task": "nope"}, 101},
			{"unknown queue", obj{"task": task, "queue": "nope"}, 701},
			{"argument without name", obj{"task": task, "args": []obj{{"value": "x"}}}, 12},
			{"argument value an object", obj{"task": task, "args": []obj{{"name": "x", "value": obj{}}}}, 12},
		} {
			t.Run(c.name, func(t *testing.T) { e.Call(t, "pipelines.start_pipeline", c.body).Err(t, 400, c.code) })
		}
		other := e.Login(t, otherUser.AccessKey, otherUser.SecretKey)
		e.CallAs(t, other, "pipelines.start_pipeline", obj{"task": task}).Err(t, 400, 101)
	}, testenv.WithUsers(otherUser))
}

func TestDeleteRuns(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		project, task := controller(t, e, "pipelines runs")
		var runs []string
		for range 2 {
			runs = append(runs, e.Call(t, "pipelines.start_pipeline", obj{"task": task}).OK(t).Str("pipeline"))
		}
		step := e.Call(t, "tasks.create", obj{"name": "a step", "type": "training", "project": project, "parent": runs[0]}).OK(t).Str("id")
		other := e.Login(t, otherUser.AccessKey, otherUser.SecretKey)
		for _, c := range []struct {
			name    string
			token   string
			body    obj
			subcode int
		}{
			{"no ids", e.Token, obj{"project": project}, 12},
			{"empty ids", e.Token, obj{"project": project, "ids": []string{}}, 12},
			{"no project", e.Token, obj{"ids": runs}, 12},
			{"every run", e.Token, obj{"project": project, "ids": append([]string{task}, runs...)}, 160},
			{"another company's runs", other, obj{"project": project, "ids": runs}, 160},
		} {
			t.Run(c.name, func(t *testing.T) { e.CallAs(t, c.token, "pipelines.delete_runs", c.body).Err(t, 400, c.subcode) })
		}
		// Only runs are deleted: a step id is not one.
		r := e.Call(t, "pipelines.delete_runs", obj{"project": project, "ids": append([]string{step}, runs...)}).OK(t)
		if len(r.List("succeeded")) != 2 || len(r.List("failed")) != 0 || testenv.Get(r.Data, "succeeded.0.deleted") != true {
			t.Fatalf("delete_runs: %s", r.Raw)
		}
		left := e.Call(t, "tasks.get_all_ex", obj{"project": project}).OK(t)
		if len(left.List("tasks")) != 1 || left.Str("tasks.0.id") != task {
			t.Fatalf("left: %s (the step goes with its run)", left.Raw)
		}
		none := e.Call(t, "pipelines.delete_runs", obj{"project": project, "ids": []string{"not-a-run"}}).OK(t)
		if len(none.List("succeeded")) != 0 {
			t.Fatalf("no runs named: %s", none.Raw)
		}
	}, testenv.WithUsers(otherUser))
}
