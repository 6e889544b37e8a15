package models_test

import (
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

func TestPublishWithTask(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		ready := func(id string) bool { return getModel(t, e, id)["ready"] == true }

		// A completed creating task is published with the model.
		done := putTask(t, e, taskFixture{status: "completed"})
		m1 := mkModel(t, e, "from completed", obj{"task": done})
		r := e.Call(t, "models.set_ready", obj{"model": m1}).OK(t)
		if r.Num("updated") != 1 || r.Str("published_task.id") != done || testenv.Get(r.Data, "published_task.data.updated") != 1.0 ||
			testenv.Get(r.Data, "published_task.data.fields.status") != "published" {
			t.Fatalf("set_ready answer: %s", r.Raw)
		}
		if !ready(m1) || getTask(t, e, done).Status != "published" || getTask(t, e, done).Published == nil {
			t.Fatalf("model ready and task published expected")
		}
		e.Call(t, "models.set_ready", obj{"model": m1}).Err(t, 400, 203)

		// A running task refuses without force: the model stays a draft.
		running := putTask(t, e, taskFixture{status: "in_progress"})
		m2 := mkModel(t, e, "from running", obj{"task": running})
		e.Call(t, "models.set_ready", obj{"model": m2}).Err(t, 400, 110)
		if ready(m2) || getTask(t, e, running).Status != "in_progress" {
			t.Fatal("refused publish changed something")
		}
		r = e.Call(t, "models.set_ready", obj{"model": m2, "force_publish_task": true}).OK(t)
		if !ready(m2) || getTask(t, e, running).Status != "published" || r.Str("published_task.id") != running {
			t.Fatalf("forced publish: %s", r.Raw)
		}

		// publish_task false (the SDK's Model.publish) leaves the task alone.
		other := putTask(t, e, taskFixture{status: "in_progress"})
		m3 := mkModel(t, e, "sdk publish", obj{"task": other})
		r = e.Call(t, "models.set_ready", obj{"model": m3, "publish_task": false}).OK(t)
		if _, ok := r.Data["published_task"]; ok || !ready(m3) || getTask(t, e, other).Status != "in_progress" {
			t.Fatalf("publish_task false: %s", r.Raw)
		}
		// A task already published is not published again.
		m4 := mkModel(t, e, "second of published", obj{"task": done})
		if r := e.Call(t, "models.set_ready", obj{"model": m4}).OK(t); r.Data["published_task"] != nil {
			t.Fatalf("published task republished: %s", r.Raw)
		}
		// No task: just ready.
		m5 := mkModel(t, e, "no task", nil)
		e.Call(t, "models.set_ready", obj{"model": m5}).OK(t)
		e.Call(t, "models.set_ready", obj{"model": "nope"}).Err(t, 400, 201)
		e.Call(t, "models.set_ready", obj{}).Err(t, 400, 12)

		// publish_many: per-id results, failures do not stop the rest.
		t1 := putTask(t, e, taskFixture{status: "stopped"})
		t2 := putTask(t, e, taskFixture{status: "created"})
		p1 := mkModel(t, e, "many one", obj{"task": t1})
		p2 := mkModel(t, e, "many two", obj{"task": t2})
		p3 := mkModel(t, e, "many three", nil)
		r = e.Call(t, "models.publish_many", obj{"ids": []string{p1, p2, p3, m5}}).OK(t)
		if len(r.List("succeeded")) != 2 || len(r.List("failed")) != 2 {
			t.Fatalf("publish_many: %s", r.Raw)
		}
		byID := map[string]map[string]any{}
		for _, it := range r.List("succeeded") {
			m := it.(map[string]any)
			byID[m["id"].(string)] = m
		}
		if byID[p1]["updated"] != true || testenv.Get(byID[p1], "published_task.id") != t1 || byID[p3]["published_task"] != nil {
			t.Fatalf("publish_many items: %s", r.Raw)
		}
		codes := map[string]any{}
		for _, it := range r.List("failed") {
			f := it.(map[string]any)
			codes[f["id"].(string)] = testenv.Get(f, "error.codes.1")
		}
		if codes[p2] != 110.0 || codes[m5] != 203.0 || ready(p2) || getTask(t, e, t2).Status != "created" {
			t.Fatalf("publish_many failures: %s", r.Raw)
		}
		r = e.Call(t, "models.publish_many", obj{"ids": []string{p2}, "force_publish_task": true}).OK(t)
		if len(r.List("succeeded")) != 1 || getTask(t, e, t2).Status != "published" {
			t.Fatalf("forced publish_many: %s", r.Raw)
		}
		p4 := mkModel(t, e, "many four", obj{"task": putTask(t, e, taskFixture{status: "created"})})
		r = e.Call(t, "models.publish_many", obj{"ids": []string{p4}, "publish_tasks": false}).OK(t)
		if len(r.List("succeeded")) != 1 || !ready(p4) {
			t.Fatalf("publish_many without tasks: %s", r.Raw)
		}
		e.Call(t, "models.publish_many", obj{"ids": []string{}}).Err(t, 400, 12)
	})
}
