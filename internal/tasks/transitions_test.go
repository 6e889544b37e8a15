package tasks_test

import (
	"slices"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/tasks"
)

func req(id string) tasks.StatusRequest {
	return tasks.StatusRequest{Company: "c1", User: "u1", UserName: "Ann", Task: id}
}

// TestOperations: the fields each operation adds to its status change.
func TestOperations(t *testing.T) {
	eachStore(t, func(t *testing.T, d *domain.Env, _ *removed) {
		putTask(t, d, "run", tasks.Queued)
		var up *domain.Update
		tx(t, d, func(q store.Querier) (err error) { up, err = tasks.Started(ctx, d, q, req("run")); return })
		if up.Fields["started"] == nil || getTask(t, d, "run").Started == nil {
			t.Fatalf("started not set: %v", up.Fields)
		}
		tx(t, d, func(q store.Querier) (err error) { up, err = tasks.MarkCompleted(ctx, d, q, req("run")); return })
		if up.Fields["completed"] == nil || getTask(t, d, "run").Status != tasks.Completed {
			t.Fatalf("completed: %v", up.Fields)
		}
		// completed again is left alone unless forced
		tx(t, d, func(q store.Querier) (err error) { up, err = tasks.MarkCompleted(ctx, d, q, req("run")); return })
		if up.Updated != 0 {
			t.Fatalf("completed twice: %+v", up)
		}

		// A task a live worker runs keeps its status and is asked to stop.
		putTask(t, d, "live", tasks.InProgress, func(tk *store.Task) {
			tk.LastWorker, tk.LastUpdate = "w1", jsonx.Time{Time: clockStart.Add(-time.Minute)}
		})
		tx(t, d, func(q store.Querier) (err error) { _, err = tasks.Stop(ctx, d, q, req("live")); return })
		if got := getTask(t, d, "live"); got.Status != tasks.InProgress || *got.StatusMessage != tasks.StoppingMessage {
			t.Fatalf("live stop: %s %q", got.Status, *got.StatusMessage)
		}
		// Without a live worker it stops at once.
		putTask(t, d, "idle", tasks.InProgress)
		tx(t, d, func(q store.Querier) (err error) { _, err = tasks.Stop(ctx, d, q, req("idle")); return })
		if got := getTask(t, d, "idle"); got.Status != tasks.Stopped || *got.StatusMessage != "Stopped by Ann" {
			t.Fatalf("idle stop: %s %q", got.Status, *got.StatusMessage)
		}
	})
}

// putQueue stores a queue of company c1.
func putQueue(t *testing.T, d *domain.Env, id string, systemTags ...string) {
	t.Helper()
	now := d.Time()
	tx(t, d, func(q store.Querier) error {
		return d.DB.Queues().Insert(ctx, q, &store.Queue{ID: id, Company: "c1", Name: id, Created: now, LastUpdate: now,
			Tags: []string{}, SystemTags: append([]string{}, systemTags...), Metadata: map[string]*store.MetadataItem{}})
	})
}

// samples counts the metrics samples of a queue.
func samples(t *testing.T, d *domain.Env, queue string) int {
	t.Helper()
	s, err := d.DB.TopQueueSamples(ctx, d.DB.Read(), store.QueueSampleRange{Company: "c1", Queues: []string{queue},
		From: 0, To: clockStart.Add(time.Hour).UnixMilli(), Bucket: 1})
	if err != nil {
		t.Fatal(err)
	}
	return len(s)
}

func runnable(tk *store.Task) {
	tk.Script.EntryPoint, tk.Script.Repository = "train.py", "https://example.com/r.git"
}

// TestEnqueueDequeue: enqueue finds the default queue, records the status
// before, and samples the queue's metrics; dequeue gives the status back.
func TestEnqueueDequeue(t *testing.T) {
	eachStore(t, func(t *testing.T, d *domain.Env, _ *removed) {
		putTask(t, d, "t1", tasks.Created, runnable)
		enqueue := func() error {
			return inTx(d, func(q store.Querier) error {
				_, err := tasks.Enqueue(ctx, d, q, tasks.EnqueueRequest{StatusRequest: req("t1")})
				return err
			})
		}
		if err := enqueue(); !apierr.Is(err, 400, 707) {
			t.Fatalf("enqueue without a default queue: %v", err)
		}
		putQueue(t, d, "qa", "default")
		if err := enqueue(); err != nil {
			t.Fatal(err)
		}
		got := getTask(t, d, "t1")
		if got.Status != tasks.Queued || got.Execution.Queue != "qa" || got.EnqueueStatus != tasks.Created {
			t.Fatalf("enqueued %s in %q from %q", got.Status, got.Execution.Queue, got.EnqueueStatus)
		}
		if n := samples(t, d, "qa"); n != 1 {
			t.Fatalf("%d samples after enqueue", n)
		}
		tx(t, d, func(q store.Querier) error {
			_, err := tasks.Dequeue(ctx, d, q, tasks.DequeueRequest{StatusRequest: req("t1")})
			return err
		})
		if got := getTask(t, d, "t1"); got.Status != tasks.Created {
			t.Fatalf("dequeued to %s", got.Status)
		}
		entries, err := d.DB.QueueEntries(ctx, d.DB.Read(), "qa", 0)
		if err != nil || len(entries) != 0 {
			t.Fatalf("entries %v %v", entries, err)
		}

		// Two default queues: 400/708 naming both.
		putQueue(t, d, "qb", "default")
		err = enqueue()
		if e := apierr.As(err); e == nil || e.Code != 400 || e.Subcode != 708 || !slices.Equal(e.Data["queues"].([]string), []string{"qa", "qb"}) {
			t.Fatalf("two default queues: %v", err)
		}
	})
}

// TestCompletePublish: completed with publish publishes a task that is
// completing now and one that was completed before (the completion is
// then a no-op and the publication is the update counted); without
// publish a completed task is left alone.
func TestCompletePublish(t *testing.T) {
	eachStore(t, func(t *testing.T, d *domain.Env, _ *removed) {
		putTask(t, d, "run", tasks.InProgress)
		res, err := tasks.Complete(ctx, d, req("run"), false)
		if err != nil || res.Updated != 1 || res.Published != 0 || res.Fields["status"] != tasks.Completed {
			t.Fatalf("complete: %+v %v", res, err)
		}
		res, err = tasks.Complete(ctx, d, req("run"), false)
		if err != nil || res.Updated != 0 || res.Published != 0 {
			t.Fatalf("complete again: %+v %v", res, err)
		}
		res, err = tasks.Complete(ctx, d, req("run"), true)
		if err != nil || res.Updated != 1 || res.Published != 1 || res.Fields["status"] != tasks.Published {
			t.Fatalf("complete again with publish: %+v %v", res, err)
		}
		if got := getTask(t, d, "run"); got.Status != tasks.Published || got.Published == nil {
			t.Fatalf("task after publish: %s %v", got.Status, got.Published)
		}
		// A published task is not completed again, so there is nothing to publish.
		if _, err := tasks.Complete(ctx, d, req("run"), true); !apierr.Is(err, 400, 110) {
			t.Fatalf("complete a published task: %v", err)
		}

		putTask(t, d, "fresh", tasks.InProgress)
		res, err = tasks.Complete(ctx, d, req("fresh"), true)
		if err != nil || res.Updated != 1 || res.Published != 1 || res.Fields["status"] != tasks.Published || res.Fields["completed"] == nil {
			t.Fatalf("complete with publish: %+v %v", res, err)
		}
	})
}
