package models_test

import (
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

func TestUpdateForTaskAndGetByTaskID(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		pid := mkProject(t, e, "for/task")
		parent := mkModel(t, e, "pretrained", nil)
		task := putTask(t, e, taskFixture{name: "trainer", status: "in_progress", project: pid, inputs: []string{parent},
			framework: "TensorFlow", labels: map[string]int64{"cat": 1}, design: map[string]any{"design": "net"}})

		e.Call(t, "models.get_by_task_id", obj{"task": task}).Err(t, 400, 122)

		// uri with no output model yet: a model is made from the task.
		r := e.Call(t, "models.update_for_task", obj{"task": task, "uri": "file:///out/w1.pt", "iteration": 12}).OK(t)
		id := r.Str("id")
		if r.Data["created"] != true || id == "" {
			t.Fatalf("create answer: %s", r.Raw)
		}
		m := getModel(t, e, id)
		if m["name"] != "trainer" || m["comment"] != "Created by task `trainer` ("+task+")" || m["project"] != pid || m["task"] != task ||
			m["framework"] != "TensorFlow" || m["parent"] != parent || testenv.Get(m, "labels.cat") != 1.0 ||
			testenv.Get(m, "design.design") != "net" || m["ready"] != false || m["uri"] != "file:///out/w1.pt" {
			t.Fatalf("model from task: %v", m)
		}
		tk := getTask(t, e, task)
		if len(tk.Models.Output) != 1 || tk.Models.Output[0].Model != id || tk.Models.Output[0].Name != "Output Model" || tk.LastIteration != 12 {
			t.Fatalf("task output: %+v last_iteration %d", tk.Models.Output, tk.LastIteration)
		}
		// uri again: the task's output model is updated.
		r = e.Call(t, "models.update_for_task", obj{"task": task, "uri": "file:///out/w2.pt", "name": "named", "tags": []string{"v2"}}).OK(t)
		if r.Data["created"] != false || r.Str("id") != id || r.Num("updated") != 1 || testenv.Get(r.Data, "fields.uri") != "file:///out/w2.pt" {
			t.Fatalf("update answer: %s", r.Raw)
		}
		if m := getModel(t, e, id); m["uri"] != "file:///out/w2.pt" || m["name"] != "named" || len(m["tags"].([]any)) != 1 {
			t.Fatalf("updated model: %v", m)
		}
		// get_by_task_id reads the last output model, at every version.
		for _, path := range []string{"models.get_by_task_id", "v2.13/models.get_by_task_id", "v2.23/models.get_by_task_id"} {
			if g := e.Call(t, path, obj{"task": task}).OK(t); g.Str("model.id") != id {
				t.Fatalf("%s: %s", path, g.Raw)
			}
		}
		// override_model_id points the task's output at another model.
		other := mkModel(t, e, "override", nil)
		r = e.Call(t, "v2.23/models.update_for_task", obj{"task": task, "override_model_id": other}).OK(t)
		if r.Str("id") != other {
			t.Fatalf("override answer: %s", r.Raw)
		}
		if outs := getTask(t, e, task).Models.Output; len(outs) != 1 || outs[0].Model != other {
			t.Fatalf("override output: %+v", outs)
		}
		if g := e.Call(t, "models.get_by_task_id", obj{"task": task}).OK(t); g.Str("model.id") != other {
			t.Fatalf("get_by_task_id after override: %s", g.Raw)
		}

		// Bad input, nothing written.
		published := putTask(t, e, taskFixture{status: "published"})
		cases := []struct {
			name    string
			op      string
			body    obj
			code    int
			subcode int
			msg     string
		}{
			{"neither uri nor override", "models.update_for_task", obj{"task": task}, 400, 11, "override_model_id"},
			{"both uri and override", "models.update_for_task", obj{"task": task, "uri": "x", "override_model_id": other}, 400, 11, "uri"},
			{"missing task", "models.update_for_task", obj{"uri": "x"}, 400, 12, "task"},
			{"unknown task", "models.update_for_task", obj{"task": "nope", "uri": "x"}, 400, 101, "nope"},
			{"published task", "models.update_for_task", obj{"task": published, "uri": "x"}, 400, 110, "published"},
			{"unknown override model", "models.update_for_task", obj{"task": task, "override_model_id": "nope"}, 400, 201, "nope"},
			{"get_by_task_id unknown task", "models.get_by_task_id", obj{"task": "nope"}, 400, 101, "nope"},
			{"get_by_task_id no task", "models.get_by_task_id", obj{}, 400, 12, "task"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				r := e.Call(t, tc.op, tc.body).Err(t, tc.code, tc.subcode)
				if !strings.Contains(r.Msg(), tc.msg) {
					t.Fatalf("message does not name %s: %s", tc.msg, r.Msg())
				}
			})
		}
		if outs := getTask(t, e, task).Models.Output; len(outs) != 1 || outs[0].Model != other {
			t.Fatalf("refused calls changed the task: %+v", outs)
		}
		// An output model that is gone: 400/201.
		gone := putTask(t, e, taskFixture{outputs: []string{"missing-model"}})
		e.Call(t, "models.get_by_task_id", obj{"task": gone}).Err(t, 400, 201)
	})
}
