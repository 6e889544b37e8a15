package eventstore

import (
	"context"
	"strconv"
	"strings"

	"github.com/trove-ml/trove/internal/store"
)

// PostgreSQL takes a batch of points (or rollups) as one array per column,
// unnested by the statement: five parameters whatever the batch's size,
// where multi-row VALUES need five per row, each bound, converted and
// planned apart (the 512-row shape was most of the server's CPU per point).
// SQLite keeps its multi-row statements (cheap there: no protocol, and
// its cached programs bind in place).

// columnsDialect is a dialect that inserts rows given as arrays.
type columnsDialect interface {
	// columnsSQL is "head SELECT * FROM unnest($1::t1[], ...) tail".
	columnsSQL(head string, types []string, tail string) string
}

func (postgresEvents) columnsSQL(head string, types []string, tail string) string {
	var b strings.Builder
	b.WriteString(head)
	b.WriteString(" SELECT * FROM unnest(")
	for i, t := range types {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("$")
		b.WriteString(strconv.Itoa(i + 1))
		b.WriteString("::")
		b.WriteString(t)
		b.WriteString("[]")
	}
	b.WriteString(")")
	b.WriteString(tail)
	return b.String()
}

const pointsHead = "INSERT INTO event_scalars (series, iter, value, dts, dwts)"

// insertPoints writes rows' points (not their extras) with the conflict
// clause tail.
func (s *Store) insertPoints(ctx context.Context, q store.Querier, rows []ScalarRow, tail string) error {
	cd, ok := s.d.(columnsDialect)
	if !ok {
		return s.insertRows(ctx, q, pointsHead, 5, tail, len(rows), func(args []any, i int) []any { return appendPointArgs(args, &rows[i]) })
	}
	if len(rows) == 0 {
		return nil
	}
	series, iters, dts, dwts := make([]int64, len(rows)), make([]int64, len(rows)), make([]int64, len(rows)), make([]int64, len(rows))
	values := make([]float64, len(rows))
	for i := range rows {
		r := &rows[i]
		series[i], iters[i], values[i], dts[i] = r.Series, r.Iter, r.Value, r.TS-r.TS0
		dwts[i], _ = writeOffset(r)
	}
	_, err := q.ExecContext(ctx, cd.columnsSQL(pointsHead, []string{"int8", "int8", "float8", "int8", "int8"}, tail), series, iters, values, dts, dwts)
	return err
}

const rollupsHead = "INSERT INTO event_scalar_rollups (series, level, bucket, cnt, total)"

// insertRollups writes rollup rows with the conflict clause tail.
func (s *Store) insertRollups(ctx context.Context, q store.Querier, rows []Rollup, tail string) error {
	cd, ok := s.d.(columnsDialect)
	if !ok {
		return s.insertRows(ctx, q, rollupsHead, 5, tail, len(rows), func(args []any, i int) []any {
			r := &rows[i]
			return append(args, r.Series, r.Level, r.Bucket, r.Cnt, r.Total)
		})
	}
	if len(rows) == 0 {
		return nil
	}
	series, levels, buckets, cnts := make([]int64, len(rows)), make([]int64, len(rows)), make([]int64, len(rows)), make([]int64, len(rows))
	totals := make([]float64, len(rows))
	for i := range rows {
		r := &rows[i]
		series[i], levels[i], buckets[i], cnts[i], totals[i] = r.Series, int64(r.Level), r.Bucket, r.Cnt, r.Total
	}
	_, err := q.ExecContext(ctx, cd.columnsSQL(rollupsHead, []string{"int8", "int8", "int8", "int8", "float8"}, tail), series, levels, buckets, cnts, totals)
	return err
}
