package events

import (
	"context"
	"errors"
	"maps"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

// UnknownWorker is the worker of events sent without one and without a
// worker header.
const UnknownWorker = "<unknown>"

// lockedStatuses refuse events unless allow_locked. They are spelled here
// so that this package stays below the task rules.
var lockedStatuses = map[string]bool{taskdom.Publishing: true, taskdom.Published: true}

// Ingester writes batches of reported events, the task and model
// summaries updated in the same transaction. Concurrent batches share
// transactions (group commit, groupcommit.go); a batch is acknowledged
// once its transaction has committed.
type Ingester struct {
	DB  *store.DB
	Now func() time.Time

	// MaxPending bounds what batches waiting to be written hold (see
	// admission.go); zero means DefaultMaxPending.
	MaxPending int64
	// PrepareSlots bounds the batches parsed and prepared at once (see
	// prepgate.go); zero means one fewer than the processors.
	PrepareSlots int

	slotsOnce sync.Once
	slots     chan struct{}
	group     groupCommit
	docs      docCache
	admitted  admission
}

// Batch is the content of one events.add or events.add_batch call.
type Batch struct {
	Company, User string
	// Worker is the caller's worker header ("" = none).
	Worker string
	Lines  [][]byte
}

// Result is the answer of a batch.
type Result struct {
	Added  int
	Errors map[string]int
}

// ErrorCount is the number of refused events.
func (r *Result) ErrorCount() int {
	n := 0
	for _, c := range r.Errors {
		n += c
	}
	return n
}

// Ingest validates and stores a batch. Refused events are counted in the
// result; only a batch that contradicts itself fails as a whole. Parsing,
// grouping and folding happen before the write transaction, which only
// checks the tasks and models and writes.
func (in *Ingester) Ingest(ctx context.Context, b Batch) (*Result, error) {
	worker := b.Worker
	if worker == "" {
		worker = UnknownWorker
	}
	// counted before parsing, so that a refused batch costs no parse
	release, err := in.admit(pendingCost(b.Lines))
	if err != nil {
		return nil, err
	}
	defer release()
	if err := in.enterPrepare(ctx); err != nil {
		return nil, err
	}
	// the slot is freed once the batch is prepared, before the wait for
	// its commit (deferred, so that a panic cannot keep it)
	p, res, err := func() (*pendingBatch, *Result, error) {
		defer in.leavePrepare()
		return in.prepareBatch(ctx, b, worker)
	}()
	if p == nil {
		return res, err
	}
	return in.commit(p)
}

// prepareBatch parses a batch, groups and folds its events and prepares
// its task summaries. It returns no pendingBatch when there is nothing to
// write (the result or error is then the answer).
func (in *Ingester) prepareBatch(ctx context.Context, b Batch, worker string) (*pendingBatch, *Result, error) {
	now := in.Now()
	wts := now.UnixMilli()
	parseErrs := map[string]int{}
	evs := make([]*Event, 0, len(b.Lines))
	parser := NewParser(worker)
	for _, ln := range b.Lines {
		e, bad := parser.Parse(ln)
		if bad != "" {
			parseErrs[bad]++
			continue
		}
		if !e.HasTimestamp {
			e.Timestamp = wts
		}
		evs = append(evs, e)
	}
	tasks, models, err := entities(evs)
	if err != nil {
		return nil, nil, err
	}
	parts := prepare(evs, wts)
	if len(parts) == 0 {
		return nil, &Result{Errors: parseErrs}, nil
	}
	return &pendingBatch{ctx: ctx, company: b.Company, user: b.User, now: now, wts: wts,
		parseErrs: parseErrs, parts: parts, tasks: tasks, models: models, events: len(evs),
		upkeep: in.prepareUpkeep(ctx, b.Company, b.User, now, parts, nil)}, nil, nil
}

// entityPart is the part of a batch for one task or model.
type entityPart struct {
	id      string
	model   bool
	events  int
	summary *Summary
	rows    *batchRows
}

// prepare groups a batch's events per task or model, folds their summary
// and turns them into rows.
func prepare(evs []*Event, wts int64) []*entityPart {
	byID := map[string][]*Event{}
	var order []string
	for _, e := range evs {
		if byID[e.Task] == nil {
			order = append(order, e.Task)
		}
		byID[e.Task] = append(byID[e.Task], e)
	}
	sort.Strings(order)
	parts := make([]*entityPart, len(order))
	for i, id := range order {
		list := byID[id]
		p := &entityPart{id: id, model: list[0].ModelEvent, events: len(list), summary: newSummary(), rows: buildRows(list, wts)}
		for _, e := range list {
			p.summary.add(e)
		}
		parts[i] = p
	}
	return parts
}

// entities maps the batch's task and model ids to their allow_locked flag;
// an id with two flags, or used both as task and as model, fails the call.
func entities(evs []*Event) (tasks, models map[string]bool, err error) {
	tasks, models = map[string]bool{}, map[string]bool{}
	for _, e := range evs {
		if e.ModelEvent != evs[0].ModelEvent {
			return nil, nil, apierr.ValidationMsg("all events of a batch must agree on model_event")
		}
		m := tasks
		if e.ModelEvent {
			m = models
		}
		if prev, ok := m[e.Task]; ok && prev != e.AllowLocked {
			return nil, nil, apierr.ValidationMsg("Inconsistent allow_locked setting in the passed events for %s", e.Task)
		}
		m[e.Task] = e.AllowLocked
	}
	for id := range models {
		if _, ok := tasks[id]; ok {
			return nil, nil, apierr.ValidationMsg("Inconsistent model_event setting in the passed events: tasks=%s", id)
		}
	}
	return tasks, models, nil
}

// batchWriter is one attempt at writing a batch inside its transaction.
type batchWriter struct {
	in            *Ingester
	q             store.Querier
	company, user string
	now           time.Time
	res           *Result
	tasks         map[string]*store.Task
	models        map[string]*store.Model
	// upkeep: the task summaries prepared before the transaction;
	// prepared: the tasks whose prepared summary is used (see upkeep.go)
	upkeep   map[string]*taskUpkeep
	prepared map[string]bool
	// held: the tasks of the transaction, written at its end; points:
	// its series, and the point inserts and series updates left to its end
	held   *txTasks
	points *txPoints
	// edit is the batch's change to a task from another API (nil: none);
	// replaced, the stored points of its task the batch replaced, when
	// it keeps them (TaskEdit.KeepReplaced)
	edit     *TaskEdit
	replaced []ReplacedPoint
	// editApplied: the edit's task is held as prepared with the edit
	// applied (taskUpkeep.edited)
	editApplied bool
}

func (w *batchWriter) write(ctx context.Context, parts []*entityPart, tasks, models map[string]bool, wts int64) error {
	if err := w.loadEntities(ctx, tasks, models); err != nil {
		return err
	}
	all := &batchRows{}
	var valid []*entityPart
	for _, p := range parts {
		if (p.model && w.models[p.id] == nil) || (!p.model && w.tasks[p.id] == nil) {
			kind := "task"
			if p.model {
				kind = "model"
			}
			w.res.Errors["Invalid "+kind+" id "+p.id] += p.events
			continue
		}
		valid = append(valid, p)
		all.scalars = append(all.scalars, p.rows.scalars...)
		all.docs = append(all.docs, p.rows.docs...)
		all.logs = append(all.logs, p.rows.logs...)
		w.res.Added += p.events
	}
	if len(valid) == 0 {
		return w.applyEdit(ctx, w.edit)
	}
	if err := w.writeScalars(ctx, all.scalars, wts); err != nil {
		return err
	}
	es := eventstore.Of(w.in.DB)
	if err := es.UpsertDocs(ctx, w.q, all.docs); err != nil {
		return err
	}
	if err := es.InsertLogs(ctx, w.q, all.logs); err != nil {
		return err
	}
	if err := w.applySummaries(ctx, valid); err != nil {
		return err
	}
	return w.applyEdit(ctx, w.edit)
}

// loadEntities locks the batch's tasks and models (in id order, so
// concurrent batches cannot deadlock) and keeps the writable ones: of the
// caller's company and, unless allow_locked, not published or ready.
func (w *batchWriter) loadEntities(ctx context.Context, tasks, models map[string]bool) error {
	db := w.in.DB
	w.tasks, w.models = map[string]*store.Task{}, map[string]*store.Model{}
	w.prepared = map[string]bool{}
	for _, id := range slices.Sorted(maps.Keys(tasks)) {
		t, u, held, err := w.lockTask(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		if lockedStatuses[t.Status] && !tasks[id] {
			if w.edit != nil && w.edit.Task == id {
				if err := w.holdLocked(ctx, id, t, u, held); err != nil {
					return err
				}
			}
			continue
		}
		w.tasks[id] = t
		switch {
		case held:
		case u != nil:
			w.held.hold(w.company, id, u.task, u.enc, u.renames, u.before)
			w.held.get(id).shared = true
			w.prepared[id] = true
			if u.edited {
				w.editApplied = true
			}
		default:
			w.held.hold(w.company, id, t, nil, false, nil)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(models)) {
		m, err := db.Models().GetForUpdate(ctx, w.q, id, w.company)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		if m.Ready && !models[id] {
			continue
		}
		w.models[id] = m
	}
	return nil
}

func (w *batchWriter) applySummaries(ctx context.Context, parts []*entityPart) error {
	now := upkeepTime(w.now)
	for _, p := range parts {
		if w.prepared[p.id] && !p.model {
			continue
		}
		if t := w.tasks[p.id]; t != nil && !p.model {
			w.held.apply(p.id, p.summary, now, w.user)
		}
		if m := w.models[p.id]; m != nil && p.model {
			p.summary.ApplyModel(m, now, w.user)
			if err := w.in.DB.Models().Update(ctx, w.q, m); err != nil {
				return err
			}
		}
	}
	return nil
}
