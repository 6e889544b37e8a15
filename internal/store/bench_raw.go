package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// RawScalar is one scalar point as the events table holds it.
type RawScalar struct {
	Series, Iter int64
	Value        float64
	TS, WTS      int64
	// TS0 is the series' base time (Series.TS0).
	TS0 int64
}

// InsertRawScalars writes points straight into event_scalars (in its
// stored form, events_scalars.go) in
// statements of 128 rows, with none of the events domain's work (no
// series, rollups or task upkeep). It exists as the baseline that
// trove-bench measures ingest against: the limit of the database itself.
func (db *DB) InsertRawScalars(ctx context.Context, q Querier, points []RawScalar) error {
	for lo := 0; lo < len(points); lo += 128 {
		part := points[lo:min(lo+128, len(points))]
		args := make([]any, 0, len(part)*5)
		for _, p := range part {
			args = append(args, p.Series, p.Iter, p.Value, p.TS-p.TS0, p.WTS-p.TS)
		}
		query := db.D.Rebind("INSERT INTO event_scalars (series, iter, value, dts, dwts) VALUES " +
			strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?, ?), ", len(part)), ", "))
		if _, err := q.ExecContext(ctx, query, args...); err != nil {
			return err
		}
	}
	return nil
}

// rawBulkDialect is how each database loads rows fastest: the limit
// trove-bench compares ingest with.
type rawBulkDialect interface {
	bulkRawScalars(ctx context.Context, db *DB, points []RawScalar) error
}

// BulkRawScalars writes one batch of points the fastest way the database
// has, in its own transaction: multi-row INSERTs on SQLite (as
// InsertRawScalars), one COPY on PostgreSQL.
func (db *DB) BulkRawScalars(ctx context.Context, points []RawScalar) error {
	return db.D.(rawBulkDialect).bulkRawScalars(ctx, db, points)
}

func (sqliteDialect) bulkRawScalars(ctx context.Context, db *DB, points []RawScalar) error {
	return db.Tx(ctx, func(q Querier) error { return db.InsertRawScalars(ctx, q, points) })
}

func (postgresDialect) bulkRawScalars(ctx context.Context, db *DB, points []RawScalar) error {
	conn, err := db.w.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		sc, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("unexpected driver connection %T", dc)
		}
		_, err := sc.Conn().CopyFrom(ctx, pgx.Identifier{"event_scalars"}, []string{"series", "iter", "value", "dts", "dwts"},
			pgx.CopyFromSlice(len(points), func(i int) ([]any, error) {
				p := &points[i]
				return []any{int32(p.Series), p.Iter, p.Value, p.TS - p.TS0, int32(p.WTS - p.TS)}, nil
			}))
		return err
	})
}

// AnyTaskCompany returns the company of some task ("" when there is
// none); benchmarks use it to find the company their token writes to.
func (db *DB) AnyTaskCompany(ctx context.Context) (string, error) {
	ids, err := IDs(ctx, db.Read(), "SELECT company FROM tasks LIMIT 1")
	if err != nil || len(ids) == 0 {
		return "", err
	}
	return ids[0], nil
}

// Analyze refreshes the planner's statistics of a table, as autovacuum
// would after a bulk load.
func (db *DB) Analyze(ctx context.Context, table string) error {
	_, err := db.Write().ExecContext(ctx, "ANALYZE "+table)
	return err
}
