package workers

import (
	"context"
	"errors"
	"net"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/jsonx"
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
}

func (r *registerRequest) Validate() error {
	if r.Timeout != nil && *r.Timeout < 0 {
		return apierr.WorkerRegistrationFailed("invalid timeout").With("timeout", *r.Timeout, "worker", r.Worker)
	}
	return nil
}

// register (re-)registers a worker of the caller; its queues must be
// queues of the company.
func (s *service) register(ctx context.Context, c *rpc.Call, req *registerRequest) (*struct{}, error) {
	timeout := workers.DefaultTimeout
	if req.Timeout != nil && *req.Timeout > 0 {
		timeout = *req.Timeout
	}
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		if err := s.checkQueues(ctx, q, c.Company(), req.Queues); err != nil {
			return err
		}
		w, err := s.newWorker(ctx, c, req.Worker, timeout)
		if err != nil {
			return err
		}
		w.Queues = append(w.Queues, req.Queues...)
		w.Tags, w.SystemTags = orEmpty(req.Tags), orEmpty(req.SystemTags)
		return s.d.DB.SaveWorker(ctx, q, w)
	})
	return nil, err
}

// checkQueues refuses ids that are not queues of the company (400/701).
func (s *service) checkQueues(ctx context.Context, q store.Querier, company string, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	found, err := store.IDs(ctx, q, "SELECT id FROM queues WHERE company = ? AND id IN ("+store.Placeholders(len(ids))+")",
		append([]any{company}, store.Args(ids)...)...)
	if err != nil {
		return err
	}
	known := map[string]bool{}
	for _, id := range found {
		known[id] = true
	}
	var missing []string
	for _, id := range ids {
		if !known[id] {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		return apierr.InvalidQueueID(strings.Join(missing, ", "))
	}
	return nil
}

// newWorker is a fresh registration of the caller's worker.
func (s *service) newWorker(ctx context.Context, c *rpc.Call, id string, timeout int) (*store.Worker, error) {
	user, err := s.d.DB.GetUser(ctx, c.User())
	if errors.Is(err, store.ErrNotFound) {
		return nil, apierr.InvalidUserID(c.User())
	}
	if err != nil {
		return nil, err
	}
	company, err := s.d.DB.GetCompany(ctx, c.Company())
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	now := s.now()
	return &store.Worker{Key: store.WorkerKey(c.Company(), c.User(), id), ID: id,
		User: store.IDName{ID: user.ID, Name: user.Name}, Company: store.IDName{ID: c.Company(), Name: company.Name},
		IP: realIP(c), Queues: []string{}, RegisterTime: now, RegisterTimeout: timeout, LastActivityTime: now,
		Tags: []string{}, SystemTags: []string{}}, nil
}

func (s *service) now() jsonx.Time { return s.d.Time() }

// realIP is the caller's address: the first X-Forwarded-For hop, else
// X-Real-IP, else the peer.
func realIP(c *rpc.Call) string {
	if c.Request == nil {
		return ""
	}
	if f := c.Request.Header.Get("X-Forwarded-For"); f != "" {
		first, _, _ := strings.Cut(f, ",")
		return strings.TrimSpace(first)
	}
	if r := c.Request.Header.Get("X-Real-IP"); r != "" {
		return strings.TrimSpace(r)
	}
	host, _, err := net.SplitHostPort(c.Request.RemoteAddr)
	if err != nil {
		return c.Request.RemoteAddr
	}
	return host
}

func orEmpty(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}

type workerRequest struct {
	Worker string `json:"worker" required:"true"`
}

// unregister removes the caller's worker; an unknown worker is not an
// error (the reference's auto_unregister).
func (s *service) unregister(ctx context.Context, c *rpc.Call, req *workerRequest) (*struct{}, error) {
	_, err := s.d.DB.Workers().Delete(ctx, s.d.DB.Write(), store.WorkerKey(c.Company(), c.User(), req.Worker))
	return nil, err
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

// statusReport records a worker's state and statistics, registering an
// unknown worker. Naming a task marks the task as run by this worker. An
// unknown task fails the call (400/101) after the worker's activity and
// statistics are saved, as the reference does.
func (s *service) statusReport(ctx context.Context, c *rpc.Call, req *statusReportRequest) (*struct{}, error) {
	var taskErr error
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		taskErr = nil
		key := store.WorkerKey(c.Company(), c.User(), req.Worker)
		now := s.now()
		w, err := s.d.DB.Workers().GetForUpdate(ctx, q, key)
		if err == nil && w.Expires() <= now.Millis() {
			err = store.ErrNotFound
		}
		if errors.Is(err, store.ErrNotFound) {
			w, err = s.newWorker(ctx, c, req.Worker, workers.DefaultTimeout)
		}
		if err != nil {
			return err
		}
		w.IP = realIP(c)
		w.Tags, w.SystemTags = orEmpty(req.Tags), orEmpty(req.SystemTags)
		if req.MachineStats != nil {
			at := workers.ReportTime(*req.Timestamp).UnixMilli()
			if err := s.d.DB.InsertWorkerStats(ctx, q, req.MachineStats.Stats(c.Company(), req.Worker, req.Task, at)); err != nil {
				return err
			}
		}
		w.LastActivityTime = now
		w.Queue = req.Queue
		if len(req.Queues) > 0 {
			w.Queues = req.Queues
		}
		if req.Task == "" {
			w.Task, w.Project = nil, nil
		} else {
			if err := s.markTask(ctx, q, c, w, req.Task, now); err != nil {
				if apierr.As(err) == nil {
					return err
				}
				taskErr = err
				return s.d.DB.SaveWorker(ctx, q, w)
			}
		}
		w.LastReportTime = &now
		return s.d.DB.SaveWorker(ctx, q, w)
	})
	if err != nil {
		return nil, err
	}
	return nil, taskErr
}

// markTask records on the reported task that this worker runs it, and on
// the worker which task (and project) that is.
func (s *service) markTask(ctx context.Context, q store.Querier, c *rpc.Call, w *store.Worker, taskID string, now jsonx.Time) error {
	t, err := s.d.DB.Tasks().GetForUpdate(ctx, q, taskID, c.Company())
	if err != nil {
		return domain.NotFound(err, apierr.InvalidTaskID(taskID))
	}
	t.Normalize()
	t.LastWorker, t.LastWorkerReport = w.ID, &now
	t.LastUpdate, t.LastChange, t.LastChangedBy = now, now, c.User()
	if err := s.d.DB.Tasks().Update(ctx, q, t); err != nil {
		return err
	}
	w.Task = &store.IDName{ID: t.ID, Name: t.Name}
	if t.Project != "" {
		if p, err := s.d.DB.Projects().Get(ctx, q, t.Project); err == nil {
			w.Project = &store.IDName{ID: p.ID, Name: p.Name}
		} else if !errors.Is(err, store.ErrNotFound) {
			return err
		}
	}
	return nil
}
