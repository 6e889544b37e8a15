package models_test

import (
	"context"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
	"github.com/trove-ml/trove/internal/testenv"
)

func TestDeleteRules(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		// A model used as an input model needs force; the users then point at the deleted id.
		in := mkModel(t, e, "input model", obj{"uri": "s3://b/in.pt"})
		bystander := mkModel(t, e, "bystander", nil)
		reportModelScalar(t, e, in)
		reportModelScalar(t, e, bystander)
		user1 := putTask(t, e, taskFixture{inputs: []string{in}})
		user2 := putTask(t, e, taskFixture{inputs: []string{"someone-else", in}})
		r := e.Call(t, "models.delete", obj{"model": in}).Err(t, 400, 205)
		if !strings.Contains(r.Msg(), "num_tasks=2") {
			t.Fatalf("205 message: %s", r.Msg())
		}
		getModel(t, e, in)
		r = e.Call(t, "models.delete", obj{"model": in, "force": true}).OK(t)
		if r.Data["deleted"] != true || r.Str("url") != "s3://b/in.pt" {
			t.Fatalf("delete answer: %s", r.Raw)
		}
		e.Call(t, "models.get_by_id", obj{"model": in}).Err(t, 400, 201)
		if m := getTask(t, e, user1).Models.Input[0].Model; m != "__DELETED__"+in {
			t.Fatalf("input entry not repointed: %s", m)
		}
		if ins := getTask(t, e, user2).Models.Input; ins[0].Model != "someone-else" || ins[1].Model != "__DELETED__"+in {
			t.Fatalf("only the deleted model's entry changes: %v %v", ins[0], ins[1])
		}
		// The deleted model's events go with it, and only its.
		if n := modelSeries(t, e, in); n != 0 {
			t.Fatalf("%d event series of the deleted model left", n)
		}
		if n := modelSeries(t, e, bystander); n != 1 {
			t.Fatalf("another model has %d event series, want 1", n)
		}

		// A published creating task needs force; its output entry then points at the deleted id.
		pub := putTask(t, e, taskFixture{status: "published"})
		out := mkModel(t, e, "published output", obj{"task": pub})
		putOutputs(t, e, pub, out)
		r = e.Call(t, "models.delete", obj{"model": out}).Err(t, 400, 206)
		if !strings.Contains(r.Msg(), pub) {
			t.Fatalf("206 names the task: %s", r.Msg())
		}
		e.Call(t, "models.delete", obj{"model": out, "force": true}).OK(t)
		pt := getTask(t, e, pub)
		if pt.Models.Output[0].Model != "__DELETED__"+out || pt.Output.Error == nil || !strings.HasPrefix(*pt.Output.Error, "model deleted on ") {
			t.Fatalf("published task after delete: %+v %v", pt.Models.Output[0], pt.Output.Error)
		}

		// An unpublished creating task just loses the output entry.
		draft := putTask(t, e, taskFixture{status: "completed"})
		out2 := mkModel(t, e, "draft output", obj{"task": draft})
		keep := mkModel(t, e, "other output", nil)
		putOutputs(t, e, draft, out2, keep)
		e.Call(t, "models.delete", obj{"model": out2}).OK(t)
		if outs := getTask(t, e, draft).Models.Output; len(outs) != 1 || outs[0].Model != keep {
			t.Fatalf("output entries after delete: %v", outs)
		}

		// delete_many: per-id results and rules.
		free := mkModel(t, e, "free", obj{"uri": "file:///free"})
		used := mkModel(t, e, "used", nil)
		putTask(t, e, taskFixture{inputs: []string{used}})
		r = e.Call(t, "models.delete_many", obj{"ids": []string{free, used, "nope"}}).OK(t)
		if len(r.List("succeeded")) != 1 || r.Str("succeeded.0.id") != free || r.Str("succeeded.0.url") != "file:///free" ||
			testenv.Get(r.Data, "succeeded.0.deleted") != true || len(r.List("failed")) != 2 {
			t.Fatalf("delete_many: %s", r.Raw)
		}
		codes := map[string]any{}
		for _, it := range r.List("failed") {
			f := it.(map[string]any)
			codes[f["id"].(string)] = testenv.Get(f, "error.codes.1")
		}
		if codes[used] != 205.0 || codes["nope"] != 201.0 {
			t.Fatalf("delete_many failures: %v", codes)
		}
		r = e.Call(t, "models.delete_many", obj{"ids": []string{used}, "force": true}).OK(t)
		if len(r.List("succeeded")) != 1 {
			t.Fatalf("forced delete_many: %s", r.Raw)
		}
		e.Call(t, "models.delete", obj{}).Err(t, 400, 12)
		e.Call(t, "models.delete_many", obj{"ids": []string{}}).Err(t, 400, 12)
	})
}

// putOutputs sets a stored task's output model entries.
func putOutputs(t *testing.T, e *testenv.Env, taskID string, models ...string) {
	t.Helper()
	tk := getTask(t, e, taskID)
	tk.Models.Output = nil
	for _, m := range models {
		tk.Models.Output = append(tk.Models.Output, &store.TaskModelItem{Name: "out-" + m[:6], Model: m})
	}
	if err := e.App.DB.Tasks().Update(context.Background(), e.App.DB.Write(), tk); err != nil {
		t.Fatal(err)
	}
}

// reportModelScalar reports one scalar event of a (draft) model.
func reportModelScalar(t *testing.T, e *testenv.Env, model string) {
	t.Helper()
	e.Call(t, "events.add", obj{"type": "training_stats_scalar", "model_event": true, "task": model,
		"metric": "loss", "variant": "train", "iter": 1, "value": 0.5}).OK(t)
}

// modelSeries counts the stored event series of a model.
func modelSeries(t *testing.T, e *testenv.Env, model string) int {
	t.Helper()
	series, err := eventstore.Of(e.App.DB).TaskSeries(context.Background(), e.App.DB.Read(), model)
	if err != nil {
		t.Fatal(err)
	}
	return len(series)
}
