package workers

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/workers"
)

type registerRequest struct {
	Worker string `json:"worker" required:"true"`
	// Timeout is in seconds (absent or 0: the default).
	Timeout    *int     `json:"timeout"`
	Queues     []string `json:"queues"`
	Tags       []string `json:"tags"`
	SystemTags []string `json:"system_tags"`
	// Resources (2.34) are set on the queues listened on.
	Resources *store.QueueResources `json:"resources"`
}

func (r *registerRequest) Validate() error {
	if r.Timeout != nil && *r.Timeout < 0 {
		return apierr.WorkerRegistrationFailed("invalid timeout").With("timeout", *r.Timeout, "worker", r.Worker)
	}
	if r.Resources != nil {
		for name, v := range map[string]*float64{"resources.cpu_usage": r.Resources.CPUUsage, "resources.gpu_usage": r.Resources.GPUUsage} {
			if v != nil && (*v < 0 || *v > 1e6) {
				return apierr.Validation(name, "must be between 0 and 1000000, got %v", *v)
			}
		}
	}
	return nil
}

// register (re-)registers a worker of the caller.
func (s *service) register(ctx context.Context, c *rpc.Call, req *registerRequest) (*struct{}, error) {
	r := workers.Registration{Worker: req.Worker, Queues: req.Queues, Tags: req.Tags, SystemTags: req.SystemTags}
	if c.Version.AtLeast(rpc.Version{Major: 2, Minor: 34}) {
		r.Resources = req.Resources
	}
	if req.Timeout != nil {
		r.Timeout = *req.Timeout
	}
	return nil, workers.Register(ctx, &s.d.Env, caller(c), r)
}

// caller is the worker's owner and address.
func caller(c *rpc.Call) workers.Caller {
	return workers.Caller{Company: c.Company(), User: c.User(), IP: api.RealIP(c)}
}

type workerRequest struct {
	Worker string `json:"worker" required:"true"`
}

func (s *service) unregister(ctx context.Context, c *rpc.Call, req *workerRequest) (*struct{}, error) {
	return nil, workers.Unregister(ctx, &s.d.Env, caller(c), req.Worker)
}

type statusReportRequest struct {
	Worker string `json:"worker" required:"true"`
	// Timestamp is when the statistics were taken: epoch seconds or
	// milliseconds.
	Timestamp    *float64              `json:"timestamp" required:"true"`
	MachineStats *workers.MachineStats `json:"machine_stats"`
	// Task is the task being run; absent clears it.
	Task string `json:"task"`
	// Queue is the queue the task came from; absent clears it.
	Queue string `json:"queue"`
	// Queues replaces the queues listened on when not empty.
	Queues []string `json:"queues"`
	// Tags and SystemTags replace the worker's tags (absent clears them).
	Tags       []string `json:"tags"`
	SystemTags []string `json:"system_tags"`
}

func (r *statusReportRequest) Validate() error {
	if *r.Timestamp < 0 || *r.Timestamp > 1e15 {
		return apierr.Validation("timestamp", "must be epoch seconds or milliseconds, got %v", *r.Timestamp)
	}
	return nil
}

func (s *service) statusReport(ctx context.Context, c *rpc.Call, req *statusReportRequest) (*struct{}, error) {
	return nil, workers.ReportStatus(ctx, &s.d.Env, caller(c), workers.StatusReport{Worker: req.Worker,
		Timestamp: *req.Timestamp, MachineStats: req.MachineStats, Task: req.Task, Queue: req.Queue,
		Queues: req.Queues, Tags: req.Tags, SystemTags: req.SystemTags})
}
