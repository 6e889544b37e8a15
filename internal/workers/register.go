package workers

import (
	"context"
	"errors"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
)

// Caller is who registers or reports: a worker belongs to the company and
// user of the credentials, and remembers the address it called from.
type Caller struct {
	Company, User, IP string
}

func (c Caller) key(worker string) string { return store.WorkerKey(c.Company, c.User, worker) }

// Registration is a workers.register call.
type Registration struct {
	Worker string
	// Timeout is in seconds (<= 0: DefaultTimeout).
	Timeout                  int
	Queues, Tags, SystemTags []string
	// Resources (2.34), when given, are set on the queues listened on.
	Resources *store.QueueResources
}

// Register (re-)registers the caller's worker; its queues must be queues
// of the company (400/701 naming the unknown ones).
func Register(ctx context.Context, d *domain.Env, c Caller, r Registration) error {
	timeout := DefaultTimeout
	if r.Timeout > 0 {
		timeout = r.Timeout
	}
	return d.DB.Tx(ctx, func(q store.Querier) error {
		if err := checkQueues(ctx, d, q, c.Company, r.Queues); err != nil {
			return err
		}
		w, err := newWorker(ctx, d, c, r.Worker, timeout)
		if err != nil {
			return err
		}
		w.Queues = append(w.Queues, r.Queues...)
		w.Tags, w.SystemTags = orEmpty(r.Tags), orEmpty(r.SystemTags)
		if r.Resources != nil {
			// As the reference: the resources replace those of every
			// queue listened on.
			for _, id := range r.Queues {
				qu, err := d.DB.Queues().GetForUpdate(ctx, q, id, c.Company)
				if err != nil {
					return err
				}
				res := *r.Resources
				qu.Resources = &res
				if err := d.DB.Queues().Update(ctx, q, qu); err != nil {
					return err
				}
			}
		}
		return d.DB.SaveWorker(ctx, q, w)
	})
}

// checkQueues refuses ids that are not queues of the company (400/701).
func checkQueues(ctx context.Context, d *domain.Env, q store.Querier, company string, ids []string) error {
	found, err := d.DB.KnownQueueIDs(ctx, q, company, ids)
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
func newWorker(ctx context.Context, d *domain.Env, c Caller, id string, timeout int) (*store.Worker, error) {
	user, err := d.DB.GetUser(ctx, c.User)
	if errors.Is(err, store.ErrNotFound) {
		return nil, apierr.InvalidUserID(c.User)
	}
	if err != nil {
		return nil, err
	}
	company, err := d.DB.GetCompany(ctx, c.Company)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	now := d.Time()
	return &store.Worker{Key: c.key(id), ID: id,
		User: store.IDName{ID: user.ID, Name: user.Name}, Company: store.IDName{ID: c.Company, Name: company.Name},
		IP: c.IP, Queues: []string{}, RegisterTime: now, RegisterTimeout: timeout, LastActivityTime: now,
		Tags: []string{}, SystemTags: []string{}}, nil
}

func orEmpty(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}

// Unregister removes the caller's worker; an unknown worker is not an
// error (the reference's auto_unregister).
func Unregister(ctx context.Context, d *domain.Env, c Caller, worker string) error {
	_, err := d.DB.Workers().Delete(ctx, d.DB.Write(), c.key(worker))
	return err
}

// SweepExpired deletes the rows of expired workers (reads skip them
// anyway; a background job).
func SweepExpired(ctx context.Context, d *domain.Env) error {
	_, err := d.DB.DeleteExpiredWorkers(ctx, d.DB.Write(), d.Now().UnixMilli())
	return err
}

// StatusReport is a workers.status_report call.
type StatusReport struct {
	Worker string
	// Timestamp is when the statistics were taken (see ReportTime).
	Timestamp    float64
	MachineStats *MachineStats
	// Task is the task being run; "" clears it.
	Task string
	// Queue is the queue the task came from; "" clears it.
	Queue string
	// Queues replaces the queues listened on when not empty.
	Queues []string
	// Tags and SystemTags replace the worker's tags (nil clears them).
	Tags, SystemTags []string
}

// ReportStatus records a worker's state and statistics, registering an
// unknown (or expired) worker. Naming a task marks the task as run by this
// worker. An unknown task fails the call (400/101) after the worker's
// activity and statistics are saved, as the reference does.
func ReportStatus(ctx context.Context, d *domain.Env, c Caller, r StatusReport) error {
	var taskErr error
	err := d.DB.Tx(ctx, func(q store.Querier) error {
		taskErr = nil
		now := d.Time()
		w, err := d.DB.Workers().GetForUpdate(ctx, q, c.key(r.Worker))
		if err == nil && w.Expires() <= now.Millis() {
			err = store.ErrNotFound
		}
		if errors.Is(err, store.ErrNotFound) {
			w, err = newWorker(ctx, d, c, r.Worker, DefaultTimeout)
		}
		if err != nil {
			return err
		}
		w.IP = c.IP
		w.Tags, w.SystemTags = orEmpty(r.Tags), orEmpty(r.SystemTags)
		if r.MachineStats != nil {
			at := ReportTime(r.Timestamp).UnixMilli()
			if err := d.DB.InsertWorkerStats(ctx, q, r.MachineStats.Stats(c.Company, r.Worker, r.Task, at)); err != nil {
				return err
			}
		}
		w.LastActivityTime = now
		w.Queue = r.Queue
		if len(r.Queues) > 0 {
			w.Queues = r.Queues
		}
		if r.Task == "" {
			w.Task, w.Project = nil, nil
		} else if err := markTask(ctx, d, q, c, w, r.Task, now); err != nil {
			if apierr.As(err) == nil {
				return err
			}
			taskErr = err
			return d.DB.SaveWorker(ctx, q, w)
		}
		w.LastReportTime = &now
		return d.DB.SaveWorker(ctx, q, w)
	})
	if err != nil {
		return err
	}
	return taskErr
}

// markTask records on the reported task that this worker runs it, and on
// the worker which task (and project) that is.
func markTask(ctx context.Context, d *domain.Env, q store.Querier, c Caller, w *store.Worker, taskID string, now jsonx.Time) error {
	t, err := d.DB.Tasks().GetForUpdate(ctx, q, taskID, c.Company)
	if err != nil {
		return domain.NotFound(err, apierr.InvalidTaskID(taskID))
	}
	t.Normalize()
	t.LastWorker, t.LastWorkerReport = w.ID, &now
	t.LastUpdate, t.LastChange, t.LastChangedBy = now, now, c.User
	if err := d.DB.Tasks().Update(ctx, q, t); err != nil {
		return err
	}
	w.Task = &store.IDName{ID: t.ID, Name: t.Name}
	if t.Project != "" {
		if p, err := d.DB.Projects().Get(ctx, q, t.Project); err == nil {
			w.Project = &store.IDName{ID: p.ID, Name: p.Name}
		} else if !errors.Is(err, store.ErrNotFound) {
			return err
		}
	}
	return nil
}
