package queues_test

import (
	"context"
	"testing"
	"time"

	taskdom "github.com/trove-ml/trove/internal/tasks"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain/domaintest"
	"github.com/trove-ml/trove/internal/queues"
	"github.com/trove-ml/trove/internal/store"
)

const company = domaintest.Company

func addTask(t *testing.T, e *domaintest.Env, id, status, queue string) {
	t.Helper()
	now := e.Time()
	task := &store.Task{ID: id, Company: company, User: domaintest.User, Name: "task " + id, Type: "training", Status: status,
		Created: now, LastUpdate: now, Execution: store.Execution{Queue: queue}}
	if err := e.DB.Tx(context.Background(), func(q store.Querier) error { return e.DB.Tasks().Insert(context.Background(), q, task) }); err != nil {
		t.Fatal(err)
	}
}

func taskStatus(t *testing.T, e *domaintest.Env, id string) (string, string) {
	t.Helper()
	task, err := e.DB.Tasks().Get(context.Background(), e.DB.Read(), id)
	if err != nil {
		t.Fatal(err)
	}
	return task.Status, task.Execution.Queue
}

func TestCreateUpdateDelete(t *testing.T) {
	domaintest.Each(t, func(t *testing.T, e *domaintest.Env) {
		ctx, d := context.Background(), &e.Env
		if _, err := queues.Create(ctx, d, company, queues.New{Name: " ab "}); !apierr.Is(err, 400, 800) {
			t.Fatalf("short name: %v", err)
		}
		id, err := queues.Create(ctx, d, company, queues.New{Name: " gpu ", Tags: []string{"b", "a", "b"}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := queues.Create(ctx, d, company, queues.New{Name: "gpu"}); !apierr.Is(err, 400, 801) {
			t.Fatalf("duplicate name: %v", err)
		}
		qu, entries, err := queues.WithEntries(ctx, d, company, id, 0)
		if err != nil || qu.Name != "gpu" || len(qu.Tags) != 2 || qu.Tags[0] != "a" || qu.Metadata == nil || len(entries) != 0 {
			t.Fatalf("created %+v %v %v", qu, entries, err)
		}
		if _, _, err := queues.WithEntries(ctx, d, "other-company", id, 0); !apierr.Is(err, 400, 701) {
			t.Fatalf("queue of another company: %v", err)
		}

		res, err := queues.Update(ctx, d, company, id, queues.Changes{})
		if err != nil || res.Updated != 0 {
			t.Fatalf("empty update %+v %v", res, err)
		}
		e.Clock = e.Clock.Add(time.Second)
		name := "gpu-large"
		res, err = queues.Update(ctx, d, company, id, queues.Changes{Name: &name})
		if err != nil || res.Updated != 1 || res.Fields["name"] != name || res.Fields["last_update"] == nil {
			t.Fatalf("rename %+v %v", res, err)
		}

		addTask(t, e, "t1", "queued", id)
		if err := queues.AddTask(ctx, d, company, id, "t1", true); err != nil {
			t.Fatal(err)
		}
		if err := taskdom.DeleteQueue(ctx, d, company, domaintest.User, id, false); !apierr.Is(err, 400, 702) {
			t.Fatalf("non-empty delete: %v", err)
		}
		if err := taskdom.DeleteQueue(ctx, d, company, domaintest.User, id, true); err != nil {
			t.Fatal(err)
		}
		if status, queue := taskStatus(t, e, "t1"); status != "created" || queue != "" {
			t.Fatalf("task after forced delete: %s %q", status, queue)
		}
		if _, err := queues.NumEntries(ctx, d, company, id); !apierr.Is(err, 400, 701) {
			t.Fatalf("deleted queue: %v", err)
		}
	})
}

func TestEntries(t *testing.T) {
	domaintest.Each(t, func(t *testing.T, e *domaintest.Env) {
		ctx, d := context.Background(), &e.Env
		id, err := queues.Create(ctx, d, company, queues.New{Name: "work"})
		if err != nil {
			t.Fatal(err)
		}
		for _, task := range []string{"a", "b", "c"} {
			addTask(t, e, task, "queued", id)
			e.Clock = e.Clock.Add(time.Millisecond)
			if err := queues.AddTask(ctx, d, company, id, task, task != "c"); err != nil {
				t.Fatal(err)
			}
		}
		if err := queues.AddTask(ctx, d, company, id, "a", true); !apierr.Is(err, 400, 706) {
			t.Fatalf("queued twice: %v", err)
		}
		if err := queues.AddTask(ctx, d, company, id, "missing", true); !apierr.Is(err, 400, 101) {
			t.Fatalf("unknown task: %v", err)
		}
		if n, err := queues.NumEntries(ctx, d, company, id); err != nil || n != 3 {
			t.Fatalf("entries %d %v", n, err)
		}
		if pos, err := queues.Move(ctx, d, company, id, "c", queues.ToFront); err != nil || pos != 0 {
			t.Fatalf("to front %d %v", pos, err)
		}
		if pos, err := queues.Move(ctx, d, company, id, "c", queues.Backward(5)); err != nil || pos != 2 {
			t.Fatalf("backward past the end %d %v", pos, err)
		}
		if _, err := queues.Move(ctx, d, company, id, "zzz", queues.ToBack); !apierr.Is(err, 400, 703) {
			t.Fatalf("move of a task not queued: %v", err)
		}
		if top, err := queues.Peek(ctx, d, company, id); err != nil || top != "a" {
			t.Fatalf("peek %q %v", top, err)
		}

		// A task stopped while queued goes back to queued when handed out.
		if err := e.DB.Tx(ctx, func(q store.Querier) error {
			task, err := e.DB.Tasks().GetForUpdate(ctx, q, "a")
			if err != nil {
				return err
			}
			task.Status = "stopped"
			return e.DB.Tasks().Update(ctx, q, task)
		}); err != nil {
			t.Fatal(err)
		}
		h, err := taskdom.NextFromQueue(ctx, d, company, id, "")
		if err != nil || h == nil || h.Entry.Task != "a" || h.Task == nil || h.Task.Status != "queued" {
			t.Fatalf("hand-out %+v %v", h, err)
		}
		if h, err := taskdom.NextFromQueue(ctx, d, company, id, "c"); err != nil || h != nil {
			t.Fatalf("only-task hand-out of a task not on top: %+v %v", h, err)
		}

		if err := taskdom.RemoveFromQueue(ctx, d, company, domaintest.User, id, "b", true); err != nil {
			t.Fatal(err)
		}
		if status, queue := taskStatus(t, e, "b"); status != "created" || queue != "" {
			t.Fatalf("removed task: %s %q", status, queue)
		}
		if err := taskdom.RemoveFromQueue(ctx, d, company, domaintest.User, id, "b", false); !apierr.Is(err, 400, 703) {
			t.Fatalf("removed twice: %v", err)
		}
		removed, err := taskdom.ClearQueue(ctx, d, company, domaintest.User, id)
		if err != nil || len(removed) != 1 || removed[0] != "c" {
			t.Fatalf("clear %v %v", removed, err)
		}
		if status, _ := taskStatus(t, e, "c"); status != "created" {
			t.Fatalf("cleared task: %s", status)
		}
		if n, _ := queues.NumEntries(ctx, d, company, id); n != 0 {
			t.Fatalf("cleared queue has %d entries", n)
		}
	})
}

func TestDefaultQueue(t *testing.T) {
	domaintest.Each(t, func(t *testing.T, e *domaintest.Env) {
		ctx, d := context.Background(), &e.Env
		if _, err := queues.Default(ctx, e.DB, e.DB.Read(), company); !apierr.Is(err, 400, 707) {
			t.Fatalf("no default: %v", err)
		}
		first, _ := queues.Create(ctx, d, company, queues.New{Name: "one", SystemTags: []string{queues.DefaultTag}})
		if qu, err := queues.Default(ctx, e.DB, e.DB.Read(), company); err != nil || qu.ID != first {
			t.Fatalf("default %+v %v", qu, err)
		}
		second, _ := queues.Create(ctx, d, company, queues.New{Name: "two", SystemTags: []string{queues.DefaultTag}})
		_, err := queues.Default(ctx, e.DB, e.DB.Read(), company)
		if !apierr.Is(err, 400, 708) {
			t.Fatalf("two defaults: %v", err)
		}
		if got := apierr.As(err).Data["queues"].([]string); len(got) != 2 || (got[0] != first && got[0] != second) {
			t.Fatalf("ids of the defaults: %v", got)
		}
	})
}

func TestMetricsReport(t *testing.T) {
	domaintest.Each(t, func(t *testing.T, e *domaintest.Env) {
		ctx, d := context.Background(), &e.Env
		m := &queues.Metrics{DB: e.DB, Now: e.Now}
		id, _ := queues.Create(ctx, d, company, queues.New{Name: "measured"})
		from := float64(e.Clock.Unix() - 60)
		req := queues.SeriesRequest{Company: company, From: from, To: from + 120, Interval: 60, Queues: []string{"nope"}}
		if _, err := m.Report(ctx, req, false); !apierr.Is(err, 400, 701) {
			t.Fatalf("unknown queue: %v", err)
		}
		addTask(t, e, "t1", "queued", id)
		if err := queues.AddTask(ctx, d, company, id, "t1", true); err != nil {
			t.Fatal(err)
		}
		req.Queues = []string{id}
		series, err := m.Report(ctx, req, true)
		if err != nil || len(series) != 1 || series[0].Queue != id || len(series[0].QueueLengths) != 1 || series[0].QueueLengths[0] != 1 {
			t.Fatalf("series %+v %v", series, err)
		}
		req.Queues = nil
		series, err = m.Report(ctx, req, true)
		if err != nil || len(series) != 1 || series[0].Queue != queues.AllQueues {
			t.Fatalf("all queues %+v %v", series, err)
		}
	})
}
