package queues

import (
	"context"
	"slices"
	"time"

	"github.com/trove-ml/trove/internal/store"
)

// Metrics records queue metrics (length and mean waiting time) and reads
// them back in time buckets. Samples live in the database, so every Trove
// process records into and reads from the same series.
type Metrics struct {
	DB  *store.DB
	Now func() time.Time
}

// Refresh settings, as the reference: a queue without a sample for
// RefreshAfter gets one at the next periodic check.
const (
	RefreshEvery = 60 * time.Second
	RefreshAfter = 300 * time.Second
	// LookBehind widens a read before from_date, so that a chart starts
	// with the state the queue was in.
	LookBehind = 3600 * time.Second
)

// Record takes a sample of the queue now, without touching the queue.
func (m *Metrics) Record(ctx context.Context, q store.Querier, company, queueID string) error {
	return m.record(ctx, q, company, queueID, m.Now().UnixMilli())
}

func (m *Metrics) record(ctx context.Context, q store.Querier, company, queueID string, at int64) error {
	return m.DB.SampleQueue(ctx, q, company, queueID, at)
}

// RefreshStale samples every queue whose last sample is older than
// RefreshAfter (a background job), so that idle queues keep a series.
func (m *Metrics) RefreshStale(ctx context.Context) error {
	since := m.Now().Add(-RefreshAfter).UnixMilli()
	stale, err := m.DB.StaleQueues(ctx, m.DB.Read(), since)
	if err != nil {
		return err
	}
	for _, qu := range stale {
		if err := m.DB.Tx(ctx, func(q store.Querier) error { return m.Record(ctx, q, qu.Company, qu.ID) }); err != nil {
			return err
		}
	}
	return nil
}

// Report reads the metrics of the company's queues (see Read): named
// queues must be the company's (400/701), and refresh samples them (all of
// the company's when none are named) before reading. Hidden queues (system
// tag k8s-glue) are left out, named or not (as the reference from 2.2):
// when no visible queue remains the answer has no series.
func (m *Metrics) Report(ctx context.Context, r SeriesRequest, refresh bool) ([]*Series, error) {
	var visible []string
	for _, id := range r.Queues {
		qu, err := Get(ctx, m.DB, m.DB.Read(), r.Company, id)
		if err != nil {
			return nil, err
		}
		if !isHidden(qu) {
			visible = append(visible, id)
		}
	}
	if refresh {
		if err := m.refresh(ctx, r.Company, r.Queues); err != nil {
			return nil, err
		}
	}
	if len(r.Queues) == 0 {
		ids, err := m.DB.QueueIDsOf(ctx, m.DB.Read(), r.Company)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			qu, err := Get(ctx, m.DB, m.DB.Read(), r.Company, id)
			if err != nil {
				continue // deleted meanwhile
			}
			if !isHidden(qu) {
				visible = append(visible, id)
			}
		}
	}
	if len(visible) == 0 {
		return []*Series{}, nil
	}
	return m.read(ctx, r, visible, len(r.Queues) > 0)
}

// isHidden says whether a queue carries a hidden system tag.
func isHidden(qu *store.Queue) bool {
	for _, tag := range hiddenTags {
		if slices.Contains(qu.SystemTags, tag) {
			return true
		}
	}
	return false
}

// refresh samples the named queues (all of the company's when none).
func (m *Metrics) refresh(ctx context.Context, company string, ids []string) error {
	if len(ids) == 0 {
		var err error
		if ids, err = m.DB.QueueIDsOf(ctx, m.DB.Read(), company); err != nil {
			return err
		}
	}
	return m.DB.Tx(ctx, func(q store.Querier) error {
		for _, id := range ids {
			if err := m.Record(ctx, q, company, id); err != nil {
				return err
			}
		}
		return nil
	})
}
