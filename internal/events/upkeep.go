package events

import (
	"context"
	"time"

	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
)

// taskUpkeep is a task's summary update worked out before the write
// transaction: the version of the task's row as read then, and the task
// with the batch's summary applied, encoded. Inside the transaction, when
// the row's version is still the one read, the encoding is written as it
// is; otherwise the stored document is read and the summary applied again
// to it. On PostgreSQL the version is short (store.Dialect.RowVersion):
// the 15 KB document is not read a second time per batch. This takes the
// decoding and encoding of task documents (which grow with last_metrics)
// out of the transactions that group commit runs one after the other.
type taskUpkeep struct {
	version string
	task    *store.Task
	enc     *store.EncodedRecord
	renames bool
	// before is the names of the task as read, when the batch changes them
	before nameSet
	// edited: the batch's TaskEdit is applied to task (and enc) already
	edited bool
}

// prepareUpkeep reads and updates the batch's tasks ahead (from the
// documents ingest last wrote, or the read pool, in the caller's
// goroutine). A task it cannot prepare is left to the transaction. The
// task of edit (nil: none) has the edit applied too, so the transaction
// that uses the prepared task writes its encoding as it is.
func (in *Ingester) prepareUpkeep(ctx context.Context, company, user string, now time.Time, parts []*entityPart, edit *TaskEdit) map[string]*taskUpkeep {
	out := map[string]*taskUpkeep{}
	stamp := upkeepTime(now)
	for _, p := range parts {
		if p.model {
			continue
		}
		task, version, memo, err := in.storedTask(ctx, company, p.id)
		if err != nil {
			continue
		}
		renames := p.summary.changesNames(task.LastMetrics)
		var before nameSet
		if renames {
			before = namesOf(task.LastMetrics)
		}
		p.summary.ApplyTask(task, stamp, user)
		edited := edit != nil && edit.Task == p.id
		if edited {
			// the edit too, on this copy: an edit it refuses is left to
			// the transaction, which answers the stored task's error
			if edit.Edit(task) != nil {
				continue
			}
			if !edit.SummaryOnly {
				memo = nil // it holds the encoding of members the edit changed
			}
		}
		enc, err := store.EncodeTask(task, memo)
		if err != nil {
			continue
		}
		out[p.id] = &taskUpkeep{version: version, task: task, enc: enc, renames: renames, before: before, edited: edited}
	}
	return out
}

// storedTask is a task as last stored, its row version and its
// encoding's memo when known, for the caller to change: a summaryCopy of
// the task ingest last wrote when kept, else read.
func (in *Ingester) storedTask(ctx context.Context, company, id string) (*store.Task, string, *store.TaskMemo, error) {
	if c, ok := in.docs.get(company, id); ok {
		return summaryCopy(c.task), c.version, c.memo, nil
	}
	sd, err := in.DB.Tasks().GetStored(ctx, in.DB.Read(), id, company)
	if err != nil {
		return nil, "", nil, err
	}
	return sd.Rec, sd.Version, nil, nil
}

// lockTask locks and loads a task inside the transaction. A task the
// transaction already holds (an earlier batch of the group) is that one.
// Otherwise, when the task has not changed since its upkeep was prepared,
// the prepared task (its summary applied) and encoding are used (enc not
// nil); else the stored task is read.
func (w *batchWriter) lockTask(ctx context.Context, id string) (t *store.Task, u *taskUpkeep, held bool, err error) {
	if h := w.held.get(id); h != nil {
		return h.task, nil, true, nil
	}
	tasks := w.in.DB.Tasks()
	if u := w.upkeep[id]; u != nil {
		version, err := tasks.LockVersion(ctx, w.q, id, w.company)
		if err != nil {
			return nil, nil, false, err
		}
		if version == u.version {
			return u.task, u, false, nil
		}
	}
	raw, err := tasks.LockStoredBytes(ctx, w.q, id, w.company)
	if err != nil {
		return nil, nil, false, err
	}
	t, err = tasks.Decode(id, raw)
	return t, nil, false, err
}

func upkeepTime(now time.Time) jsonx.Time {
	return jsonx.Time{Time: now.UTC().Truncate(time.Millisecond)}
}
