package workers

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"time"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/query"
	"github.com/trove-ml/trove/internal/store"
)

// tagSchema lets the list-filter machinery read worker tags.
var tagSchema = query.TagsSchema("worker")

// Filter selects live workers of a company.
type Filter struct {
	// LastSeen keeps workers active in the last that many seconds (0 = all).
	LastSeen int
	// Tags and SystemTags are list filters as get_all takes them.
	Tags, SystemTags json.RawMessage
	// Pattern is a glob (* and ?) on the worker id ("" = all).
	Pattern string
}

// Find lists the company's live workers that pass the filter.
func Find(ctx context.Context, d *domain.Env, company string, f Filter) ([]*store.Worker, error) {
	now := d.Now()
	var wf store.WorkerFilter
	if f.LastSeen > 0 {
		wf.ActiveSince = now.Add(-time.Duration(f.LastSeen) * time.Second).UnixMilli()
	}
	for _, l := range []struct {
		name string
		raw  json.RawMessage
	}{{"tags", f.Tags}, {"system_tags", f.SystemTags}} {
		if isNull(l.raw) {
			// tags: null is no filter, as in the reference (clients send
			// every keyword argument, None included)
			continue
		}
		cond, args, err := query.ListFilter(d.DB.D, tagSchema, l.name, l.raw)
		if err != nil {
			return nil, err
		}
		if cond != "" {
			wf.Conds = append(wf.Conds, cond)
			wf.Args = append(wf.Args, args...)
		}
	}
	list, err := d.DB.LiveWorkers(ctx, d.DB.Read(), company, now.UnixMilli(), wf)
	if err != nil || f.Pattern == "" {
		return list, err
	}
	re := globRegexp(f.Pattern)
	out := list[:0]
	for _, w := range list {
		if re.MatchString(w.ID) {
			out = append(out, w)
		}
	}
	return out, nil
}

func isNull(raw json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

// globRegexp matches a whole worker id against a glob of * and ?.
func globRegexp(glob string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	for _, r := range glob {
		switch r {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

// Listed is a worker with what get_all shows of its task and queues.
type Listed struct {
	*store.Worker
	// RunningTime (ms) and LastIteration are of the task the worker runs.
	RunningTime, LastIteration int64
	// Queues are the queues listened on, in the worker's order; Current
	// is the one its task came from (nil when none of them).
	Queues  []*QueueInfo
	Current *QueueInfo
}

// QueueInfo is a queue a worker listens on: its names, size and next task.
type QueueInfo struct {
	ID, Name, DisplayName string
	// NextTask is the top entry (nil when the queue is empty or unknown).
	NextTask *store.IDName
	NumTasks int
}

// List is Find with the details of each worker's task and queues.
func List(ctx context.Context, d *domain.Env, company string, f Filter) ([]*Listed, error) {
	list, err := Find(ctx, d, company, f)
	if err != nil {
		return nil, err
	}
	out := make([]*Listed, len(list))
	var queueIDs, taskIDs []string
	for i, w := range list {
		w.Tags, w.SystemTags = orEmpty(w.Tags), orEmpty(w.SystemTags)
		out[i] = &Listed{Worker: w, Queues: []*QueueInfo{}}
		if w.Task != nil {
			taskIDs = append(taskIDs, w.Task.ID)
		}
		for _, qid := range w.Queues {
			qi := &QueueInfo{ID: qid}
			out[i].Queues = append(out[i].Queues, qi)
			if qid == w.Queue {
				out[i].Current = qi
			}
			queueIDs = append(queueIDs, qid)
		}
	}
	if err := fillQueues(ctx, d, out, queueIDs); err != nil {
		return nil, err
	}
	return out, fillTasks(ctx, d, out, taskIDs)
}

// fillQueues names the queues of the workers, with their size and next task.
func fillQueues(ctx context.Context, d *domain.Env, out []*Listed, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	db, r := d.DB, d.DB.Read()
	queues, err := db.QueuesByIDs(ctx, r, ids)
	if err != nil {
		return err
	}
	sizes, err := db.QueueSizes(ctx, r, ids)
	if err != nil {
		return err
	}
	next, err := db.QueueEntriesOf(ctx, r, ids, 1)
	if err != nil {
		return err
	}
	var nextTasks []string
	for _, e := range next {
		nextTasks = append(nextTasks, e[0].Task)
	}
	tasks, err := db.TasksByIDs(ctx, r, nextTasks)
	if err != nil {
		return err
	}
	byID := map[string]*store.Queue{}
	for _, q := range queues {
		byID[q.ID] = q
	}
	for _, w := range out {
		for _, qi := range w.Queues {
			q := byID[qi.ID]
			if q == nil {
				continue
			}
			qi.Name, qi.DisplayName, qi.NumTasks = q.Name, q.DisplayName, sizes[q.ID]
			if e := next[q.ID]; len(e) > 0 {
				name := ""
				if t := tasks[e[0].Task]; t != nil {
					name = t.Name
				}
				qi.NextTask = &store.IDName{ID: e[0].Task, Name: name}
			}
		}
	}
	return nil
}

// fillTasks adds running time and last iteration of the workers' tasks.
func fillTasks(ctx context.Context, d *domain.Env, out []*Listed, ids []string) error {
	tasks, err := d.DB.TasksByIDs(ctx, d.DB.Read(), ids)
	if err != nil {
		return err
	}
	for _, w := range out {
		if w.Task == nil {
			continue
		}
		if t := tasks[w.Task.ID]; t != nil {
			if t.ActiveDuration != nil {
				w.RunningTime = *t.ActiveDuration * 1000
			}
			w.LastIteration = t.LastIteration
		}
	}
	return nil
}
