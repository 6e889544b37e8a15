package tasks_test

import (
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// TestLegacyParameters covers execution.parameters and model_desc of API
// versions before 2.9: written as legacy-typed hyperparams and
// configuration, read back flat by old callers, replaced as a whole by an
// old edit (the reference's behaviour; the seeds do not cover old versions).
func TestLegacyParameters(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		id := mkTask(t, e, "legacy params", obj{"execution": obj{
			"parameters": obj{"legacy.1": "val1", "TF_DEFINE/param2": "val2"},
			"model_desc": obj{"design": "hello"}}})
		readOld := func(op string) map[string]any {
			t.Helper()
			if op == "tasks.get_by_id" {
				return e.Call(t, "v2.8/"+op, obj{"task": id}).OK(t).Data["task"].(map[string]any)
			}
			return e.Call(t, "v2.8/"+op, obj{"id": []string{id}}).OK(t).List("tasks")[0].(map[string]any)
		}
		for _, op := range []string{"tasks.get_all_ex", "tasks.get_all", "tasks.get_by_id"} {
			t.Run("old read "+op, func(t *testing.T) {
				got := readOld(op)
				if mustJSON(testenv.Get(got, "execution.parameters")) != mustJSON(obj{"legacy.1": "val1", "TF_DEFINE/param2": "val2"}) ||
					mustJSON(testenv.Get(got, "execution.model_desc")) != mustJSON(obj{"design": "hello"}) {
					t.Fatalf("legacy execution: %v", got["execution"])
				}
				if testenv.Get(got, "hyperparams.TF_DEFINE.param2.value") != "val2" || testenv.Get(got, "configuration.design.value") != "hello" {
					t.Fatalf("new fields: %v %v", got["hyperparams"], got["configuration"])
				}
			})
		}
		t.Run("new read keeps execution.parameters empty", func(t *testing.T) {
			got := getTask(t, e, id)
			if mustJSON(testenv.Get(got, "execution.parameters")) != "{}" {
				t.Fatalf("execution: %v", got["execution"])
			}
		})
		t.Run("old edit replaces the legacy items", func(t *testing.T) {
			e.Call(t, "v2.8/tasks.edit", obj{"task": id, "execution": obj{"parameters": obj{"legacy.2": "val2"}, "model_desc": obj{"design": "by"}}}).OK(t)
			got := readOld("tasks.get_all_ex")
			if mustJSON(testenv.Get(got, "execution.parameters")) != mustJSON(obj{"legacy.2": "val2"}) ||
				mustJSON(testenv.Get(got, "execution.model_desc")) != mustJSON(obj{"design": "by"}) {
				t.Fatalf("after edit: %v", got["execution"])
			}
			hp := got["hyperparams"].(map[string]any)
			args, _ := hp["Args"].(map[string]any)
			if len(hp) != 1 || len(args) != 1 || args["legacy.2"] == nil {
				t.Fatalf("hyperparams after edit: %v", hp)
			}
		})
	})
}

// TestLegacyTagFolding covers API versions before 2.3, which know no
// system_tags (the reference's behaviour): an old caller's system tags
// travel among its tags, are stored as system tags, read back folded
// into tags, filter as system tags, and an old update of tags replaces
// both lists.
func TestLegacyTagFolding(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		for _, c := range []struct {
			service, entity, systemTag string
			create                     obj
		}{
			{"tasks", "task", "development", obj{"name": "Legacy tags", "type": "testing"}},
			{"models", "model", "archived", obj{"name": "Legacy tags", "uri": "file:///m"}},
			{"projects", "project", "public", obj{"name": "Legacy tags", "description": "d"}},
		} {
			t.Run(c.service, func(t *testing.T) {
				old := func(op string, body obj) *testenv.Response {
					return e.Call(t, "v2.2/"+c.service+"."+op, body)
				}
				body := obj{"tags": []string{c.systemTag, "test"}}
				for k, v := range c.create {
					body[k] = v
				}
				id := old("create", body).OK(t).Str("id")
				byID := obj{c.entity: id}
				if got := mustJSON(old("get_by_id", byID).OK(t).Data[c.entity].(map[string]any)["tags"]); got != mustJSON([]string{c.systemTag, "test"}) {
					t.Fatalf("old read: tags %s", got)
				}
				cur := e.Call(t, c.service+".get_by_id", byID).OK(t).Data[c.entity].(map[string]any)
				if mustJSON(cur["tags"]) != `["test"]` || mustJSON(cur["system_tags"]) != mustJSON([]string{c.systemTag}) {
					t.Fatalf("stored split: tags %v, system_tags %v", cur["tags"], cur["system_tags"])
				}
				list := old("get_all", obj{"name": "^Legacy tags$", "tags": []string{"-" + c.systemTag}}).OK(t).List(c.service)
				for _, it := range list {
					if it.(map[string]any)["id"] == id {
						t.Fatal("an old exclusion of a system tag did not exclude it")
					}
				}
				old("update", obj{c.entity: id, "tags": []string{"test"}}).OK(t)
				cur = e.Call(t, c.service+".get_by_id", byID).OK(t).Data[c.entity].(map[string]any)
				if mustJSON(cur["tags"]) != `["test"]` || mustJSON(cur["system_tags"]) != `[]` {
					t.Fatalf("after old update: tags %v, system_tags %v", cur["tags"], cur["system_tags"])
				}
			})
		}
	})
}
