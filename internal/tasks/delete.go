package tasks

import (
	"context"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// DeleteTasks deletes tasks with what hangs off them, inside the caller's
// transaction and without the rules of tasks.delete (projects.delete
// deleting a project's contents): queue entries, events and the rows. The
// URLs of the output artifacts are added to urls, and the files of the deleted
// events are returned apart: the caller removes both after it commits,
// and answers only urls (event URLs are not answered, as the reference
// answers).
func DeleteTasks(ctx context.Context, d *domain.Env, q store.Querier, ids []string, urls *domain.FileURLs) (int, []string, error) {
	if len(ids) == 0 {
		return 0, nil, nil
	}
	list, err := d.DB.TasksByID(ctx, q, ids)
	if err != nil {
		return 0, nil, err
	}
	for _, t := range list {
		urls.ArtifactURLs = append(urls.ArtifactURLs, artifactURLs(t)...)
	}
	n, _, eventFiles, err := purge(ctx, d, q, ids)
	return n, eventFiles, err
}

// purge removes the tasks' queue entries and events (detach) and then
// the task rows; it returns the rows and the events deleted and the
// events' file URLs.
func purge(ctx context.Context, d *domain.Env, q store.Querier, ids []string) (int, int64, []string, error) {
	_, events, eventURLs, err := detach(ctx, d, q, ids)
	if err != nil {
		return 0, 0, nil, err
	}
	n, err := d.DB.DeleteTasks(ctx, q, ids)
	return n, events, eventURLs, err
}

// detach is the one path by which tasks leave every queue and lose their
// events (reset and delete): it returns the queue entries and the events
// it removed and the file URLs of those events.
func detach(ctx context.Context, d *domain.Env, q store.Querier, ids []string) (dequeued int, events int64, eventURLs []string, err error) {
	if dequeued, err = d.DB.RemoveTasksFromAllQueues(ctx, q, ids, d.Time()); err != nil {
		return 0, 0, nil, err
	}
	if eventURLs, err = d.DB.EventFileURLs(ctx, q, ids); err != nil {
		return 0, 0, nil, err
	}
	if events, err = d.DB.Events().DeleteFor(ctx, q, ids); err != nil {
		return 0, 0, nil, err
	}
	// the MLflow metric history of the tasks goes with their events
	if err = d.DB.DeleteMetricPoints(ctx, q, ids); err != nil {
		return 0, 0, nil, err
	}
	return dequeued, events, eventURLs, nil
}

// artifactURLs lists the URIs of the task's output artifacts. Input
// artifacts are other tasks' files: deleting this task, or the project
// holding it, leaves them (as the reference does).
func artifactURLs(t *store.Task) []string {
	var out []string
	for _, a := range t.Execution.Artifacts {
		if a == nil || a.URI == nil || *a.URI == "" || a.Mode == "input" {
			continue
		}
		out = append(out, *a.URI)
	}
	return out
}

// withCleanup runs op, a reset or delete of one task, in its own
// transaction and then removes the files its cleanup gathered (when
// deleteFiles), so that files go only once the records are gone.
func withCleanup(ctx context.Context, d *domain.Env, company string, deleteFiles bool, op func(q store.Querier) (*CleanupResult, error)) error {
	var res *CleanupResult
	err := d.DB.Tx(ctx, func(q store.Querier) error {
		var err error
		res, err = op(q)
		return err
	})
	if err != nil {
		return err
	}
	if deleteFiles {
		d.RemoveFiles(ctx, company, res.URLs.ArtifactURLs, res.URLs.ModelURLs, res.URLs.EventURLs, res.EventFiles)
	}
	return nil
}
