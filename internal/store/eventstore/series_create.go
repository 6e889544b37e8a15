package eventstore

import (
	"context"
	"fmt"

	"github.com/trove-ml/trove/internal/store"
)

// CreateSeriesMany creates series (none of which exists yet) and sets
// their ids, with multi-row inserts: a task's first batch brings all its
// series at once (50 for a 5x10 scalar report), and one round trip each
// was most of that batch's time on PostgreSQL.
func (s *Store) CreateSeriesMany(ctx context.Context, q store.Querier, list []*Series) error {
	const cols = 9
	byKey := make(map[[3]string]*Series, len(list))
	for _, sr := range list {
		byKey[[3]string{sr.Task, sr.Metric, sr.Variant}] = sr
	}
	i := 0
	args := make([]any, 0, min(len(list), chunkSizes[0])*cols)
	for _, size := range chunkSizes {
		for len(list)-i >= size {
			args = args[:0]
			for _, sr := range list[i : i+size] {
				me := 0
				if sr.ModelEvent {
					me = 1
				}
				args = append(args, sr.Task, sr.Metric, sr.Variant, me, sr.Worker, sr.MaxIter, sr.LastWTS, sr.RolledThrough, sr.TS0)
			}
			sqlText := store.MultiRowSQL(s.db.D, "INSERT INTO event_series (task, metric, variant, model_event, worker, max_iter, last_wts, rolled_through, ts0)",
				"("+store.Placeholders(cols)+")", " RETURNING id, task, metric, variant", size)
			if err := s.scanCreated(ctx, q, sqlText, args, byKey); err != nil {
				return err
			}
			i += size
		}
	}
	for _, sr := range list {
		if sr.ID == 0 {
			return fmt.Errorf("series %s %s/%s: no id returned", sr.Task, sr.Metric, sr.Variant)
		}
	}
	s.cacheCreated(q, list)
	return nil
}

// cacheCreated adds created series to the series cache once their
// transaction commits.
func (s *Store) cacheCreated(q store.Querier, list []*Series) {
	cache := s.series.usable(q)
	if cache == nil {
		s.series.changed(q, nil, tasksOfSeries(list))
		return
	}
	gen := cache.generation()
	rows := make([]Series, len(list))
	for i, sr := range list {
		rows[i] = *sr
	}
	store.AfterCommit(q, func() { cache.created(gen, rows) })
}

func tasksOfSeries(list []*Series) []string {
	out := make([]string, len(list))
	for i, sr := range list {
		out[i] = sr.Task
	}
	return out
}

func (s *Store) scanCreated(ctx context.Context, q store.Querier, sqlText string, args []any, byKey map[[3]string]*Series) error {
	rows, err := q.QueryContext(ctx, sqlText, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var k [3]string
		if err := rows.Scan(&id, &k[0], &k[1], &k[2]); err != nil {
			return err
		}
		if sr := byKey[k]; sr != nil {
			sr.ID = id
		}
	}
	return rows.Err()
}
