package events

import (
	"context"
	"sort"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
)

// target is the task or model whose events a call reads or changes.
type target struct {
	ID, Name, Company, Status string
	Model                     bool
	// Ready is the model's ready flag.
	Ready       bool
	LastMetrics map[string]map[string]*store.MetricSummary
	MetricStats map[string]any
}

func taskTarget(t *store.Task) *target {
	return &target{ID: t.ID, Name: t.Name, Company: t.Company, Status: t.Status, LastMetrics: t.LastMetrics, MetricStats: t.MetricStats}
}

func modelTarget(m *store.Model) *target {
	return &target{ID: m.ID, Name: m.Name, Company: m.Company, Model: true, Ready: m.Ready, LastMetrics: m.LastMetrics}
}

func notFound(model bool, ids ...string) *apierr.Error {
	if model {
		return apierr.InvalidModelID(ids...)
	}
	return apierr.InvalidTaskID(ids...)
}

// readable loads a task (or model) the caller may read: its company's or
// a public one.
func (s *service) readable(ctx context.Context, c *rpc.Call, id string, model bool) (*target, error) {
	ts, err := s.readableMany(ctx, c, []string{id}, model)
	if err != nil {
		return nil, err
	}
	return ts[0], nil
}

// readableMany loads several readable tasks (or models), in the order
// given; unknown ids fail the call naming them.
func (s *service) readableMany(ctx context.Context, c *rpc.Call, ids []string, model bool) ([]*target, error) {
	uniq := dedupe(ids)
	if len(uniq) == 0 {
		return nil, apierr.Validation("tasks", "at least one id is required")
	}
	companies := domain.Visible(c.Company())
	where := "id IN (" + store.Placeholders(len(uniq)) + ") AND company IN (?, ?)"
	args := append(store.Args(uniq), companies[0], companies[1])
	found := map[string]*target{}
	db, q := s.d.DB, s.d.DB.Read()
	if model {
		ms, err := db.Models().Select(ctx, q, where, args...)
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			found[m.ID] = modelTarget(m)
		}
	} else {
		ts, err := db.Tasks().Select(ctx, q, where, args...)
		if err != nil {
			return nil, err
		}
		for _, t := range ts {
			found[t.ID] = taskTarget(t)
		}
	}
	var missing []string
	out := make([]*target, 0, len(uniq))
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

// writable loads a task (or model) of the caller's company whose events
// may change: published tasks and ready models need allowLocked.
func (s *service) writable(ctx context.Context, q store.Querier, c *rpc.Call, id string, model, allowLocked bool) (*target, error) {
	if model {
		m, err := s.d.DB.Models().Get(ctx, q, id, c.Company())
		if err != nil {
			return nil, domain.NotFound(err, apierr.InvalidModelID(id))
		}
		if m.Ready && !allowLocked {
			return nil, (&apierr.Error{Code: 400, Subcode: 201, Msg: "Invalid model id (Cannot update events for a published model)"}).With("id", id)
		}
		return modelTarget(m), nil
	}
	t, err := s.d.DB.Tasks().Get(ctx, q, id, c.Company())
	if err != nil {
		return nil, domain.NotFound(err, apierr.InvalidTaskID(id))
	}
	if (t.Status == "published" || t.Status == "publishing") && !allowLocked {
		return nil, (&apierr.Error{Code: 400, Subcode: 101, Msg: "Invalid task id (Cannot update events for a published task)"}).With("id", id)
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

func ids(ts []*target) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.ID
	}
	return out
}
