package workers

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"time"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/query"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
)

// tagSchema lets the list-filter machinery read worker tags.
var tagSchema = &query.Schema{Entity: "worker", Columns: map[string]query.Column{
	"tags": {Name: "tags", Kind: query.JSONArray}, "system_tags": {Name: "system_tags", Kind: query.JSONArray},
}}

type getCountRequest struct {
	// LastSeen keeps workers active in the last that many seconds (0 = all).
	LastSeen   *int            `json:"last_seen"`
	Tags       json.RawMessage `json:"tags"`
	SystemTags json.RawMessage `json:"system_tags"`
	// WorkerPattern is a glob (* and ?) on the worker id.
	WorkerPattern string `json:"worker_pattern"`
}

func (r *getCountRequest) Validate() error {
	if r.LastSeen != nil && *r.LastSeen < 0 {
		return apierr.Validation("last_seen", "must be at least 0, got %d", *r.LastSeen)
	}
	return nil
}

type getAllRequest struct{ getCountRequest }

// getAllDefaultLastSeen is get_all's last_seen when absent (get_count's is 0).
const getAllDefaultLastSeen = 3600

// find lists the live workers of the caller's company that match the
// filters.
func (s *service) find(ctx context.Context, c *rpc.Call, r *getCountRequest, defaultLastSeen int) ([]*store.Worker, error) {
	now := s.d.Now()
	var conds []string
	var args []any
	lastSeen := defaultLastSeen
	if r.LastSeen != nil {
		lastSeen = *r.LastSeen
	}
	if lastSeen > 0 {
		conds = append(conds, "last_activity >= ?")
		args = append(args, now.Add(-time.Duration(max(1, lastSeen))*time.Second).UnixMilli())
	}
	for _, f := range []struct {
		name string
		raw  json.RawMessage
	}{{"tags", r.Tags}, {"system_tags", r.SystemTags}} {
		cond, cargs, err := query.ListFilter(s.d.DB.D, tagSchema, f.name, f.raw)
		if err != nil {
			return nil, err
		}
		if cond != "" {
			conds = append(conds, cond)
			args = append(args, cargs...)
		}
	}
	list, err := s.d.DB.LiveWorkers(ctx, s.d.DB.Read(), c.Company(), now.UnixMilli(), strings.Join(conds, " AND "), args...)
	if err != nil || r.WorkerPattern == "" {
		return list, err
	}
	re := globRegexp(r.WorkerPattern)
	out := list[:0]
	for _, w := range list {
		if re.MatchString(w.ID) {
			out = append(out, w)
		}
	}
	return out, nil
}

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

type getCountResponse struct {
	Count int `json:"count"`
}

func (s *service) getCount(ctx context.Context, c *rpc.Call, req *getCountRequest) (*getCountResponse, error) {
	list, err := s.find(ctx, c, req, 0)
	if err != nil {
		return nil, err
	}
	return &getCountResponse{Count: len(list)}, nil
}

// workerOut is a worker as get_all returns it.
type workerOut struct {
	Key              string        `json:"key"`
	ID               string        `json:"id"`
	User             store.IDName  `json:"user"`
	Company          store.IDName  `json:"company"`
	IP               string        `json:"ip,omitempty"`
	RegisterTime     jsonx.Time    `json:"register_time"`
	RegisterTimeout  int           `json:"register_timeout"`
	LastActivityTime jsonx.Time    `json:"last_activity_time"`
	LastReportTime   *jsonx.Time   `json:"last_report_time,omitempty"`
	Task             *currentTask  `json:"task,omitempty"`
	Project          *store.IDName `json:"project,omitempty"`
	Queue            *queueInfo    `json:"queue,omitempty"`
	Queues           []*queueInfo  `json:"queues"`
	Tags             []string      `json:"tags"`
	SystemTags       []string      `json:"system_tags"`
}

// currentTask is the task a worker runs.
type currentTask struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// RunningTime is the task's active duration in ms.
	RunningTime   int64 `json:"running_time"`
	LastIteration int64 `json:"last_iteration"`
}

// queueInfo is a queue a worker listens on.
type queueInfo struct {
	ID          string        `json:"id"`
	Name        string        `json:"name,omitempty"`
	DisplayName string        `json:"display_name,omitempty"`
	NextTask    *store.IDName `json:"next_task,omitempty"`
	NumTasks    int           `json:"num_tasks"`
}

type getAllResponse struct {
	Workers []*workerOut `json:"workers"`
}

func (s *service) getAll(ctx context.Context, c *rpc.Call, req *getAllRequest) (*getAllResponse, error) {
	list, err := s.find(ctx, c, &req.getCountRequest, getAllDefaultLastSeen)
	if err != nil {
		return nil, err
	}
	out := make([]*workerOut, len(list))
	var queueIDs, taskIDs []string
	for i, w := range list {
		out[i] = &workerOut{Key: w.Key, ID: w.ID, User: w.User, Company: w.Company, IP: w.IP, RegisterTime: w.RegisterTime,
			RegisterTimeout: w.RegisterTimeout, LastActivityTime: w.LastActivityTime, LastReportTime: w.LastReportTime,
			Project: w.Project, Queues: []*queueInfo{}, Tags: orEmpty(w.Tags), SystemTags: orEmpty(w.SystemTags)}
		if w.Task != nil {
			out[i].Task = &currentTask{ID: w.Task.ID, Name: w.Task.Name}
			taskIDs = append(taskIDs, w.Task.ID)
		}
		for _, qid := range w.Queues {
			qi := &queueInfo{ID: qid}
			out[i].Queues = append(out[i].Queues, qi)
			if qid == w.Queue {
				out[i].Queue = qi
			}
			queueIDs = append(queueIDs, qid)
		}
	}
	if err := s.fillQueues(ctx, out, queueIDs); err != nil {
		return nil, err
	}
	if err := s.fillTasks(ctx, out, taskIDs); err != nil {
		return nil, err
	}
	return &getAllResponse{Workers: out}, nil
}

// fillQueues names the queues of the workers, with their size and next task.
func (s *service) fillQueues(ctx context.Context, out []*workerOut, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	db, r := s.d.DB, s.d.DB.Read()
	queues, err := db.Queues().Select(ctx, r, "id IN ("+store.Placeholders(len(ids))+")", store.Args(ids)...)
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
	names, err := s.taskRecords(ctx, nextTasks)
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
				if t := names[e[0].Task]; t != nil {
					name = t.Name
				}
				qi.NextTask = &store.IDName{ID: e[0].Task, Name: name}
			}
		}
	}
	return nil
}

// fillTasks adds running time and last iteration of the workers' tasks.
func (s *service) fillTasks(ctx context.Context, out []*workerOut, ids []string) error {
	tasks, err := s.taskRecords(ctx, ids)
	if err != nil {
		return err
	}
	for _, w := range out {
		if w.Task == nil {
			continue
		}
		if t := tasks[w.Task.ID]; t != nil {
			if t.ActiveDuration != nil {
				w.Task.RunningTime = *t.ActiveDuration * 1000
			}
			w.Task.LastIteration = t.LastIteration
		}
	}
	return nil
}

func (s *service) taskRecords(ctx context.Context, ids []string) (map[string]*store.Task, error) {
	out := map[string]*store.Task{}
	if len(ids) == 0 {
		return out, nil
	}
	list, err := s.d.DB.Tasks().Select(ctx, s.d.DB.Read(), "id IN ("+store.Placeholders(len(ids))+")", store.Args(ids)...)
	if err != nil {
		return nil, err
	}
	for _, t := range list {
		out[t.ID] = t
	}
	return out, nil
}
