package tasks_test

import (
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// TestDeleteRefusesPublished: rulings.md, tasks.delete: "the seeds'
// conditions, and also refuses a published task ... without force".
func TestDeleteRefusesPublished(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		id := mkTask(t, e, "published task", nil)
		e.Call(t, "tasks.started", obj{"task": id}).OK(t)
		e.Call(t, "tasks.stopped", obj{"task": id}).OK(t)
		e.Call(t, "tasks.publish", obj{"task": id}).OK(t)
		e.Call(t, "tasks.delete", obj{"task": id}).Err(t, 400, 123)
		if status(t, e, id) != "published" {
			t.Fatal("a refused delete changed the task")
		}
		if r := e.Call(t, "tasks.delete", obj{"task": id, "force": true}).OK(t); r.Data["deleted"] != true {
			t.Fatalf("forced delete: %s", r.Raw)
		}
	})
}

// TestDeleteAnswersFileURLs: the urls of a delete and of a reset name the
// deleted (draft) models and the output artifacts; event files are
// removed but not answered, as the reference answers.
func TestDeleteAnswersFileURLs(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		company := companyOf(t, e)
		withData := func(name string) string {
			id := mkTask(t, e, name, obj{"execution": obj{"artifacts": []obj{
				{"key": "in", "type": "x", "mode": "input", "uri": "http://files/" + name + "/in"},
				{"key": "out", "type": "x", "uri": "http://files/" + name + "/out"}}}})
			mkModel(t, e, company, id, "http://files/"+name+"/ready", true)
			mkModel(t, e, company, id, "http://files/"+name+"/draft", false)
			e.Call(t, "events.add", obj{"type": "training_debug_image", "task": id, "metric": "m", "variant": "v",
				"iter": 1, "url": "http://files/" + name + "/image.png"}).OK(t)
			return id
		}
		for _, op := range []string{"tasks.delete", "tasks.reset"} {
			t.Run(op, func(t *testing.T) {
				id := withData(op)
				r := e.Call(t, op, obj{"task": id, "force": true, "return_file_urls": true}).OK(t)
				if mustJSON(r.List("urls.model_urls")) != `["http://files/`+op+`/draft"]` ||
					mustJSON(r.List("urls.artifact_urls")) != `["http://files/`+op+`/out"]` ||
					mustJSON(r.List("urls.event_urls")) != `[]` || testenv.Get(r.Data, "events.deleted") != 1.0 {
					t.Fatalf("%s answer: %s", op, r.Raw)
				}
			})
		}
	})
}
