package tasks_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/events"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
	"github.com/trove-ml/trove/internal/tasks"
)

// report stores events of tasks or models through the ingester.
func report(t *testing.T, d *domain.Env, evs ...map[string]any) {
	t.Helper()
	var lines [][]byte
	for _, ev := range evs {
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, b)
	}
	res, err := (&events.Ingester{DB: d.DB, Now: d.Now}).Ingest(ctx, events.Batch{Company: "c1", User: "u1", Lines: lines})
	if err != nil || res.ErrorCount() > 0 {
		t.Fatalf("report: %+v %v", res, err)
	}
}

// seeded is a queued task with an output and an input artifact, a draft
// output model, events (one with a file) and a model event.
func seeded(t *testing.T, d *domain.Env, id string) {
	t.Helper()
	putQueue(t, d, "q-"+id, "default-"+id)
	out, in := "file:///a/"+id+"-out.bin", "file:///a/"+id+"-in.bin"
	putTask(t, d, id, tasks.Created, runnable, func(tk *store.Task) {
		tk.Execution.Artifacts = []*store.Artifact{{Key: "o", Type: "t", Mode: "output", URI: &out}, {Key: "i", Type: "t", Mode: "input", URI: &in}}
		tk.Models.Output = []*store.TaskModelItem{{Name: "m", Model: "m-" + id}}
	})
	now := d.Time()
	tx(t, d, func(q store.Querier) error {
		return d.DB.Models().Insert(ctx, q, &store.Model{ID: "m-" + id, Company: "c1", User: "u1", Name: "m", Task: id,
			URI: "file:///m/" + id + ".pt", Created: now, LastUpdate: now, LastChange: now})
	})
	tx(t, d, func(q store.Querier) error {
		_, err := tasks.Enqueue(ctx, d, q, tasks.EnqueueRequest{StatusRequest: req(id), Queue: "q-" + id})
		return err
	})
	report(t, d,
		map[string]any{"type": "training_stats_scalar", "task": id, "metric": "loss", "variant": "v", "iter": 1, "value": 1},
		map[string]any{"type": "training_debug_image", "task": id, "metric": "img", "variant": "v", "iter": 1, "url": "https://files/" + id + ".png"})
	report(t, d, map[string]any{"type": "training_stats_scalar", "model_event": true, "task": "m-" + id, "metric": "m", "variant": "v", "iter": 1, "value": 1})
}

// series counts the event series of a task or model.
func series(t *testing.T, d *domain.Env, id string) int {
	t.Helper()
	s, err := eventstore.Of(d.DB).TaskSeries(ctx, d.DB.Read(), id)
	if err != nil {
		t.Fatal(err)
	}
	return len(s)
}

func entries(t *testing.T, d *domain.Env, queue string) int {
	t.Helper()
	e, err := d.DB.QueueEntries(ctx, d.DB.Read(), queue, 0)
	if err != nil {
		t.Fatal(err)
	}
	return len(e)
}

// TestDeleteCascade: tasks.delete refuses children without force; with
// force it removes the queue entry, the events, the draft output model
// with its events and the task, points the child at the deleted id and
// removes the output files after the commit.
func TestDeleteCascade(t *testing.T) {
	eachStore(t, func(t *testing.T, d *domain.Env, files *removed) {
		seeded(t, d, "v")
		putTask(t, d, "child", tasks.Created, func(tk *store.Task) { tk.Parent = "v" })
		r := tasks.DeleteRequest{StatusRequest: req("v"), DeleteOutputModels: true, DeleteFiles: true}
		if _, err := tasks.Delete(ctx, d, r); !apierr.Is(err, 400, 123) {
			t.Fatalf("delete with a child: %v", err)
		}
		if len(files.urls) != 0 || entries(t, d, "q-v") != 1 || series(t, d, "v") == 0 {
			t.Fatalf("a refused delete changed something: files %v", files.urls)
		}
		r.Force = true
		res, err := tasks.Delete(ctx, d, r)
		if err != nil {
			t.Fatal(err)
		}
		if res.Events == 0 || res.DeletedModels != 1 || res.UpdatedChildren != 1 {
			t.Fatalf("result %+v", res)
		}
		// The answer's event_urls stay empty (as the reference answers); the files still go.
		if len(res.URLs.EventURLs) != 0 || !slices.Equal(res.EventFiles, []string{"https://files/v.png"}) {
			t.Fatalf("event urls %v, event files %v", res.URLs.EventURLs, res.EventFiles)
		}
		if _, err := d.DB.Tasks().Get(ctx, d.DB.Read(), "v"); err == nil {
			t.Fatal("task kept")
		}
		if _, err := d.DB.Models().Get(ctx, d.DB.Read(), "m-v"); err == nil {
			t.Fatal("draft output model kept")
		}
		if entries(t, d, "q-v") != 0 || series(t, d, "v") != 0 || series(t, d, "m-v") != 0 {
			t.Fatal("queue entry or events kept")
		}
		if p := getTask(t, d, "child").Parent; p != tasks.DeletedPrefix+"v" {
			t.Fatalf("child parent %q", p)
		}
		slices.Sort(files.urls)
		want := []string{"file:///a/v-out.bin", "file:///m/v.pt", "https://files/v.png"}
		if !slices.Equal(files.urls, want) {
			t.Fatalf("removed files %v, want %v", files.urls, want)
		}
	})
}

// TestResetCascade: tasks.reset dequeues, deletes events and the draft
// output model, and brings the task back to created.
func TestResetCascade(t *testing.T) {
	eachStore(t, func(t *testing.T, d *domain.Env, files *removed) {
		seeded(t, d, "r")
		res, err := tasks.Reset(ctx, d, tasks.ResetRequest{StatusRequest: req("r"), DeleteOutputModels: true, DeleteFiles: true})
		if err != nil {
			t.Fatal(err)
		}
		if res.Dequeued == nil || *res.Dequeued != 1 || res.Cleanup.DeletedModels != 1 || res.Cleanup.Events == 0 {
			t.Fatalf("result %+v %+v", res, res.Cleanup)
		}
		got := getTask(t, d, "r")
		if got.Status != tasks.Created || *got.StatusReason != "reset" || len(got.Models.Output) != 0 || len(got.Execution.Artifacts) != 1 {
			t.Fatalf("reset task %+v", got)
		}
		if entries(t, d, "q-r") != 0 || series(t, d, "r") != 0 || series(t, d, "m-r") != 0 {
			t.Fatal("queue entry or events kept")
		}
		if len(files.urls) != 3 || slices.Contains(files.urls, "file:///a/r-in.bin") {
			t.Fatalf("removed files %v", files.urls)
		}
	})
}

// TestDeleteTasks: the bulk deletion of a project's contents removes the
// rows, queue entries and events, gathers the output artifact URLs (input
// artifacts are other tasks' files) and returns
// the event files apart (removed, never answered).
func TestDeleteTasks(t *testing.T) {
	eachStore(t, func(t *testing.T, d *domain.Env, files *removed) {
		seeded(t, d, "b")
		urls := domain.NewFileURLs()
		var n int
		var eventFiles []string
		tx(t, d, func(q store.Querier) (err error) {
			n, eventFiles, err = tasks.DeleteTasks(ctx, d, q, []string{"b", "missing"}, urls)
			return
		})
		if n != 1 || entries(t, d, "q-b") != 0 || series(t, d, "b") != 0 {
			t.Fatalf("deleted %d", n)
		}
		slices.Sort(urls.ArtifactURLs)
		if !slices.Equal(urls.ArtifactURLs, []string{"file:///a/b-out.bin"}) || len(urls.EventURLs) != 0 ||
			!slices.Equal(eventFiles, []string{"https://files/b.png"}) {
			t.Fatalf("urls %+v, event files %v", urls, eventFiles)
		}
		if len(files.urls) != 0 {
			t.Fatal("DeleteTasks removed files itself (the caller does, after commit)")
		}
	})
}
