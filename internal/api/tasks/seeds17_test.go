package tasks_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// Seed document 1, request conventions: "Names of operations and fields
// are case-sensitive and exact." A field spelled in another case is an
// unknown field: ignored, so a required field spelled so is missing.
func TestSeedFieldNamesAreExact(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		r := e.Call(t, "tasks.create", obj{"Name": "wrong case", "TYPE": "training"}).Err(t, 400, 12)
		if !strings.Contains(r.Msg(), "'name'") {
			t.Fatalf("want name reported missing: %s", r.Raw)
		}
		e.Call(t, "tasks.create", obj{"name": "n", "Type": "training"}).Err(t, 400, 12)

		// Exact names work, and a wrongly spelled optional field is ignored.
		id := mkTask(t, e, "exact", obj{"Comment": "ignored", "comment": "kept", "Tags": []string{"x"}})
		task := getTask(t, e, id)
		if task["comment"] != "kept" || mustJSON(task["tags"]) != `[]` {
			t.Fatalf("comment %v tags %v", task["comment"], task["tags"])
		}
		// Nested members are exact too: Script.Entry_Point is not entry_point.
		e.Call(t, "tasks.edit", obj{"task": id, "script": obj{"Entry_Point": "x.py", "repository": "r"}}).OK(t)
		if s, _ := getTask(t, e, id)["script"].(map[string]any); s["entry_point"] != nil && s["entry_point"] != "" {
			t.Fatalf("Entry_Point taken as entry_point: %v", s)
		}

		// Query-string parameters follow the same rule.
		auth := func(h http.Header) { h.Set("Authorization", "Bearer "+e.Token) }
		if got := e.Do(t, "tasks.get_by_id?task="+id, nil, auth).OK(t).Str("task.id"); got != id {
			t.Fatalf("query string: got %q", got)
		}
		e.Do(t, "tasks.get_by_id?Task="+id, nil, auth).Err(t, 400, 12)

		// And every line of a JSON-lines body.
		lines := func(body string) *testenv.Response { return e.Do(t, "tasks.update_batch", body, jsonLines(e.Token)) }
		lines(`{"task": "` + id + `", "name": "renamed", "Comment": "x"}` + "\n").OK(t)
		task = getTask(t, e, id)
		if task["name"] != "renamed" || task["comment"] != "kept" {
			t.Fatalf("update_batch: name %v comment %v", task["name"], task["comment"])
		}
		lines(`{"Task": "`+id+`", "name": "again"}`+"\n").Err(t, 400, 12)
	})
}

// Seed document 2, tasks.add_or_update_artifacts: "force (default false;
// without it only new tasks are editable)". The SDK sends force: true
// (clearml backend_interface/task/task.py, Task._add_artifacts).
func TestSeedAddArtifactsNeedsForceUnlessNew(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		art := []obj{{"key": "data", "type": "custom", "mode": "output", "uri": "file:///a"}}
		id := mkTask(t, e, "artifacts", nil)
		e.Call(t, "tasks.add_or_update_artifacts", obj{"task": id, "artifacts": art}).OK(t)
		e.Call(t, "tasks.started", obj{"task": id}).OK(t)
		e.Call(t, "tasks.add_or_update_artifacts", obj{"task": id, "artifacts": art}).Err(t, 400, 110)
		e.Call(t, "tasks.add_or_update_artifacts", obj{"task": id, "artifacts": art, "force": true}).OK(t)
	})
}

// Seed document 2, tasks.clone: "new_task_system_tags (string[]; empty
// when absent) ... Any new_task_* field that is absent is taken from the
// original task, except new_task_system_tags."
func TestSeedCloneSystemTagsEmptyWhenAbsent(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		src := mkTask(t, e, "clone me", obj{"tags": []string{"user"}, "system_tags": []string{"pipeline", "keep"}})
		c := getTask(t, e, e.Call(t, "tasks.clone", obj{"task": src}).OK(t).Str("id"))
		if mustJSON(c["system_tags"]) != `[]` || mustJSON(c["tags"]) != `["user"]` {
			t.Fatalf("clone: system_tags %v tags %v", c["system_tags"], c["tags"])
		}
		c = getTask(t, e, e.Call(t, "tasks.clone", obj{"task": src, "new_task_system_tags": []string{"given"}}).OK(t).Str("id"))
		if mustJSON(c["system_tags"]) != `["given"]` {
			t.Fatalf("given system tags: %v", c["system_tags"])
		}
	})
}

// Seed document 2, tasks.delete_many: "delete_output_models (boolean;
// documented default true; deletes output models not referenced by other
// tasks)"; succeeded items carry deleted_models.
func TestSeedDeleteManyDeletesOutputModels(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		withModel := func(name string) (task, model string) {
			task = mkTask(t, e, name, nil)
			model = e.Call(t, "models.create", obj{"name": name + " model", "uri": "file:///" + name, "task": task}).OK(t).Str("id")
			return task, model
		}
		modelGone := func(id string) bool {
			return e.Call(t, "models.get_by_id", obj{"model": id}).Status != 200
		}
		a, ma := withModel("default")
		r := e.Call(t, "tasks.delete_many", obj{"ids": []string{a}}).OK(t)
		if testenv.Get(r.Data, "succeeded.0.deleted_models") != 1.0 || !modelGone(ma) {
			t.Fatalf("default deletes the output model: %s", r.Raw)
		}
		b, mb := withModel("kept")
		r = e.Call(t, "tasks.delete_many", obj{"ids": []string{b}, "delete_output_models": false}).OK(t)
		if testenv.Get(r.Data, "succeeded.0.deleted_models") != 0.0 || modelGone(mb) {
			t.Fatalf("delete_output_models false keeps it: %s", r.Raw)
		}
		// A model another task uses is not deleted.
		c, mc := withModel("shared")
		mkTask(t, e, "user of shared", obj{"models": obj{"input": []obj{{"name": "in", "model": mc}}}})
		e.Call(t, "tasks.delete_many", obj{"ids": []string{c}}).OK(t)
		if modelGone(mc) {
			t.Fatal("a model used as input by another task was deleted")
		}
	})
}

// Seed document 2, tasks.clone: "validate_references (boolean; default
// false; false means fields copied from the original are not validated)".
func TestSeedCloneValidateReferences(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		model := e.Call(t, "models.create", obj{"name": "input model", "uri": "file:///in"}).OK(t).Str("id")
		src := mkTask(t, e, "source", obj{"models": obj{"input": []obj{{"name": "in", "model": model}}}})
		e.Call(t, "models.delete", obj{"model": model, "force": true}).OK(t)
		e.Call(t, "tasks.clone", obj{"task": src}).OK(t)
		// validated, the missing input model is an unknown model id
		e.Call(t, "tasks.clone", obj{"task": src, "validate_references": true}).Err(t, 400, 201)
	})
}

// Seed document 2, tasks.get_types: "projects (string[]; all company and
// public tasks when omitted or empty) | types (string[], unique)".
func TestSeedGetTypesAllTasks(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		mkTask(t, e, "one", nil)
		mkTask(t, e, "two", nil)
		pub := e.Call(t, "tasks.create", obj{"name": "public", "type": "testing"}).OK(t).Str("id")
		e.Call(t, "tasks.make_public", obj{"ids": []string{pub}}).OK(t)
		for _, body := range []obj{nil, {"projects": []string{}}} {
			if r := e.Call(t, "tasks.get_types", body).OK(t); mustJSON(r.List("types")) != `["testing","training"]` {
				t.Fatalf("types of %v: %s", body, r.Raw)
			}
		}
	})
}

// Seed document 2, tasks.delete: "urls (tasks.task_urls, when
// return_file_urls is true)"; tasks.reset answers urls likewise.
func TestSeedDeleteURLsOnlyWhenAsked(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		for _, op := range []string{"tasks.delete", "tasks.reset"} {
			plain := e.Call(t, op, obj{"task": mkTask(t, e, "plain", nil)}).OK(t)
			if _, ok := plain.Data["urls"]; ok {
				t.Fatalf("%s without return_file_urls: %s", op, plain.Raw)
			}
			asked := e.Call(t, op, obj{"task": mkTask(t, e, "asked", nil), "return_file_urls": true}).OK(t)
			if _, ok := asked.Data["urls"].(map[string]any); !ok {
				t.Fatalf("%s with return_file_urls: %s", op, asked.Raw)
			}
		}
	})
}

// Seed document 2, tasks.reset: "clear_all (boolean, default false; clears
// script and execution sections completely)".
func TestSeedResetClearAll(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		body := obj{"script": obj{"repository": "https://example.com/r.git", "entry_point": "train.py"},
			"execution": obj{"framework": "pytorch", "artifacts": []obj{{"key": "in", "type": "x", "mode": "input", "uri": "file:///i"}}}}
		kept, cleared := mkTask(t, e, "kept", body), mkTask(t, e, "cleared", body)
		e.Call(t, "tasks.reset", obj{"task": kept}).OK(t)
		e.Call(t, "tasks.reset", obj{"task": cleared, "clear_all": true}).OK(t)
		k := getTask(t, e, kept)
		if testenv.Get(k, "script.entry_point") != "train.py" || testenv.Get(k, "execution.framework") != "pytorch" ||
			len(testenv.Get(k, "execution.artifacts").([]any)) != 1 {
			t.Fatalf("reset without clear_all keeps script and execution: %v %v", k["script"], k["execution"])
		}
		c := getTask(t, e, cleared)
		empty := func(path string) bool { v := testenv.Get(c, path); return v == nil || v == "" }
		if !empty("script.entry_point") || !empty("script.repository") || !empty("execution.framework") ||
			len(mustList(testenv.Get(c, "execution.artifacts"))) != 0 {
			t.Fatalf("clear_all: %v %v", c["script"], c["execution"])
		}
	})
}

// Seed document 2, tasks.enqueue_many: "validate_tasks (boolean, default
// false)": without it the tasks' references are not checked.
func TestSeedEnqueueManyValidateTasks(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		model := e.Call(t, "models.create", obj{"name": "soon gone", "uri": "file:///m"}).OK(t).Str("id")
		body := obj{"script": obj{"repository": "https://example.com/r.git", "entry_point": "train.py"},
			"models": obj{"input": []obj{{"name": "in", "model": model}}}}
		a, b := mkTask(t, e, "unchecked", body), mkTask(t, e, "checked", body)
		e.Call(t, "models.delete", obj{"model": model, "force": true}).OK(t)
		r := e.Call(t, "tasks.enqueue_many", obj{"ids": []string{a}}).OK(t)
		if len(r.List("succeeded")) != 1 {
			t.Fatalf("default: references unchecked: %s", r.Raw)
		}
		r = e.Call(t, "tasks.enqueue_many", obj{"ids": []string{b}, "validate_tasks": true}).OK(t)
		if len(r.List("failed")) != 1 || status(t, e, b) != "created" {
			t.Fatalf("validate_tasks: the missing input model fails the task: %s", r.Raw)
		}
	})
}

func mustList(v any) []any {
	l, _ := v.([]any)
	return l
}
