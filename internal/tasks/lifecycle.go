package tasks

import (
	"context"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// ResetRequest is a status request plus the reset options.
type ResetRequest struct {
	StatusRequest
	ClearAll           bool
	DeleteOutputModels bool
	// DeleteFiles removes the stored files of what the reset deleted.
	DeleteFiles bool
}

// ResetResult is what a reset did.
type ResetResult struct {
	*domain.Update
	// Dequeued is the number of queue entries removed (nil when the task
	// was not queued).
	Dequeued *int
	Cleanup  *CleanupResult
}

// Reset brings a task back to created, in its own transaction: out of
// every queue, outputs and events removed, run state cleared (status
// reason and message "reset"). The files go after the commit.
func Reset(ctx context.Context, d *domain.Env, r ResetRequest) (*ResetResult, error) {
	var out *ResetResult
	err := withCleanup(ctx, d, r.Company, r.DeleteFiles, func(q store.Querier) (*CleanupResult, error) {
		var err error
		out, err = reset(ctx, d, q, r)
		if err != nil {
			return nil, err
		}
		return out.Cleanup, nil
	})
	return out, err
}

func reset(ctx context.Context, d *domain.Env, q store.Querier, r ResetRequest) (*ResetResult, error) {
	t, err := LoadWritable(ctx, d, q, r.Company, r.Task)
	if err != nil {
		return nil, err
	}
	if err := CheckFrom(t, Created, ResetFrom, r.Force); err != nil {
		return nil, err
	}
	out := &ResetResult{}
	if out.Cleanup, err = cleanup(ctx, d, q, r.User, t, cleanupOptions{force: r.Force, deleteOutputModels: r.DeleteOutputModels}); err != nil {
		return nil, err
	}
	n, events, eventURLs, err := detach(ctx, d, q, []string{t.ID})
	if err != nil {
		return nil, err
	}
	out.Cleanup.Events, out.Cleanup.EventFiles = events, eventURLs
	if t.Status == Queued {
		out.Dequeued = &n
	}
	out.Update, err = SetStatus(ctx, d, q, r.User, t, Change{To: Created, Force: true, StatusReason: "reset", StatusMessage: "reset",
		Apply: func(t *store.Task, fields map[string]any) { clearRun(t, r.ClearAll, fields) }})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// clearRun empties what a run of the task produced.
func clearRun(t *store.Task, clearAll bool, fields map[string]any) {
	t.LastIteration = 0
	t.LastMetrics = map[string]map[string]*store.MetricSummary{}
	t.MetricStats = map[string]any{}
	t.Models.Output = []*store.TaskModelItem{}
	t.Runtime = map[string]any{}
	t.Output.Result, t.Output.Error = nil, nil
	t.LastWorker, t.LastWorkerReport = "", nil
	t.Started, t.Completed, t.Published, t.ActiveDuration = nil, nil, nil, nil
	t.EnqueueStatus = ""
	fields["last_iteration"] = 0
	fields["last_metrics"] = map[string]any{}
	fields["metric_stats"] = map[string]any{}
	fields["models.output"] = []any{}
	fields["runtime"] = map[string]any{}
	if clearAll {
		t.Execution = store.Execution{}
		t.Script = store.Script{}
		return
	}
	t.Execution.Queue = ""
	t.Execution.Artifacts = InputArtifacts(t.Execution.Artifacts)
}

// InputArtifacts returns the input artifacts of a list (never nil): what
// a task keeps of its artifacts when reset or cloned.
func InputArtifacts(list []*store.Artifact) []*store.Artifact {
	kept := []*store.Artifact{}
	for _, a := range list {
		if a.Mode == "input" {
			kept = append(kept, a)
		}
	}
	return kept
}

// DeleteRequest is a status request plus the delete options.
type DeleteRequest struct {
	StatusRequest
	DeleteOutputModels bool
	// DeleteFiles removes the stored files of what was deleted.
	DeleteFiles bool
}

// Delete removes a task, in its own transaction: refused while in
// progress or with children unless forced; out of every queue, outputs
// and events removed, children and kept models pointed at
// "__DELETED__<id>". The files go after the commit.
func Delete(ctx context.Context, d *domain.Env, r DeleteRequest) (*CleanupResult, error) {
	var res *CleanupResult
	err := withCleanup(ctx, d, r.Company, r.DeleteFiles, func(q store.Querier) (*CleanupResult, error) {
		var err error
		res, err = deleteOne(ctx, d, q, r)
		return res, err
	})
	return res, err
}

func deleteOne(ctx context.Context, d *domain.Env, q store.Querier, r DeleteRequest) (*CleanupResult, error) {
	t, err := LoadWritable(ctx, d, q, r.Company, r.Task)
	if err != nil {
		return nil, err
	}
	if !r.Force && has(DeleteRefused, t.Status) {
		return nil, apierr.TaskCannotBeDeleted("due to status, use force=True").With("task", t.ID, "current", t.Status)
	}
	res, err := cleanup(ctx, d, q, r.User, t, cleanupOptions{force: r.Force, anyChildBlocks: true, updateChildren: true, deleteOutputModels: r.DeleteOutputModels})
	if err != nil {
		return nil, err
	}
	if _, res.Events, res.EventFiles, err = purge(ctx, d, q, []string{t.ID}); err != nil {
		return nil, err
	}
	if err := d.DB.TouchProject(ctx, q, t.Project, d.Time()); err != nil {
		return nil, err
	}
	return res, nil
}

// Archive hides a task under the system tag archived. It leaves every
// queue first: a queued task goes back to its status before the enqueue
// (or created), a running one becomes stopped.
func Archive(ctx context.Context, d *domain.Env, q store.Querier, r StatusRequest) error {
	t, err := LoadWritable(ctx, d, q, r.Company, r.Task)
	if err != nil {
		return err
	}
	if _, err := d.DB.RemoveTaskFromQueues(ctx, q, t.ID, "", d.Time()); err != nil {
		return err
	}
	if t.Status == Queued || t.Status == InProgress {
		to := Stopped
		if t.Status == Queued {
			to = t.EnqueueStatus
			if to == "" || to == Queued {
				to = Created
			}
		}
		if _, err := SetStatus(ctx, d, q, r.User, t, Change{To: to, Force: true, StatusReason: r.StatusReason, StatusMessage: r.StatusMessage,
			Apply: func(t *store.Task, _ map[string]any) { t.EnqueueStatus = "" }}); err != nil {
			return err
		}
	}
	return setArchived(ctx, d, q, r, t, true)
}

// ArchiveAll archives every listed task in one transaction; any unknown
// id fails the whole call. It returns how many it archived.
func ArchiveAll(ctx context.Context, d *domain.Env, r StatusRequest, ids []string) (int, error) {
	n := 0
	err := d.DB.Tx(ctx, func(q store.Querier) error {
		if _, err := LoadAllWritable(ctx, d, q, r.Company, ids); err != nil {
			return err
		}
		for _, id := range ids {
			r.Task = id
			if err := Archive(ctx, d, q, r); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}

// Unarchive removes the archived system tag.
func Unarchive(ctx context.Context, d *domain.Env, q store.Querier, r StatusRequest) error {
	t, err := LoadWritable(ctx, d, q, r.Company, r.Task)
	if err != nil {
		return err
	}
	return setArchived(ctx, d, q, r, t, false)
}

func setArchived(ctx context.Context, d *domain.Env, q store.Querier, r StatusRequest, t *store.Task, archived bool) error {
	now := d.Time()
	reason, message := r.StatusReason, r.StatusMessage
	t.StatusReason, t.StatusMessage = &reason, &message
	t.SystemTags = domain.WithoutTag(t.SystemTags, TagArchived)
	if archived {
		t.SystemTags = domain.SortedTags(append(t.SystemTags, TagArchived))
	}
	t.LastChange, t.LastChangedBy = now, r.User
	return d.DB.Tasks().Update(ctx, q, t)
}
