package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/trove-ml/trove/internal/store"
)

// The database's own limits, which trove-bench measures Trove against:
// raw loads of event_scalars and planner statistics.

// rawScalar is one scalar point as the events table holds it.
type rawScalar struct {
	Series, Iter int64
	Value        float64
	TS, WTS      int64
	// TS0 is the series' base time (Series.TS0).
	TS0 int64
}

// insertRawScalars writes points straight into event_scalars (in its
// stored form, eventstore/scalars.go) in
// statements of 128 rows, with none of the events domain's work (no
// series, rollups or task upkeep). It exists as the baseline that
// trove-bench measures ingest against: the limit of the database itself.
func insertRawScalars(ctx context.Context, db *store.DB, q store.Querier, points []rawScalar) error {
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

// bulkRawScalars writes one batch of points the fastest way the database
// has, in its own transaction: multi-row INSERTs on SQLite (as
// InsertRawScalars), one COPY on PostgreSQL.
func bulkRawScalars(ctx context.Context, db *store.DB, points []rawScalar) error {
	if !db.IsPostgres() {
		return db.Tx(ctx, func(q store.Querier) error { return insertRawScalars(ctx, db, q, points) })
	}
	conn, err := db.WritePool().Conn(ctx)
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

// anyTaskCompany returns the company of some task ("" when there is
// none); benchmarks use it to find the company their token writes to.
func anyTaskCompany(ctx context.Context, db *store.DB) (string, error) {
	ids, err := store.IDs(ctx, db.Read(), "SELECT company FROM tasks LIMIT 1")
	if err != nil || len(ids) == 0 {
		return "", err
	}
	return ids[0], nil
}

// analyze refreshes the planner's statistics of a table, as autovacuum
// would after a bulk load.
func analyze(ctx context.Context, db *store.DB, table string) error {
	_, err := db.Write().ExecContext(ctx, "ANALYZE "+table)
	return err
}
