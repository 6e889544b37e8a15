package workers

import (
	"context"
	"encoding/json"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/workers"
)

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

// filter is the request's worker filter, lastSeen when it names none.
func (r *getCountRequest) filter(lastSeen int) workers.Filter {
	if r.LastSeen != nil {
		lastSeen = *r.LastSeen
	}
	return workers.Filter{LastSeen: lastSeen, Tags: r.Tags, SystemTags: r.SystemTags, Pattern: r.WorkerPattern}
}

type getAllRequest struct{ getCountRequest }

// getAllDefaultLastSeen is get_all's last_seen when absent (get_count's is 0).
const getAllDefaultLastSeen = 3600

type getCountResponse struct {
	Count int `json:"count"`
}

func (s *service) getCount(ctx context.Context, c *rpc.Call, req *getCountRequest) (*getCountResponse, error) {
	list, err := workers.Find(ctx, &s.d.Env, c.Company(), req.filter(0))
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

// toWire is the one conversion of a listed worker to its wire shape.
func toWire(w *workers.Listed) *workerOut {
	out := &workerOut{Key: w.Key, ID: w.ID, User: w.User, Company: w.Company, IP: w.IP, RegisterTime: w.RegisterTime,
		RegisterTimeout: w.RegisterTimeout, LastActivityTime: w.LastActivityTime, LastReportTime: w.LastReportTime,
		Project: w.Project, Queues: make([]*queueInfo, len(w.Queues)), Tags: w.Tags, SystemTags: w.SystemTags}
	if w.Task != nil {
		out.Task = &currentTask{ID: w.Task.ID, Name: w.Task.Name, RunningTime: w.RunningTime, LastIteration: w.LastIteration}
	}
	for i, q := range w.Queues {
		out.Queues[i] = &queueInfo{ID: q.ID, Name: q.Name, DisplayName: q.DisplayName, NextTask: q.NextTask, NumTasks: q.NumTasks}
		if q == w.Current {
			out.Queue = out.Queues[i]
		}
	}
	return out
}

type getAllResponse struct {
	Workers []*workerOut `json:"workers"`
}

func (s *service) getAll(ctx context.Context, c *rpc.Call, req *getAllRequest) (*getAllResponse, error) {
	list, err := workers.List(ctx, &s.d.Env, c.Company(), req.filter(getAllDefaultLastSeen))
	if err != nil {
		return nil, err
	}
	out := make([]*workerOut, len(list))
	for i, w := range list {
		out[i] = toWire(w)
	}
	return &getAllResponse{Workers: out}, nil
}
