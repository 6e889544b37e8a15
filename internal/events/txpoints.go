package events

import (
	"context"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
)

// txPoints holds, for one write transaction, the scalar series its
// batches used and the writes that can wait for its end: points above
// their series' highest iteration (plain inserts) and the series' new
// marks. A group of many small batches then inserts its points and
// updates its series in a few statements of up to 512 rows instead of a
// few per batch. The held series are the transaction's own (locked on
// PostgreSQL, the transaction exclusive on SQLite) and carry their state
// after the transaction's writes, so a later batch of the same task sees
// its earlier batches' points; pending inserts are written before
// anything in the transaction reads points (flushPoints).
type txPoints struct {
	series map[seriesKey]*eventstore.Series
	fresh  []eventstore.ScalarRow
	// touched: the new state of each changed series, in first-touch order
	touched map[int64]int
	touches []eventstore.SeriesTouch
}

func newTxPoints() *txPoints {
	return &txPoints{series: map[seriesKey]*eventstore.Series{}, touched: map[int64]int{}}
}

// insert queues points that cannot exist yet; it may keep rows.
func (x *txPoints) insert(rows []eventstore.ScalarRow) {
	if len(x.fresh) == 0 {
		x.fresh = rows
		return
	}
	x.fresh = append(x.fresh, rows...)
}

// touch records a series' new state, both for the end of the transaction
// and for its later batches.
func (x *txPoints) touch(sr *eventstore.Series, t eventstore.SeriesTouch) {
	sr.MaxIter, sr.RolledThrough, sr.LastWTS = t.MaxIter, t.RolledThrough, t.LastWTS
	if i, ok := x.touched[t.ID]; ok {
		t.Below = max(t.Below, x.touches[i].Below) // the series' first touch knows it
		x.touches[i] = t
		return
	}
	x.touched[t.ID] = len(x.touches)
	x.touches = append(x.touches, t)
}

// flushPoints writes the queued inserts.
func (x *txPoints) flushPoints(ctx context.Context, es *eventstore.Store, q store.Querier) error {
	if len(x.fresh) == 0 {
		return nil
	}
	err := es.InsertScalars(ctx, q, x.fresh)
	// not reused: the slice may be a batch's own (insert)
	x.fresh = nil
	return err
}

// flush writes what waited for the end of the transaction.
func (x *txPoints) flush(ctx context.Context, es *eventstore.Store, q store.Querier) error {
	if err := x.flushPoints(ctx, es, q); err != nil {
		return err
	}
	err := es.TouchSeriesMany(ctx, q, x.touches)
	x.touches, x.touched = nil, map[int64]int{}
	return err
}
