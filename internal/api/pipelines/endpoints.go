// Package pipelines serves pipelines.start_pipeline and
// pipelines.delete_runs; the rules live in internal/pipelines.
package pipelines

import (
	"context"
	"encoding/json"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/pipelines"
	"github.com/trove-ml/trove/internal/rpc"
)

// Register adds the pipelines operations.
func Register(r *rpc.Registry, d *api.Deps) {
	s := &service{d: d}
	r.Add(
		rpc.Endpoint{Name: "pipelines.start_pipeline", MinVersion: "2.17", Access: rpc.Write, Handler: rpc.Typed(s.startPipeline)},
		rpc.Endpoint{Name: "pipelines.delete_runs", MinVersion: "2.26", Access: rpc.Write, Handler: rpc.Typed(s.deleteRuns)},
	)
}

type service struct{ d *api.Deps }

// argValue is a run argument's name or value: a string, or a number or
// boolean taken as its text (the reference stringifies them).
type argValue string

func (v *argValue) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*v = argValue(s)
		return nil
	}
	var x any
	if err := json.Unmarshal(b, &x); err != nil {
		return err
	}
	switch x.(type) {
	case float64, bool:
		*v = argValue(string(b))
		return nil
	}
	return apierr.Validation("args", "name and value must be strings")
}

type arg struct {
	Name  argValue `json:"name"`
	Value argValue `json:"value"`
}

type startRequest struct {
	Task               string `json:"task" required:"true"`
	Queue              string `json:"queue"`
	Args               []arg  `json:"args"`
	VerifyWatchedQueue bool   `json:"verify_watched_queue"`
}

func (r *startRequest) Validate() error {
	for _, a := range r.Args {
		if a.Name == "" {
			return apierr.Required("args", "name")
		}
	}
	return nil
}

type startResponse struct {
	Pipeline     string `json:"pipeline"`
	Enqueued     bool   `json:"enqueued"`
	QueueWatched *bool  `json:"queue_watched,omitempty"`
}

func (s *service) startPipeline(ctx context.Context, c *rpc.Call, req *startRequest) (*startResponse, error) {
	in := pipelines.StartInput{Company: c.Company(), User: c.User(), Task: req.Task, Queue: req.Queue,
		VerifyWatchedQueue: req.VerifyWatchedQueue}
	for _, a := range req.Args {
		in.Args = append(in.Args, pipelines.Arg{Name: string(a.Name), Value: string(a.Value)})
	}
	res, err := pipelines.Start(ctx, &s.d.Env, in)
	if err != nil {
		return nil, err
	}
	return &startResponse{Pipeline: res.ID, Enqueued: res.Enqueued, QueueWatched: res.QueueWatched}, nil
}

type deleteRunsRequest struct {
	IDs     []string `json:"ids" required:"true"`
	Project string   `json:"project" required:"true"`
}

func (r *deleteRunsRequest) Validate() error {
	if len(r.IDs) == 0 {
		return apierr.Validation("ids", "at least one id is required")
	}
	return nil
}

func (s *service) deleteRuns(ctx context.Context, c *rpc.Call, req *deleteRunsRequest) (*api.BatchResult, error) {
	ids, err := pipelines.RunsToDelete(ctx, &s.d.Env, c.Company(), req.Project, req.IDs)
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return &api.BatchResult{Succeeded: []map[string]any{}, Failed: []api.BatchFailure{}}, nil
	}
	return api.RunBatch(ctx, ids, func(ctx context.Context, id string) (map[string]any, error) {
		res, err := pipelines.DeleteRun(ctx, &s.d.Env, c.Company(), c.User(), id)
		if err != nil {
			return nil, err
		}
		return map[string]any{"deleted": true, "updated_children": res.UpdatedChildren,
			"updated_models": res.UpdatedModels, "deleted_models": res.DeletedModels}, nil
	})
}
