package eventstore

import (
	"context"

	"github.com/trove-ml/trove/internal/store"
)

// ScalarRow is one scalar point to store (scalars.go has its
// stored form).
type ScalarRow struct {
	Series int64
	Iter   int64
	Value  float64
	// TS is the event time and WTS the write time, epoch ms.
	TS, WTS int64
	// TS0 is the series' base time (Series.TS0).
	TS0 int64
	// Worker is nil when it is the series' worker.
	Worker *string
	// Extra holds the members Trove does not interpret, as a JSON object.
	Extra *string
}

// StoredValue is a stored point's value and its event time less its
// series' base time (Series.TS0).
type StoredValue struct {
	Value float64
	DTS   int64
}

// ScalarValues returns the stored values of a series' points with
// lo <= iter <= hi (to account for points a batch replaces). Packed
// points in that range are unpacked first, for the batch to replace.
func (s *Store) ScalarValues(ctx context.Context, q store.Querier, series, lo, hi int64) (map[int64]StoredValue, error) {
	if err := s.thaw(ctx, q, series, lo, hi); err != nil {
		return nil, err
	}
	src, args := s.unpackedFrom("= ?", []any{series}, lo, hi, 0, false)
	rows, err := q.QueryContext(ctx, "SELECT iter, value, dts FROM "+src+" p WHERE series = ? AND iter >= ? AND iter <= ?", append(args, series, lo, hi)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]StoredValue{}
	for rows.Next() {
		var it int64
		var v StoredValue
		if err := rows.Scan(&it, &v.Value, &v.DTS); err != nil {
			return nil, err
		}
		out[it] = v
	}
	return out, rows.Err()
}

// replacePoint is the tail of a points insert whose point replaces the
// stored one with its key.
const replacePoint = " ON CONFLICT (series, iter) DO UPDATE SET value = excluded.value, dts = excluded.dts, dwts = excluded.dwts"

// UpsertScalars writes points; a point with the same (series, iter)
// replaces the stored one, extras included (a staged one too: the
// replacing point goes to event_scalars). rows must not repeat a
// (series, iter).
func (s *Store) UpsertScalars(ctx context.Context, q store.Querier, rows []ScalarRow) error {
	if err := s.unstageRows(ctx, q, rows); err != nil {
		return err
	}
	if err := s.insertPoints(ctx, q, rows, replacePoint); err != nil {
		return err
	}
	if err := s.multiRows(ctx, q, "DELETE FROM event_scalar_extras WHERE (series, iter) IN (", "(CAST(? AS BIGINT), CAST(? AS BIGINT))", 2, ")",
		len(rows), func(args []any, i int) []any { return append(args, rows[i].Series, rows[i].Iter) }); err != nil {
		return err
	}
	return s.insertExtras(ctx, q, rows)
}

// InsertScalars writes points that cannot exist yet (above their series'
// highest iteration). Where the store stages small writes, the series
// rows brings few points of are staged (staged.go).
func (s *Store) InsertScalars(ctx context.Context, q store.Querier, rows []ScalarRow) error {
	direct := rows
	if s.stages() {
		var staged []ScalarRow
		staged, direct = splitStaged(rows)
		if err := s.insertStaged(ctx, q, staged); err != nil {
			return err
		}
	}
	if err := s.insertPoints(ctx, q, direct, ""); err != nil {
		return err
	}
	return s.insertExtras(ctx, q, rows)
}

// insertExtras writes the extras of the rows that have any.
func (s *Store) insertExtras(ctx context.Context, q store.Querier, rows []ScalarRow) error {
	var extras []ScalarRow
	for i := range rows {
		if hasExtras(&rows[i]) {
			extras = append(extras, rows[i])
		}
	}
	return s.insertRows(ctx, q, "INSERT INTO event_scalar_extras (series, iter, worker, extra, wts)", 5, "",
		len(extras), func(args []any, i int) []any {
			r := &extras[i]
			var wts any
			if _, fits := writeOffset(r); !fits {
				wts = r.WTS
			}
			return append(args, r.Series, r.Iter, strArg(r.Worker), strArg(r.Extra), wts)
		})
}

// strArg passes an optional string as a plain value or NULL (a typed nil
// pointer costs database/sql a reflection per argument).
func strArg(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

// Rollup is a change to the sum and count of one bucket of a series.
type Rollup struct {
	Series int64
	Level  int
	Bucket int64
	Cnt    int64
	Total  float64
}

// InsertRollups writes buckets that do not exist yet.
func (s *Store) InsertRollups(ctx context.Context, q store.Querier, rows []Rollup) error {
	return s.insertRollups(ctx, q, rows, "")
}

// AddRollups adds the changes to the stored buckets. rows must not repeat
// a (series, level, bucket).
func (s *Store) AddRollups(ctx context.Context, q store.Querier, rows []Rollup) error {
	return s.insertRollups(ctx, q, rows, " ON CONFLICT (series, level, bucket) DO UPDATE SET cnt = event_scalar_rollups.cnt + excluded.cnt, total = event_scalar_rollups.total + excluded.total")
}

// DocRow is one stored plot, debug image or vector event.
type DocRow struct {
	ID              int64
	Task            string
	EType           string
	Metric, Variant string
	Iter            int64
	Key             string
	TS              int64
	URL             *string
	// Doc is the event as a JSON object, without plot_str.
	Doc []byte
	// Plot holds plot_str as text, or PlotZ compressed.
	Plot  *string
	PlotZ []byte
}

// UpsertDocs writes documents; a row with the same identity (task, etype,
// metric, variant, iter, key) replaces the stored one. rows must not
// repeat an identity.
func (s *Store) UpsertDocs(ctx context.Context, q store.Querier, rows []DocRow) error {
	return s.insertRows(ctx, q, "INSERT INTO event_docs (task, etype, metric, variant, iter, ekey, ts, url, doc, plot, plot_z)", 11,
		" ON CONFLICT (task, etype, metric, variant, iter, ekey) DO UPDATE SET ts = excluded.ts, url = excluded.url, doc = excluded.doc, plot = excluded.plot, plot_z = excluded.plot_z",
		len(rows), func(args []any, i int) []any {
			r := &rows[i]
			var z any
			if r.PlotZ != nil {
				z = r.PlotZ
			}
			return append(args, r.Task, r.EType, r.Metric, r.Variant, r.Iter, r.Key, r.TS, strArg(r.URL), string(r.Doc), strArg(r.Plot), z)
		})
}

// LogRow is one stored log event.
type LogRow struct {
	ID      int64
	Task    string
	TS, WTS int64
	// Iter is nil when the event has no iteration.
	Iter               *int64
	Level, Worker, Msg *string
	Metric, Variant    string
	Extra              *string
}

// InsertLogs appends log events (they are never replaced).
func (s *Store) InsertLogs(ctx context.Context, q store.Querier, rows []LogRow) error {
	return s.insertRows(ctx, q, "INSERT INTO event_logs (task, ts, wts, iter, level, worker, msg, metric, variant, extra)", 10, "",
		len(rows), func(args []any, i int) []any {
			r := &rows[i]
			var it any
			if r.Iter != nil {
				it = *r.Iter
			}
			return append(args, r.Task, r.TS, r.WTS, it, strArg(r.Level), strArg(r.Worker), strArg(r.Msg), r.Metric, r.Variant, strArg(r.Extra))
		})
}
