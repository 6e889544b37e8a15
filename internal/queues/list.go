package queues

import (
	"context"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/query"
	"github.com/trove-ml/trove/internal/store"
)

// hiddenTags are the system tags of queues left out of listings unless
// hidden ones are asked for (the reference's default).
var hiddenTags = []string{"k8s-glue"}

// refTables says where *_ex reads find names of referenced records.
var refTables = query.RefTables{"company": "companies"}

// ListOptions shape a queues.get_all(_ex) read.
type ListOptions struct {
	// Ex is get_all_ex: entries name their tasks and workers are listed.
	Ex bool
	// ShowHidden keeps queues with hidden system tags (search_hidden, or
	// a read by id or name).
	ShowHidden bool
	// MaxEntries bounds the entries of each queue (<= 0: all).
	MaxEntries int
	// CountEntries adds each queue's number of entries
	// (count_task_entries, sent by clearml-web 2.4 and later).
	CountEntries bool
}

// Listing is a list read: the queues as the list query shaped them, and
// what reads add to them.
type Listing struct {
	*query.Result
	// IDs are the ids of the listed queues, in order.
	IDs []string
	// Entries maps queue ids to their entries (nil when the projection
	// leaves entries out).
	Entries map[string][]store.QueueEntry
	// TaskNames names the entry tasks (ex reads).
	TaskNames map[string]string
	// Workers maps queue ids to the live workers listening on them (nil
	// unless an ex read keeps workers).
	Workers map[string][]*store.Worker
	// Sizes maps queue ids to their number of entries (nil unless
	// counted; queues without entries are absent).
	Sizes map[string]int
}

// List runs a list query over the company's queues, then reads the entries
// (and, for ex reads, entry task names and the workers listening on each
// queue) when the projection keeps those fields. body is the raw request,
// for the fields the query reads besides req (max_task_entries is the
// read's own).
func List(ctx context.Context, d *domain.Env, company string, req *query.Request, body []byte, o ListOptions) (*Listing, error) {
	plan, err := query.Build(d.DB.D, Schema, req, body, query.Options{Ex: o.Ex, Skip: []string{"max_task_entries", "count_task_entries"}})
	if err != nil {
		return nil, err
	}
	plan.WhereIn("company", []string{company})
	if !o.ShowHidden {
		for _, tag := range hiddenTags {
			plan.Where(store.NotSystemTagged(d.DB.D), tag)
		}
	}
	res, err := plan.Run(ctx, d.DB, "queues", company, refTables)
	if err != nil {
		return nil, err
	}
	l := &Listing{Result: res, IDs: make([]string, 0, len(res.Items))}
	for _, it := range res.Items {
		if id, ok := it["id"].(string); ok {
			l.IDs = append(l.IDs, id)
		}
	}
	if plan.Includes("entries") {
		if err := l.readEntries(ctx, d, company, o); err != nil {
			return nil, err
		}
	}
	if o.CountEntries {
		if l.Sizes, err = d.DB.QueueSizes(ctx, d.DB.Read(), l.IDs); err != nil {
			return nil, err
		}
	}
	if o.Ex && plan.Includes("workers") {
		if err := l.readWorkers(ctx, d, company); err != nil {
			return nil, err
		}
	}
	return l, nil
}

func (l *Listing) readEntries(ctx context.Context, d *domain.Env, company string, o ListOptions) error {
	var err error
	if l.Entries, err = d.DB.QueueEntriesOf(ctx, d.DB.Read(), l.IDs, o.MaxEntries); err != nil || !o.Ex {
		return err
	}
	var tasks []string
	for _, list := range l.Entries {
		for _, e := range list {
			tasks = append(tasks, e.Task)
		}
	}
	l.TaskNames, err = d.DB.TaskNames(ctx, d.DB.Read(), company, tasks)
	return err
}

func (l *Listing) readWorkers(ctx context.Context, d *domain.Env, company string) error {
	workers, err := d.DB.LiveWorkers(ctx, d.DB.Read(), company, d.Now().UnixMilli(), store.WorkerFilter{})
	if err != nil {
		return err
	}
	l.Workers = map[string][]*store.Worker{}
	for _, w := range workers {
		for _, qid := range w.Queues {
			l.Workers[qid] = append(l.Workers[qid], w)
		}
	}
	return nil
}
