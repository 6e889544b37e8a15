package eventstore

import (
	"database/sql"
	"math"

	"github.com/trove-ml/trove/internal/store"
)

// The stored form of a scalar point (migration 0095): a row of
// event_scalars holds (series, iter, value, dts, dwts), where dts is the
// event time less the series' base time (event_series.ts0) and dwts the
// write time less the event time, both small numbers for points reported
// as they happen. The rare rest (a worker other than the series' one,
// members Trove does not interpret, a write time too far from the event
// time for 32 bits) is a row of event_scalar_extras under the same key.

// writeOffset is the stored dwts of a row and whether it fits 32 bits
// (the PostgreSQL column's width); when it does not, the write time is
// kept whole among the extras and dwts is 0.
func writeOffset(r *ScalarRow) (int64, bool) {
	d := r.WTS - r.TS
	if d < math.MinInt32 || d > math.MaxInt32 {
		return 0, false
	}
	return d, true
}

// hasExtras reports a row that needs an event_scalar_extras row.
func hasExtras(r *ScalarRow) bool {
	_, fits := writeOffset(r)
	return r.Worker != nil || r.Extra != nil || !fits
}

// appendPointArgs appends the event_scalars columns of a row.
func appendPointArgs(args []any, r *ScalarRow) []any {
	dwts, _ := writeOffset(r)
	return append(args, r.Series, r.Iter, r.Value, r.TS-r.TS0, dwts)
}

// pointJoins joins a point (p) to its series (s, for the base time) and
// its extras (x, mostly absent); pointCols are what scanPoints reads.
const (
	pointJoins = " p JOIN event_series s ON s.id = p.series LEFT JOIN event_scalar_extras x ON x.series = p.series AND x.iter = p.iter"
	pointCols  = "p.series, p.iter, p.value, p.dts + s.ts0, p.dwts, x.worker, x.extra, x.wts"
)

// scanPoints reads rows of pointCols back into whole points.
func scanPoints(rows *sql.Rows, err error) ([]ScalarPoint, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ScalarPoint
	for rows.Next() {
		var p ScalarPoint
		var dwts int64
		var wts sql.NullInt64
		if err := rows.Scan(&p.Series, &p.Iter, &p.Value, &p.TS, &dwts, &p.Worker, &p.Extra, &wts); err != nil {
			return nil, err
		}
		p.WTS = p.TS + dwts
		if wts.Valid {
			p.WTS = wts.Int64
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// ScalarPointsFrom is a FROM item named event_scalars of every scalar
// point of a store of dialect d, packed, staged or not.
func ScalarPointsFrom(d store.Dialect) string {
	ev := eventsSQL(d)
	if pd, ok := ev.(packedDialect); ok {
		return pd.allScalarsSQL()
	}
	if sd, ok := ev.(stagedDialect); ok {
		return sd.allStagedScalarsSQL()
	}
	return "event_scalars"
}
