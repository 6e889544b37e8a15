package eventstore

import (
	"context"
	"math"
	"slices"

	"github.com/trove-ml/trove/internal/store"
)

// Packed scalar points (PostgreSQL; dialect_packed.go has the SQL). The
// rules that keep a point in exactly one place:
//   - the packer moves a series' points in (packed_through, rolled_through]
//     into new blocks, holding the rows of the series' task or model, as
//     ingest does, so no batch of that task runs meanwhile;
//   - every block of a series lies at or below its packed_through, so new
//     blocks never overlap old ones;
//   - a batch that may replace points (iterations up to the series'
//     highest) first thaws the blocks its range overlaps back into
//     event_scalars (ScalarValues), so replacing is the plain upsert.
// No unpacked point lies inside a block's range, which lets ordered reads
// merge the two tables by iteration.

// packPerSeries bounds the points of one series a packing moves (a store
// copied into PostgreSQL arrives unpacked, millions of points a series).
const packPerSeries = 16384

// PackMinBlock is the fewest points of a series a packing takes at once
// while the series is written (events.PackLag uses it too): fewer make
// blocks that compress poorly.
const PackMinBlock = 128

// packPointsPerTx bounds the points one packing transaction moves, about:
// ingest of the tasks it holds waits for it (20,000 points take some
// 50 ms).
const packPointsPerTx = 20000

// packPointsPerRun bounds the points one run of the packer moves, about:
// a burst (a task of a million points uploaded at once) is packed over a
// few runs instead of taking a core for seconds. It is about twice the
// fastest ingest measured on 2 cores, so the unpacked rows do not pile up.
const packPointsPerRun = 250000

// vacuumDeadRows: once packing has left this many dead rows in
// event_scalars (and more than a quarter of its live ones), the packer
// vacuums it. Autovacuum looks only every minute, and until a vacuum the
// rows packing deleted cannot take new points: the table grew to most of
// a 10M-point run's points.
const vacuumDeadRows = 100000

// scalarsFrom is a FROM item of the points (series, iter, value, dts,
// dwts) of the series matching "series "+cond (its placeholders taking
// condArgs) with lo <= iter <= hi, and the arguments it takes, which come
// before the statement's own. The statement must apply those conditions
// itself: PostgreSQL's packed points come a block at a time, points
// around the range included. On SQLite it is event_scalars and the staged
// points together. limit > 0 says the statement reads at most limit
// points in iteration order (desc: downwards), so only the blocks those
// can come from are unpacked, and SQLite reads only that many of each
// table.
func (s *Store) scalarsFrom(cond string, condArgs []any, lo, hi int64, limit int, desc bool) (string, []any) {
	if sd, ok := s.d.(stagedDialect); ok {
		return stagedFrom(sd, cond, condArgs, lo, hi, limit, desc)
	}
	pd, ok := s.d.(packedDialect)
	if !ok {
		return "event_scalars", nil
	}
	args := make([]any, 0, 2*len(condArgs)+5)
	args = append(args, condArgs...)
	args = append(args, lo, hi)
	args = append(args, condArgs...)
	args = append(args, lo, hi)
	pick := pickAll
	switch {
	case limit == 1 && len(condArgs) == 1:
		pick = pickFirst
	case limit > 0:
		pick = pickCounted
		args = append(args, limit)
	}
	return pd.scalarsSQL(cond, pick, desc), args
}

// seriesScalars is scalarsFrom of one series.
func (s *Store) seriesScalars(series, lo, hi int64, limit int, desc bool) (string, []any) {
	return s.scalarsFrom("= ?", []any{series}, lo, hi, limit, desc)
}

// lastIter is the top of a range of scalarsFrom that reaches every point
// (noIter is its bottom).
const lastIter = math.MaxInt64

// thaw moves a series' packed points in blocks overlapping [lo, hi] back
// into event_scalars, where a batch can replace them.
func (s *Store) thaw(ctx context.Context, q store.Querier, series, lo, hi int64) error {
	pd, ok := s.d.(packedDialect)
	if !ok {
		return nil
	}
	_, err := q.ExecContext(ctx, pd.thawSQL(), series, hi, lo)
	return err
}

// PackPoints packs the rolled-up points of series with at least lag
// iterations rolled up since their last packing, or last written before
// idleSince (epoch ms), and returns how many points it packed (none on
// SQLite). A series whose task or model a batch holds is left for the
// next run: packing never waits for ingest.
func (s *Store) PackPoints(ctx context.Context, lag, idleSince int64) (int, error) {
	pd, ok := s.d.(packedDialect)
	if !ok {
		return 0, nil
	}
	rows, err := s.db.Read().QueryContext(ctx, "SELECT task, id, rolled_through - packed_through FROM event_series WHERE rolled_through > packed_through"+
		" AND (rolled_through - packed_through >= ? OR last_wts < ?) AND task NOT LIKE '"+deletedSeriesPrefix+"%' ORDER BY task, id LIMIT 10000", lag, idleSince)
	if err != nil {
		return 0, err
	}
	byOwner := map[string][]int64{}
	// an owner's points to pack, guessed from the iterations (exact for a
	// series reported at every iteration, more than there are otherwise)
	guess := map[string]int64{}
	var owners []string
	for rows.Next() {
		var task string
		var id, lag int64
		if err := rows.Scan(&task, &id, &lag); err != nil {
			rows.Close()
			return 0, err
		}
		if byOwner[task] == nil {
			owners = append(owners, task)
		}
		byOwner[task] = append(byOwner[task], id)
		guess[task] += min(lag, packPerSeries)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	total := 0
	for len(owners) > 0 && ctx.Err() == nil && total < packPointsPerRun {
		n, points, series := 0, int64(0), 0
		for n < len(owners) && (n == 0 || points+guess[owners[n]] <= packPointsPerTx) {
			points += guess[owners[n]]
			series += len(byOwner[owners[n]])
			n++
		}
		// a task of many series behind (a big upload) is packed a part of
		// each series at a time
		perSeries := min(packPerSeries, max(PackMinBlock, packPointsPerTx/series))
		packed, err := s.packOwners(ctx, pd, owners[:n], byOwner, perSeries)
		if err != nil {
			return total, err
		}
		total += packed
		owners = owners[n:]
	}
	if total == 0 || ctx.Err() != nil {
		return total, ctx.Err()
	}
	return total, s.vacuumUnpacked(ctx, pd)
}

// vacuumUnpacked vacuums event_scalars once packing has left enough dead
// rows in it, so that new points reuse their space.
func (s *Store) vacuumUnpacked(ctx context.Context, pd packedDialect) error {
	var dead, live int64
	if err := s.db.WritePool().QueryRowContext(ctx, pd.deadUnpackedSQL()).Scan(&dead, &live); err != nil {
		return err
	}
	if dead < vacuumDeadRows || dead < live/4 {
		return nil
	}
	// not in a transaction; SKIP_LOCKED: a vacuum already running elsewhere
	// does the work
	_, err := s.db.WritePool().ExecContext(ctx, "VACUUM (SKIP_LOCKED) event_scalars")
	return err
}

// packOwners packs the listed series of the owners (tasks or models) it
// can lock at once, in one transaction.
func (s *Store) packOwners(ctx context.Context, pd packedDialect, owners []string, byOwner map[string][]int64, perSeries int) (int, error) {
	packed := 0
	err := s.db.Tx(ctx, func(q store.Querier) error {
		packed = 0
		var ids []int64
		for _, table := range []string{"tasks", "models"} {
			locked, err := store.IDs(ctx, q, "SELECT id FROM "+table+" WHERE id = ANY(?::text[]) ORDER BY id"+s.db.D.ForUpdateSkipLocked(), owners)
			if err != nil {
				return err
			}
			for _, o := range locked {
				ids = append(ids, byOwner[o]...)
			}
		}
		if len(ids) == 0 {
			return nil
		}
		slices.Sort(ids)
		ids, err := seriesIDs(q.QueryContext(ctx, "SELECT id FROM event_series WHERE id = ANY(?::int8[]) ORDER BY id"+s.db.D.ForUpdateSkipLocked(), ids))
		if err != nil || len(ids) == 0 {
			return err
		}
		return q.QueryRowContext(ctx, pd.packSQL(), perSeries-1, ids).Scan(&packed)
	})
	return packed, err
}

// purgeBlocks deletes up to chunk points' worth of a deleted series'
// blocks (at least one block) and reports how many blocks it deleted.
func (s *Store) purgeBlocks(ctx context.Context, q store.Querier, id int64, chunk int) (int64, error) {
	if _, ok := s.d.(packedDialect); !ok {
		return 0, nil
	}
	res, err := q.ExecContext(ctx, "DELETE FROM event_scalar_blocks WHERE series = ? AND first_iter IN (SELECT first_iter FROM event_scalar_blocks WHERE series = ? ORDER BY first_iter LIMIT ?)",
		id, id, max(1, chunk/blockPoints))
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
