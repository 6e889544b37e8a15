package events

import (
	"context"
	"sort"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// Target is the task or model whose events a call reads or changes.
type Target struct {
	ID, Name, Company, Status string
	Model                     bool
	// Ready is the model's ready flag.
	Ready       bool
	LastMetrics map[string]map[string]*store.MetricSummary
	MetricStats map[string]any
}

func taskTarget(t *store.Task) *Target {
	return &Target{ID: t.ID, Name: t.Name, Company: t.Company, Status: t.Status, LastMetrics: t.LastMetrics, MetricStats: t.MetricStats}
}

func modelTarget(m *store.Model) *Target {
	return &Target{ID: m.ID, Name: m.Name, Company: m.Company, Model: true, Ready: m.Ready, LastMetrics: m.LastMetrics}
}

func notFound(model bool, ids ...string) *apierr.Error {
	if model {
		return apierr.InvalidModelID(ids...)
	}
	return apierr.InvalidTaskID(ids...)
}

// Readable loads a task (or model) the company may read: its own or a
// public one.
func Readable(ctx context.Context, d *domain.Env, company, id string, model bool) (*Target, error) {
	ts, err := ReadableMany(ctx, d, company, []string{id}, model)
	if err != nil {
		return nil, err
	}
	return ts[0], nil
}

// ReadableMany loads several readable tasks (or models) in the order given,
// each once; no id is a validation error of tasks, unknown ids fail the
// call naming them.
func ReadableMany(ctx context.Context, d *domain.Env, company string, ids []string, model bool) ([]*Target, error) {
	uniq := dedupe(ids)
	if len(uniq) == 0 {
		return nil, apierr.Validation("tasks", "at least one id is required")
	}
	found := map[string]*Target{}
	if model {
		ms, err := d.DB.ModelsIn(ctx, d.DB.Read(), uniq, domain.Visible(company))
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			found[m.ID] = modelTarget(m)
		}
	} else {
		ts, err := d.DB.TasksIn(ctx, d.DB.Read(), uniq, domain.Visible(company))
		if err != nil {
			return nil, err
		}
		for _, t := range ts {
			found[t.ID] = taskTarget(t)
		}
	}
	var missing []string
	out := make([]*Target, 0, len(uniq))
	for _, id := range uniq {
		if t := found[id]; t != nil {
			out = append(out, t)
		} else {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return nil, notFound(model, missing...)
	}
	return out, nil
}

// Writable loads a task (or model) of the company whose events may change
// in the transaction q: published tasks and ready models need allowLocked.
func Writable(ctx context.Context, d *domain.Env, q store.Querier, company, id string, model, allowLocked bool) (*Target, error) {
	if model {
		m, err := d.DB.Models().Get(ctx, q, id, company)
		if err != nil {
			return nil, domain.NotFound(err, apierr.InvalidModelID(id))
		}
		if m.Ready && !allowLocked {
			return nil, apierr.EventsLockedModel(id)
		}
		return modelTarget(m), nil
	}
	t, err := d.DB.Tasks().Get(ctx, q, id, company)
	if err != nil {
		return nil, domain.NotFound(err, apierr.InvalidTaskID(id))
	}
	if lockedStatuses[t.Status] && !allowLocked {
		return nil, apierr.EventsLockedTask(id)
	}
	return taskTarget(t), nil
}

func dedupe(ids []string) []string {
	seen := make(map[string]bool, len(ids))
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if id != "" && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// IDs lists the ids of targets, in order.
func IDs(ts []*Target) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.ID
	}
	return out
}
