package models_test

import (
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// TestModelSideOfOtherServices covers what other services do to models,
// through their operations: tasks.publish readies the output model,
// tasks.delete/reset remove draft output models, and project and
// organization reads count and list models.
func TestModelSideOfOtherServices(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		ready := func(id string) bool { return getModel(t, e, id)["ready"] == true }

		// tasks.publish makes the task's (last) output model ready, unless publish_model is false.
		done := putTask(t, e, taskFixture{status: "completed"})
		out := mkModel(t, e, "publish me", obj{"task": done})
		putOutputs(t, e, done, out)
		e.Call(t, "tasks.publish", obj{"task": done}).OK(t)
		if !ready(out) {
			t.Fatal("tasks.publish did not ready the output model")
		}
		done2 := putTask(t, e, taskFixture{status: "completed"})
		out2 := mkModel(t, e, "stay draft", obj{"task": done2})
		putOutputs(t, e, done2, out2)
		e.Call(t, "tasks.publish", obj{"task": done2, "publish_model": false}).OK(t)
		if ready(out2) {
			t.Fatal("publish_model false readied the model")
		}

		// tasks.delete removes its draft output models unless another task uses them as input.
		victim := putTask(t, e, taskFixture{status: "created"})
		draft := mkModel(t, e, "draft of victim", obj{"task": victim})
		shared := mkModel(t, e, "shared draft", obj{"task": victim})
		putOutputs(t, e, victim, draft, shared)
		reportModelScalar(t, e, draft)
		reportModelScalar(t, e, shared)
		putTask(t, e, taskFixture{inputs: []string{shared}})
		e.Call(t, "tasks.delete", obj{"task": victim}).OK(t)
		e.Call(t, "models.get_by_id", obj{"model": draft}).Err(t, 400, 201)
		if m := getModel(t, e, shared); m["task"] != nil {
			t.Fatalf("a model used elsewhere is kept without its task: %v", m["task"])
		}
		// The deleted draft loses its events; the kept model keeps its.
		if n := modelSeries(t, e, draft); n != 0 {
			t.Fatalf("%d event series of the deleted draft left", n)
		}
		if n := modelSeries(t, e, shared); n != 1 {
			t.Fatalf("the kept model has %d event series, want 1", n)
		}

		// tasks.reset deletes the draft output models too; ready ones block without force.
		rerun := putTask(t, e, taskFixture{status: "stopped"})
		rerunDraft := mkModel(t, e, "rerun draft", obj{"task": rerun})
		putOutputs(t, e, rerun, rerunDraft)
		e.Call(t, "tasks.reset", obj{"task": rerun}).OK(t)
		e.Call(t, "models.get_by_id", obj{"model": rerunDraft}).Err(t, 400, 201)

		// Input use recorded through the tasks API blocks a delete, and stops
		// blocking once the task drops the input.
		consumer := e.Call(t, "tasks.create", obj{"name": "consumer", "type": "training"}).OK(t).Str("id")
		weights := mkModel(t, e, "weights in use", nil)
		e.Call(t, "tasks.add_or_update_model", obj{"task": consumer, "name": "pretrained", "model": weights, "type": "input"}).OK(t)
		e.Call(t, "models.delete", obj{"model": weights}).Err(t, 400, 205)
		e.Call(t, "tasks.delete_models", obj{"task": consumer, "models": []obj{{"name": "pretrained", "type": "input"}}}).OK(t)
		e.Call(t, "models.delete", obj{"model": weights}).OK(t)
		weights2 := mkModel(t, e, "weights of deleted task", nil)
		e.Call(t, "tasks.add_or_update_model", obj{"task": consumer, "name": "again", "model": weights2, "type": "input"}).OK(t)
		e.Call(t, "tasks.delete", obj{"task": consumer, "force": true}).OK(t)
		e.Call(t, "models.delete", obj{"model": weights2}).OK(t)

		// Project and organization reads see models.
		pid := mkProject(t, e, "with models")
		mkModel(t, e, "tagged one", obj{"project": pid, "tags": []string{"m-tag"}, "system_tags": []string{"m-sys"}})
		mkModel(t, e, "tagged two", obj{"project": pid, "tags": []string{"m-other"}, "system_tags": []string{"archived"}})
		r := e.Call(t, "projects.get_model_tags", obj{"projects": []string{pid}, "include_system": true}).OK(t)
		if tags := r.List("tags"); len(tags) != 2 || tags[0] != "m-other" || tags[1] != "m-tag" || len(r.List("system_tags")) != 2 {
			t.Fatalf("projects.get_model_tags: %s", r.Raw)
		}
		if r := e.Call(t, "organization.get_tags", nil).OK(t); !contains(r.List("tags"), "m-tag") {
			t.Fatalf("organization.get_tags misses model tags: %s", r.Raw)
		}
		r = e.Call(t, "projects.get_all_ex", obj{"id": []string{pid}, "check_own_contents": true}).OK(t)
		if r.Num("projects.0.own_models") != 1 {
			t.Fatalf("own_models counts active models: %s", r.Raw)
		}
		// projects.delete: active models block without force; delete_contents deletes them.
		e.Call(t, "projects.delete", obj{"project": pid}).Err(t, 400, 405)
		r = e.Call(t, "projects.delete", obj{"project": pid, "force": true, "delete_contents": true}).OK(t)
		if r.Num("deleted_models") != 2 || len(r.List("urls.model_urls")) != 2 {
			t.Fatalf("projects.delete with contents: %s", r.Raw)
		}
		if n := len(e.Call(t, "models.get_all", obj{"project": []string{pid}}).OK(t).List("models")); n != 0 {
			t.Fatalf("%d models left in a deleted project", n)
		}
	})
}

func contains(list []any, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
