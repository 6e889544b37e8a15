package queues

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/query"
	"github.com/trove-ml/trove/internal/queues"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
)

// entry is a queue entry as reads return it.
type entry struct {
	Task  string     `json:"task"`
	Added jsonx.Time `json:"added"`
}

func toEntries(list []store.QueueEntry) []entry {
	out := make([]entry, len(list))
	for i, e := range list {
		out[i] = entry{Task: e.Task, Added: jsonx.FromMillis(e.Added)}
	}
	return out
}

// queueOut is a queue with its entries.
type queueOut struct {
	*store.Queue
	Entries []entry `json:"entries"`
}

type getByIDRequest struct {
	Queue          string `json:"queue" required:"true"`
	MaxTaskEntries *int   `json:"max_task_entries"`
}

func (r *getByIDRequest) Validate() error { return checkMaxEntries(r.MaxTaskEntries) }

func checkMaxEntries(n *int) error {
	if n != nil && *n < 0 {
		return apierr.Validation("max_task_entries", "must be at least 0, got %d", *n)
	}
	return nil
}

func maxEntries(n *int) int {
	if n == nil {
		return 0
	}
	return *n
}

type getByIDResponse struct {
	Queue queueOut `json:"queue"`
}

func (s *service) getByID(ctx context.Context, c *rpc.Call, req *getByIDRequest) (*getByIDResponse, error) {
	qu, err := queues.Get(ctx, s.d.DB, s.d.DB.Read(), c.Company(), req.Queue)
	if err != nil {
		return nil, err
	}
	entries, err := s.d.DB.QueueEntries(ctx, s.d.DB.Read(), qu.ID, maxEntries(req.MaxTaskEntries))
	if err != nil {
		return nil, err
	}
	return &getByIDResponse{Queue: queueOut{Queue: qu, Entries: toEntries(entries)}}, nil
}

type getDefaultResponse struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

func (s *service) getDefault(ctx context.Context, c *rpc.Call, _ *struct{}) (*getDefaultResponse, error) {
	qu, err := queues.Default(ctx, s.d.DB, s.d.DB.Read(), c.Company())
	if err != nil {
		return nil, err
	}
	return &getDefaultResponse{ID: qu.ID, Name: qu.Name}, nil
}

type getAllRequest struct {
	query.Request
	MaxTaskEntries *int `json:"max_task_entries"`
}

func (r *getAllRequest) Validate() error { return checkMaxEntries(r.MaxTaskEntries) }

type getAllResponse struct {
	Queues   []map[string]any `json:"queues"`
	ScrollID *string          `json:"scroll_id,omitempty"`
}

func (s *service) getAll(ctx context.Context, c *rpc.Call, req *getAllRequest) (*getAllResponse, error) {
	return s.list(ctx, c, req, false)
}

func (s *service) getAllEx(ctx context.Context, c *rpc.Call, req *getAllRequest) (*getAllResponse, error) {
	return s.list(ctx, c, req, true)
}

// list runs get_all (ex=false) or get_all_ex: the list query over the
// company's queues, then entries (and, for ex, entry task names and the
// workers listening on each queue) for the queues that keep those fields.
func (s *service) list(ctx context.Context, c *rpc.Call, req *getAllRequest, ex bool) (*getAllResponse, error) {
	if err := api.ScrollAlways(&req.Request); err != nil {
		return nil, err
	}
	plan, err := query.Build(s.d.DB.D, Schema, &req.Request, c.Body, query.Options{Ex: ex, Skip: []string{"max_task_entries"}})
	if err != nil {
		return nil, err
	}
	plan.WhereIn("company", []string{c.Company()})
	if !req.SearchHidden && len(req.ID) == 0 && (req.Name == nil || *req.Name == "") {
		for _, tag := range hiddenTags {
			plan.Where("NOT "+s.d.DB.D.ArrayHas("system_tags"), tag)
		}
	}
	res, err := plan.Run(ctx, s.d.DB, "queues", c.Company(), refTables)
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(res.Items))
	for _, it := range res.Items {
		if id, ok := it["id"].(string); ok {
			ids = append(ids, id)
		}
		// Lists are never null: the agent reads tags of every queue.
		for _, f := range []string{"tags", "system_tags"} {
			if v, ok := it[f]; ok && v == nil {
				it[f] = []any{}
			}
		}
	}
	if plan.Includes("entries") {
		if err := s.addEntries(ctx, c, res.Items, ids, maxEntries(req.MaxTaskEntries), ex); err != nil {
			return nil, err
		}
	}
	if ex && plan.Includes("workers") {
		if err := s.addWorkers(ctx, c, res.Items); err != nil {
			return nil, err
		}
	}
	return &getAllResponse{Queues: res.Items, ScrollID: res.ScrollID}, nil
}

// addEntries sets each item's entries; ex reads name the entry tasks.
func (s *service) addEntries(ctx context.Context, c *rpc.Call, items []map[string]any, ids []string, limit int, ex bool) error {
	byQueue, err := s.d.DB.QueueEntriesOf(ctx, s.d.DB.Read(), ids, limit)
	if err != nil {
		return err
	}
	var names map[string]string
	if ex {
		var tasks []string
		for _, list := range byQueue {
			for _, e := range list {
				tasks = append(tasks, e.Task)
			}
		}
		if names, err = s.taskNames(ctx, c.Company(), tasks); err != nil {
			return err
		}
	}
	for _, it := range items {
		id, _ := it["id"].(string)
		list := byQueue[id]
		out := make([]map[string]any, len(list))
		for i, e := range list {
			var task any = e.Task
			if ex {
				task = map[string]any{"id": e.Task, "name": names[e.Task]}
			}
			out[i] = map[string]any{"task": task, "added": jsonx.FromMillis(e.Added)}
		}
		it["entries"] = out
	}
	return nil
}

// taskNames maps task ids to names (tasks of the company or public).
func (s *service) taskNames(ctx context.Context, company string, ids []string) (map[string]string, error) {
	out := map[string]string{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := s.d.DB.Read().QueryContext(ctx, "SELECT id, name FROM tasks WHERE company IN (?, '') AND id IN ("+
		store.Placeholders(len(ids))+")", append([]any{company}, store.Args(ids)...)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id, name string
		if err := rows.Scan(&id, &name); err != nil {
			return nil, err
		}
		out[id] = name
	}
	return out, rows.Err()
}

// addWorkers lists on each queue the live workers that listen on it.
func (s *service) addWorkers(ctx context.Context, c *rpc.Call, items []map[string]any) error {
	workers, err := s.d.DB.LiveWorkers(ctx, s.d.DB.Read(), c.Company(), s.d.Now().UnixMilli(), "")
	if err != nil {
		return err
	}
	byQueue := map[string][]map[string]any{}
	for _, w := range workers {
		var task any
		if w.Task != nil {
			task = map[string]any{"id": w.Task.ID, "name": w.Task.Name}
		}
		info := map[string]any{"name": w.ID, "ip": w.IP, "key": w.Key, "task": task}
		for _, qid := range w.Queues {
			byQueue[qid] = append(byQueue[qid], info)
		}
	}
	for _, it := range items {
		id, _ := it["id"].(string)
		list := byQueue[id]
		if list == nil {
			list = []map[string]any{}
		}
		it["workers"] = list
	}
	return nil
}
