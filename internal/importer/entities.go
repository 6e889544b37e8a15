package importer

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
)

// projects imports every project, computing the ancestor path Trove
// keeps from the parents the source answers.
func (r *run) projects(ctx context.Context, c *Count) error {
	raws, err := listAll(ctx, r.o.Source, "projects.get_all", "projects", nil)
	if err != nil {
		return err
	}
	bar := r.bar("projects", len(raws))
	defer bar.Finish()
	parent := map[string]string{}
	var list []*store.Project
	for _, raw := range raws {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		p := &store.Project{}
		if err := json.Unmarshal(raw, p); err != nil {
			r.fail(c, "project", idOf(raw), err)
			continue
		}
		parent[p.ID] = p.Parent
		list = append(list, p)
	}
	for _, p := range list {
		p.Company = r.o.Company
		if p.Basename == "" {
			p.Basename = p.Name[strings.LastIndex(p.Name, "/")+1:]
		}
		r.files.Rebase(p.DefaultOutputDestination)
		if len(p.Path) == 0 {
			p.Path = ancestors(parent, p.ID)
		}
		r.put(ctx, c, "project", p.ID, func(q store.Querier) (bool, error) { return putRecord(ctx, q, r.o.DB.Projects(), p) })
		bar.Add(1)
	}
	return nil
}

// ancestors lists a project's ancestors, root first.
func ancestors(parent map[string]string, id string) []string {
	out := []string{}
	seen := map[string]bool{id: true}
	for p := parent[id]; p != "" && !seen[p]; p = parent[p] {
		seen[p] = true
		out = append([]string{p}, out...)
	}
	return out
}

// sourceQueue is a queue as the source answers it, with its entries.
type sourceQueue struct {
	store.Queue
	Entries []struct {
		Task  string     `json:"task"`
		Added jsonx.Time `json:"added"`
	} `json:"entries"`
}

// queues imports the queues; their entries wait for the tasks.
func (r *run) queues(ctx context.Context, c *Count) error {
	raws, err := listAll(ctx, r.o.Source, "queues.get_all", "queues", nil)
	if err != nil {
		return err
	}
	bar := r.bar("queues", len(raws))
	defer bar.Finish()
	for _, raw := range raws {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		sq := &sourceQueue{}
		if err := json.Unmarshal(raw, sq); err != nil {
			r.fail(c, "queue", idOf(raw), err)
			bar.Add(1)
			continue
		}
		q := &sq.Queue
		q.Company = r.o.Company
		r.sourceQueues = append(r.sourceQueues, sq)
		r.put(ctx, c, "queue", q.ID, func(tx store.Querier) (bool, error) {
			if err := r.makeRoomForQueue(ctx, tx, q); err != nil {
				return false, err
			}
			return putRecord(ctx, tx, r.o.DB.Queues(), q)
		})
		bar.Add(1)
	}
	return nil
}

// makeRoomForQueue deletes a queue of the target with the imported
// queue's name but another id when it is empty: the "default" queue a
// fresh Trove creates for itself gives way to the source's. A queue
// with entries is kept and the import of the source's queue fails.
func (r *run) makeRoomForQueue(ctx context.Context, q store.Querier, queue *store.Queue) error {
	db := r.o.DB
	named, err := db.QueuesNamed(ctx, q, queue.Company, queue.Name)
	if err != nil {
		return err
	}
	for _, other := range named {
		if other.ID == queue.ID {
			continue
		}
		entries, err := db.QueueEntries(ctx, q, other.ID, 1)
		if err != nil {
			return err
		}
		if len(entries) > 0 {
			return fmt.Errorf("the target has a queue named %q with another id (%s) and tasks in it", queue.Name, other.ID)
		}
		if _, err := db.Queues().Delete(ctx, q, other.ID); err != nil {
			return err
		}
	}
	return nil
}

// put runs one record's write in a transaction and counts the outcome.
func (r *run) put(ctx context.Context, c *Count, what, id string, write func(store.Querier) (bool, error)) {
	var wrote bool
	err := r.o.DB.Tx(ctx, func(q store.Querier) error {
		var err error
		wrote, err = write(q)
		return err
	})
	r.count(c, what, id, wrote, 0, err)
}

// models imports the models with their events; weights on the source's
// file server are copied.
func (r *run) models(ctx context.Context, c *Count) error {
	raws, err := listAll(ctx, r.o.Source, "models.get_all", "models", nil)
	if err != nil {
		return err
	}
	bar := r.bar("models", len(raws))
	defer bar.Finish()
	for _, raw := range raws {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		m := &store.Model{}
		if err := json.Unmarshal(raw, m); err != nil {
			r.fail(c, "model", idOf(raw), err)
			bar.Add(1)
			continue
		}
		m.Company = r.o.Company
		m.URI = r.files.Rewrite(ctx, m.URI)
		m.Normalize()
		wrote, n, err := withEvents(ctx, r, r.o.DB.Models(), m, true, m.User, func(p *store.Model) { p.LastUpdate = jsonx.Time{} })
		r.count(c, "model", m.ID, wrote, n, err)
		bar.Add(1)
	}
	return nil
}

// tasks imports the tasks with their events; artifacts on the source's
// file server are copied. The listing gives the ids; each task is then
// read by id, which answers every field.
func (r *run) tasks(ctx context.Context, c *Count) error {
	raws, err := listAll(ctx, r.o.Source, "tasks.get_all", "tasks", map[string]any{"only_fields": []string{"id"}})
	if err != nil {
		return err
	}
	bar := r.bar("tasks", len(raws))
	defer bar.Finish()
	for _, raw := range raws {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		t, err := r.fullTask(ctx, idOf(raw))
		if err != nil {
			r.fail(c, "task", idOf(raw), err)
			bar.Add(1)
			continue
		}
		t.Company = r.o.Company
		r.files.Rebase(t.Output.Destination)
		for _, a := range t.Execution.Artifacts {
			if a != nil && a.URI != nil {
				u := r.files.Rewrite(ctx, *a.URI)
				a.URI = &u
			}
		}
		bar.Label("tasks: " + t.ID)
		wrote, n, err := withEvents(ctx, r, r.o.DB.Tasks(), t, false, t.User, func(p *store.Task) { p.LastUpdate = jsonx.Time{} })
		r.count(c, "task", t.ID, wrote, n, err)
		bar.Add(1)
	}
	return nil
}

// fullTask reads one task by id: the listing leaves out fields a task
// read by id has (enqueue_status, company_origin).
func (r *run) fullTask(ctx context.Context, id string) (*store.Task, error) {
	var ans struct {
		Task json.RawMessage `json:"task"`
	}
	if err := r.o.Source.Call(ctx, "tasks.get_by_id", map[string]any{"task": id}, &ans); err != nil {
		return nil, err
	}
	t := &store.Task{}
	if err := json.Unmarshal(ans.Task, t); err != nil {
		return nil, fmt.Errorf("decoding the task: %w", err)
	}
	return t, nil
}

// count records the outcome of one record (and the events it wrote).
func (r *run) count(c *Count, what, id string, wrote bool, events int, err error) {
	r.rep.Events += events
	switch {
	case err != nil:
		r.fail(c, what, id, err)
	case wrote:
		c.Imported++
	default:
		c.Skipped++
	}
}

// queueEntries puts the imported tasks back in their queues, in the
// source's order and with the source's times, then restores the queue
// documents the additions touched.
func (r *run) queueEntries(ctx context.Context, c *Count) error {
	db := r.o.DB
	for _, sq := range r.sourceQueues {
		if len(sq.Entries) == 0 {
			continue
		}
		r.put(ctx, c, "entries of queue", sq.ID, func(q store.Querier) (bool, error) {
			have, err := db.QueueEntries(ctx, q, sq.ID, 0)
			if err != nil {
				return false, err
			}
			in := map[string]bool{}
			for _, e := range have {
				in[e.Task] = true
			}
			added := false
			for _, e := range sq.Entries {
				if in[e.Task] {
					continue
				}
				if _, err := db.Tasks().Get(ctx, q, e.Task); err != nil {
					return false, err
				}
				if err := db.AddQueueEntry(ctx, q, sq.ID, e.Task, e.Added.Millis()); err != nil {
					return false, err
				}
				added = true
			}
			if !added {
				return false, nil
			}
			return true, db.Queues().Update(ctx, q, &sq.Queue)
		})
	}
	return nil
}

// idOf is a raw record's id, for messages.
func idOf(raw json.RawMessage) string {
	var v struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(raw, &v)
	return v.ID
}
