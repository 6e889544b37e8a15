package events

import (
	"context"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
)

// TaskEdit is a change to one task that another API writes together with
// events it built itself, in the same group-commit transaction: MLflow's
// log-batch writes its history rows, the run's document (latest values,
// params, tags) and the scalar copy of its points at once, instead of a
// transaction of its own before the events'.
type TaskEdit struct {
	// Task is the task changed, of the batch's company; it is locked
	// whether or not the batch has events for it.
	Task string
	// Edit changes the task as the transaction holds it, after the
	// batch's summary was applied; t is nil when the task does not exist
	// for the company. Edit must not write into maps or structs t holds
	// (they may be shared with a cached copy): it replaces them. An error
	// fails this batch alone (the others of its group are written again
	// without it).
	Edit func(t *store.Task) error
	// SummaryOnly: Edit changes only the task's summary members
	// (last_update, last_change, last_changed_by) and its mlflow member,
	// so the encoding of the rest is reused (store.EncodeTask's memo).
	SummaryOnly bool
	// KeepReplaced asks for the stored points of Task that the batch's
	// scalars replace (same series and iteration), handed to Write:
	// MLflow keeps every point it logs, so a replaced one moves to its
	// history's own rows.
	KeepReplaced bool
	// Write writes the caller's own rows inside the transaction, after
	// the batch's points and Edit (nil: none).
	Write func(ctx context.Context, q store.Querier, done *EditWrite) error
}

// EditWrite is what the transaction did with the batch's points of the
// edited task.
type EditWrite struct {
	// Accepted reports that the task took the batch's events; a
	// published task takes none (the edit still applies).
	Accepted bool
	// Replaced are the points the batch's scalars replaced (only with
	// KeepReplaced), in the order they were met.
	Replaced []ReplacedPoint
}

// ReplacedPoint is a stored scalar point a batch replaced.
type ReplacedPoint struct {
	Metric, Variant string
	Iter            int64
	Value           float64
	// TS is the point's event time, epoch ms.
	TS int64
}

// editRowCost stands for what a waiting edit holds beside its events (the
// caller's rows): the admission counts it as events' lines.
const editRowCost = 256

// IngestEvents writes events the caller built and validated (no lines to
// parse) and edit (nil: none), as Ingest does: in a group-commit
// transaction shared with concurrent batches. rows is how many rows the
// edit's Write adds, for the admission bound.
func (in *Ingester) IngestEvents(ctx context.Context, company, user string, evs []*Event, edit *TaskEdit, rows int) (*Result, error) {
	release, err := in.admit(taskCost + int64(len(evs)+rows)*editRowCost)
	if err != nil {
		return nil, err
	}
	defer release()
	if err := in.enterPrepare(ctx); err != nil {
		return nil, err
	}
	p, err := func() (*pendingBatch, error) {
		defer in.leavePrepare()
		return in.prepareEvents(ctx, company, user, evs, edit)
	}()
	if err != nil {
		return nil, err
	}
	if p == nil {
		return &Result{Errors: map[string]int{}}, nil
	}
	return in.commit(p)
}

// prepareEvents is prepareBatch for built events.
func (in *Ingester) prepareEvents(ctx context.Context, company, user string, evs []*Event, edit *TaskEdit) (*pendingBatch, error) {
	now := in.Now()
	wts := now.UnixMilli()
	for _, e := range evs {
		if !e.HasTimestamp {
			e.Timestamp = wts
		}
		if e.Worker == "" {
			e.Worker = UnknownWorker
		}
	}
	tasks, models, err := entities(evs)
	if err != nil {
		return nil, err
	}
	if edit != nil {
		if _, ok := tasks[edit.Task]; !ok {
			tasks[edit.Task] = false
		}
	}
	parts := prepare(evs, wts)
	if len(parts) == 0 && edit == nil {
		return nil, nil
	}
	return &pendingBatch{ctx: ctx, company: company, user: user, now: now, wts: wts,
		parts: parts, tasks: tasks, models: models, events: len(evs), edit: edit,
		upkeep: in.prepareUpkeep(ctx, company, user, now, parts, edit)}, nil
}

// applyEdit runs the batch's edit on its task as the transaction holds
// it, then its rows' writer.
func (w *batchWriter) applyEdit(ctx context.Context, edit *TaskEdit) error {
	if edit == nil {
		return nil
	}
	switch {
	case w.held.get(edit.Task) == nil:
		if err := edit.Edit(nil); err != nil {
			return err
		}
	case w.editApplied:
		// the prepared task, the edit applied before the transaction
	default:
		if err := w.held.edit(edit.Task, edit.Edit, edit.SummaryOnly); err != nil {
			return err
		}
	}
	if edit.Write == nil {
		return nil
	}
	return edit.Write(ctx, w.q, &EditWrite{Accepted: w.tasks[edit.Task] != nil, Replaced: w.replaced})
}

// keepReplaced records for the batch's edit the stored points of series
// sr that points replace, when the edit asks for them; old are the
// stored values of the range the points cover.
func (w *batchWriter) keepReplaced(key seriesKey, sr *eventstore.Series, points []*Event, old map[int64]eventstore.StoredValue) {
	if len(old) == 0 || w.edit == nil || !w.edit.KeepReplaced || key.task != w.edit.Task {
		return
	}
	for _, e := range points {
		if prev, ok := old[e.Iter]; ok {
			w.replaced = append(w.replaced, ReplacedPoint{Metric: key.metric, Variant: key.variant, Iter: e.Iter, Value: prev.Value, TS: prev.DTS + sr.TS0})
		}
	}
}

// edit lets fn change a held task. A prepared batch's task is copied
// first, but only its top level: fn replaces what it changes, and the
// summary maps stay shared (h.shared), for apply to copy if a later
// batch changes them. The encoding memo is dropped unless the edit is
// summaryOnly: it holds the encoding of the members an edit changes.
func (x *txTasks) edit(id string, fn func(t *store.Task) error, summaryOnly bool) error {
	h := x.byID[id]
	if h.shared {
		c := *h.task
		h.task = &c
	}
	h.enc = nil
	if !summaryOnly {
		h.memo = nil
	}
	return fn(h.task)
}

// holdLocked holds the edited task when its events are refused (a
// published task): the edit still applies, the batch's summary does not.
// t and u are what lockTask gave.
func (w *batchWriter) holdLocked(ctx context.Context, id string, t *store.Task, u *taskUpkeep, held bool) error {
	if held {
		return nil
	}
	if u != nil {
		// u.task has the batch's summary applied: read the stored task
		raw, err := w.in.DB.Tasks().LockStoredBytes(ctx, w.q, id, w.company)
		if err != nil {
			return err
		}
		if t, err = w.in.DB.Tasks().Decode(id, raw); err != nil {
			return err
		}
	}
	w.held.hold(w.company, id, t, nil, false, nil)
	return nil
}
