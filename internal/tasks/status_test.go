package tasks_test

import (
	"slices"
	"testing"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/tasks"
)

// TestCheckFrom: each operation's table admits exactly its statuses
// without force, any status with force, and refuses with 400/110 naming
// the current and the new status.
func TestCheckFrom(t *testing.T) {
	ops := map[string]struct {
		to   string
		from []string
	}{
		"started": {tasks.InProgress, tasks.StartedFrom}, "stop": {tasks.Stopped, tasks.StopFrom},
		"stopped": {tasks.Stopped, tasks.StoppedFrom}, "completed": {tasks.Completed, tasks.CompletedFrom},
		"failed": {tasks.Failed, tasks.FailedFrom}, "close": {tasks.Closed, tasks.CloseFrom},
		"enqueue": {tasks.Queued, tasks.EnqueueFrom}, "dequeue": {tasks.Created, tasks.DequeueFrom},
		"reset": {tasks.Created, tasks.ResetFrom}, "publish": {tasks.Published, tasks.PublishFrom},
	}
	for name, op := range ops {
		for _, st := range tasks.Statuses {
			tk := &store.Task{ID: "t", Status: st}
			err := tasks.CheckFrom(tk, op.to, op.from, false)
			if allowed := slices.Contains(op.from, st); allowed != (err == nil) {
				t.Errorf("%s from %s: allowed %v, got %v", name, st, allowed, err)
			}
			if err != nil {
				e := apierr.As(err)
				if e == nil || e.Code != 400 || e.Subcode != 110 || e.Data["current_status"] != st || e.Data["new_status"] != op.to {
					t.Errorf("%s from %s: error %v", name, st, err)
				}
			}
			if err := tasks.CheckFrom(tk, op.to, op.from, true); err != nil {
				t.Errorf("%s from %s with force: %v", name, st, err)
			}
		}
	}
	// Every table holds only real statuses.
	for name, op := range ops {
		for _, st := range op.from {
			if !tasks.ValidStatus(st) {
				t.Errorf("%s accepts unknown status %q", name, st)
			}
		}
	}
	if tasks.ValidStatus("running") || !tasks.ValidStatus(tasks.Publishing) {
		t.Error("ValidStatus")
	}
}

// TestSetStatus: a change writes the status, its reason and message and
// the times, reports the written fields, and loses to a concurrent change
// (400/121) without writing anything.
func TestSetStatus(t *testing.T) {
	eachStore(t, func(t *testing.T, d *domain.Env, _ *removed) {
		putTask(t, d, "t1", tasks.Created, func(tk *store.Task) { tk.SystemTags = []string{tasks.TagDevelopment, "x"} })
		var up *domain.Update
		tx(t, d, func(q store.Querier) error {
			tk, err := tasks.LoadWritable(ctx, d, q, "c1", "t1")
			if err != nil {
				return err
			}
			up, err = tasks.SetStatus(ctx, d, q, "u2", tk, tasks.Change{To: tasks.Queued, From: tasks.EnqueueFrom, StatusReason: "why",
				Apply: func(tk *store.Task, fields map[string]any) { tk.EnqueueStatus = tasks.Created; fields["extra"] = 1 }})
			return err
		})
		if up.Updated != 1 || up.Fields["status"] != tasks.Queued || up.Fields["status_reason"] != "why" ||
			up.Fields["status_message"] != "" || up.Fields["last_changed_by"] != "u2" || up.Fields["extra"] != 1 {
			t.Fatalf("fields %v", up.Fields)
		}
		got := getTask(t, d, "t1")
		now := d.Time()
		if got.Status != tasks.Queued || *got.StatusReason != "why" || *got.StatusMessage != "" || got.LastChangedBy != "u2" ||
			!got.StatusChanged.Equal(now.Time) || !got.LastUpdate.Equal(now.Time) || got.EnqueueStatus != tasks.Created {
			t.Fatalf("stored %+v", got)
		}
		if !slices.Equal(got.SystemTags, []string{"x"}) {
			t.Fatalf("queued keeps the development tag: %v", got.SystemTags)
		}

		// Refused transitions and invalid statuses write nothing.
		err := inTx(d, func(q store.Querier) error {
			tk, err := tasks.LoadWritable(ctx, d, q, "c1", "t1")
			if err != nil {
				return err
			}
			_, err = tasks.SetStatus(ctx, d, q, "u2", tk, tasks.Change{To: tasks.Closed, From: tasks.CloseFrom})
			return err
		})
		if !apierr.Is(err, 400, 110) {
			t.Fatalf("close from queued: %v", err)
		}
		err = inTx(d, func(q store.Querier) error {
			tk, err := tasks.LoadWritable(ctx, d, q, "c1", "t1")
			if err != nil {
				return err
			}
			_, err = tasks.SetStatus(ctx, d, q, "u2", tk, tasks.Change{To: "running", Force: true})
			return err
		})
		if !apierr.Is(err, 400, 12) {
			t.Fatalf("invalid status: %v", err)
		}

		// A change based on a stale read loses.
		stale := getTask(t, d, "t1")
		tx(t, d, func(q store.Querier) error {
			tk, err := tasks.LoadWritable(ctx, d, q, "c1", "t1")
			if err != nil {
				return err
			}
			_, err = tasks.SetStatus(ctx, d, q, "u3", tk, tasks.Change{To: tasks.InProgress, Force: true})
			return err
		})
		err = inTx(d, func(q store.Querier) error {
			_, err := tasks.SetStatus(ctx, d, q, "u4", stale, tasks.Change{To: tasks.Failed, Force: true})
			return err
		})
		if !apierr.Is(err, 400, 121) {
			t.Fatalf("stale change: %v", err)
		}
		if got := getTask(t, d, "t1"); got.Status != tasks.InProgress || got.LastChangedBy != "u3" {
			t.Fatalf("the winning change was overwritten: %s by %s", got.Status, got.LastChangedBy)
		}
	})
}

// TestLoadWritable: unknown and other companies' tasks are 400/101,
// public ones 403/21.
func TestLoadWritable(t *testing.T) {
	eachStore(t, func(t *testing.T, d *domain.Env, _ *removed) {
		putTask(t, d, "public", tasks.Created, func(tk *store.Task) { tk.Company = "" })
		putTask(t, d, "other", tasks.Created, func(tk *store.Task) { tk.Company = "c2" })
		for id, code := range map[string][2]int{"public": {403, 21}, "other": {400, 101}, "missing": {400, 101}} {
			err := inTx(d, func(q store.Querier) error {
				_, err := tasks.LoadWritable(ctx, d, q, "c1", id)
				return err
			})
			if !apierr.Is(err, code[0], code[1]) {
				t.Errorf("%s: %v", id, err)
			}
		}
	})
}
