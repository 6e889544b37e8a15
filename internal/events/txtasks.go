package events

import (
	"cmp"
	"context"
	"slices"

	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
)

// txTasks holds the tasks a write transaction has locked for its batches'
// summaries, and writes each once when the batches are done (flush): a
// group's batches of one task cost one row write. The writes that change
// metric names go last, in statements of their own, and the writer counts
// their names (store.DB.WriteTasksCountingNames).
type txTasks struct {
	byID  map[string]*txTask
	order []string
}

// txTask is a task held by the transaction: the task with its batches'
// summaries applied; the encoding prepared before the transaction while
// that alone is the task's new state; whether its metric names change,
// and then its names as stored (before).
type txTask struct {
	company string
	task    *store.Task
	enc     *store.EncodedRecord
	// memo is the prepared encoding's, kept for the task's encoding when
	// later batches change its summary again (store.EncodeTask)
	memo    *store.TaskMemo
	renames bool
	before  nameSet
	// shared: the task is a prepared batch's (which may be written again
	// by a retried transaction): it is copied before it is changed
	shared bool
}

func newTxTasks() *txTasks { return &txTasks{byID: map[string]*txTask{}} }

// get is the task as this transaction holds it, or nil.
func (x *txTasks) get(id string) *txTask { return x.byID[id] }

// hold records a task locked by the transaction for a batch's summary.
func (x *txTasks) hold(company, id string, t *store.Task, enc *store.EncodedRecord, renames bool, before nameSet) {
	h := &txTask{company: company, task: t, enc: enc, renames: renames, before: before, shared: enc != nil}
	if enc != nil {
		h.memo = enc.TaskMemo
	}
	x.byID[id] = h
	x.order = append(x.order, id)
}

// apply merges a batch's summary into a held task. A task held with a
// prepared encoding is copied first: the prepared task belongs to its
// batch, which may be written again (a retried transaction).
func (x *txTasks) apply(id string, s *Summary, now jsonx.Time, user string) {
	h := x.byID[id]
	if h.shared {
		h.task, h.shared = summaryCopy(h.task), false
	}
	h.enc = nil
	if !h.renames && s.changesNames(h.task.LastMetrics) {
		// the batches before this one changed no name: the held names
		// are the stored ones
		h.renames, h.before = true, namesOf(h.task.LastMetrics)
	}
	s.ApplyTask(h.task, now, user)
}

// flush writes the held tasks, each set with as few statements as it can
// (store.WriteEncodedVersions); those whose metric names change come
// last, with the names they gain and lose (nameDeltas). It returns what
// it wrote.
func (x *txTasks) flush(ctx context.Context, db *store.DB, q store.Querier) ([]writtenTask, error) {
	tasks := db.Tasks()
	written := make([]writtenTask, 0, len(x.order))
	for _, late := range []bool{false, true} {
		var ids []string
		var encs []*store.EncodedRecord
		for _, id := range x.order {
			h := x.byID[id]
			if h.renames != late {
				continue
			}
			enc := h.enc
			if enc == nil {
				var err error
				if enc, err = store.EncodeTask(h.task, h.memo); err != nil {
					return nil, err
				}
			}
			ids, encs = append(ids, id), append(encs, enc)
		}
		if len(ids) == 0 {
			continue
		}
		var versions []string
		var err error
		if late {
			versions, err = db.WriteTasksCountingNames(ctx, q, encs, func() []store.MetricNameDelta { return x.nameDeltas(ids) })
		} else {
			versions, err = tasks.WriteEncodedVersions(ctx, q, encs)
		}
		if err != nil {
			return nil, err
		}
		for i, id := range ids {
			h := x.byID[id]
			written = append(written, writtenTask{company: h.company, id: id, task: h.task, version: versions[i],
				size: len(encs[i].Doc), memo: encs[i].TaskMemo})
		}
	}
	return written, nil
}

// nameDeltas is how writing these held tasks changes the count rows of
// metric names: each name a task gains counts one more task of its
// project, each it loses one fewer. They come in a fixed order.
func (x *txTasks) nameDeltas(ids []string) []store.MetricNameDelta {
	type countKey struct {
		company, project string
		name             store.MetricVariantName
	}
	sum := map[countKey]int{}
	for _, id := range ids {
		h := x.byID[id]
		after := namesOf(h.task.LastMetrics)
		for name := range h.before {
			if !after[name] {
				sum[countKey{h.company, h.task.Project, name}]--
			}
		}
		for name := range after {
			if !h.before[name] {
				sum[countKey{h.company, h.task.Project, name}]++
			}
		}
	}
	out := make([]store.MetricNameDelta, 0, len(sum))
	for k, n := range sum {
		out = append(out, store.MetricNameDelta{Company: k.company, Project: k.project, MetricVariantName: k.name, Tasks: n})
	}
	slices.SortFunc(out, func(a, b store.MetricNameDelta) int {
		return cmp.Or(cmp.Compare(a.Company, b.Company), cmp.Compare(a.Project, b.Project),
			cmp.Compare(a.MetricHash, b.MetricHash), cmp.Compare(a.VariantHash, b.VariantHash),
			cmp.Compare(a.Metric, b.Metric), cmp.Compare(a.Variant, b.Variant))
	})
	return out
}
