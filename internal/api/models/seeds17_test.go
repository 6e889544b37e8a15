package models_test

import (
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// Seed document 3, models.get_all: "refresh_scroll (boolean), scroll_id
// (string), size (integer, minimum 1) | models (models.model[]), scroll_id";
// get_all_ex answers "models, scroll_id". Document 1, limits: size
// "minimum 1".
func TestSeedModelsScrollSize(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		p := mkProject(t, e, "scrolled")
		for _, n := range []string{"m-a", "m-b", "m-c"} {
			mkModel(t, e, n, obj{"project": p})
		}
		for _, op := range []string{"models.get_all", "models.get_all_ex"} {
			first := e.Call(t, op, obj{"project": []string{p}, "size": 2, "order_by": []string{"name"}}).OK(t)
			id := first.Str("scroll_id")
			if len(first.List("models")) != 2 || id == "" {
				t.Fatalf("%s with size: a page of 2 and a scroll_id: %s", op, first.Raw)
			}
			next := e.Call(t, op, obj{"project": []string{p}, "size": 2, "order_by": []string{"name"}, "scroll_id": id}).OK(t)
			if len(next.List("models")) != 1 || next.Str("models.0.name") != "m-c" {
				t.Fatalf("%s second page: %s", op, next.Raw)
			}
			// Every answer carries a scroll_id, also without size.
			if all := e.Call(t, op, obj{"project": []string{p}}).OK(t); len(all.List("models")) != 3 || all.Str("scroll_id") == "" {
				t.Fatalf("%s without size: %s", op, all.Raw)
			}
			e.Call(t, op, obj{"size": 0}).Err(t, 400, 12)
			e.Call(t, op, obj{"size": -1, "scroll_id": id}).Err(t, 400, 12)
		}
	})
}

// Seed document 3, models.update_for_task answers "created (boolean),
// fields, id, updated"; override_model_id "updates that model in the
// task" and creates none.
func TestSeedUpdateForTaskAnswer(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		task := putTask(t, e, taskFixture{name: "for task", status: "in_progress"})
		check := func(r *testenv.Response, created bool) {
			t.Helper()
			for _, k := range []string{"created", "fields", "id", "updated"} {
				if _, ok := r.Data[k]; !ok {
					t.Fatalf("answer lacks %s: %s", k, r.Raw)
				}
			}
			if r.Data["created"] != created {
				t.Fatalf("created should be %v: %s", created, r.Raw)
			}
		}
		check(e.Call(t, "models.update_for_task", obj{"task": task, "uri": "file:///a.pt"}).OK(t), true)
		check(e.Call(t, "models.update_for_task", obj{"task": task, "uri": "file:///b.pt"}).OK(t), false)
		other := mkModel(t, e, "override target", nil)
		r := e.Call(t, "models.update_for_task", obj{"task": task, "override_model_id": other}).OK(t)
		check(r, false)
		if r.Str("id") != other {
			t.Fatalf("override answers the model: %s", r.Raw)
		}
	})
}
