package eventstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/trove-ml/trove/internal/store"
)

// Staged scalar points (SQLite; migration 0108, dialect_staged.go). The
// rules that keep a point in exactly one of event_scalars and
// event_scalars_staged:
//   - InsertScalars stages the points of the series a write brings fewer
//     than stageBelow points of. They lie above their series' highest
//     iteration, so neither table holds them yet.
//   - UpsertScalars, which may replace points, first moves the staged
//     points with its keys into event_scalars, and upserts there.
//   - MoveStaged moves the staged points of a range of series into
//     event_scalars, each part inserted and deleted in one transaction.
// Big writes go straight to event_scalars: they already change a
// series' page once per many points.

// stageBelow: a write that brings fewer points of a series than this
// stages them. A training loop's flush brings one or a few iterations a
// series; an upload or a fast loop brings hundreds.
const stageBelow = 16

// stageMovePoints bounds the points of one move's transaction, about
// (whole series are moved): ingest waits for it, and with series of 600
// points and more, 24,000 points in one transaction took 150-220 ms
// (a tail page of event_scalars changed per series).
const stageMovePoints = 5000

// stages reports a store that stages small writes.
func (s *Store) stages() bool {
	_, ok := s.d.(stagedDialect)
	return ok
}

// pointTables are the tables that hold unpacked points: event_scalars,
// and the staged points where the store stages them.
func (s *Store) pointTables() []string {
	if s.stages() {
		return []string{"event_scalars", stagedTable}
	}
	return []string{"event_scalars"}
}

// splitStaged splits rows (a series' rows adjacent, as each batch gives
// them) into those to stage and those to write to event_scalars, by the
// length of each series' run.
func splitStaged(rows []ScalarRow) (staged, direct []ScalarRow) {
	short := func(i int) (int, bool) {
		j := i + 1
		for j < len(rows) && rows[j].Series == rows[i].Series {
			j++
		}
		return j, j-i < stageBelow
	}
	// the usual write is all one kind: no copy then
	allShort, allLong := true, true
	for i := 0; i < len(rows); {
		j, s := short(i)
		allShort, allLong = allShort && s, allLong && !s
		i = j
	}
	switch {
	case allShort:
		return rows, nil
	case allLong:
		return nil, rows
	}
	for i := 0; i < len(rows); {
		j, s := short(i)
		if s {
			staged = append(staged, rows[i:j]...)
		} else {
			direct = append(direct, rows[i:j]...)
		}
		i = j
	}
	return staged, direct
}

// insertStaged stages points that cannot exist yet.
func (s *Store) insertStaged(ctx context.Context, q store.Querier, rows []ScalarRow) error {
	return s.insertRows(ctx, q, "INSERT INTO "+stagedTable+" ("+stagedCols+")", 5, "", len(rows),
		func(args []any, i int) []any { return appendPointArgs(args, &rows[i]) })
}

// unstageRows moves the staged points among rows' keys into
// event_scalars, where UpsertScalars replaces them. Each series' run of
// rows takes two statements a chunk of iterations, with the series and
// an IN list on the key: SQLite looks each key up (a list of (series,
// iter) pairs made it scan the whole table).
func (s *Store) unstageRows(ctx context.Context, q store.Querier, rows []ScalarRow) error {
	if !s.stages() {
		return nil
	}
	args := make([]any, 0, unstageChunk+1)
	for i := 0; i < len(rows); {
		j := i + 1
		for j < len(rows) && rows[j].Series == rows[i].Series && j-i < unstageChunk {
			j++
		}
		args = append(args[:0], rows[i].Series)
		for _, r := range rows[i:j] {
			args = append(args, r.Iter)
		}
		where := " WHERE series = ? AND iter IN (" + store.Placeholders(j-i) + ")"
		if _, err := q.ExecContext(ctx, "INSERT INTO event_scalars ("+stagedCols+") SELECT "+stagedCols+" FROM "+stagedTable+where+unstageConflict, args...); err != nil {
			return err
		}
		if _, err := q.ExecContext(ctx, "DELETE FROM "+stagedTable+where, args...); err != nil {
			return err
		}
		i = j
	}
	return nil
}

// unstageConflict makes a staged point replace one of event_scalars with
// its key. No such pair should exist (a point is in one table); if one
// ever did, the staged point is the later write, and a plain insert
// would fail every move of its range from then on.
const unstageConflict = replacePoint

// unstageChunk bounds the iterations of one unstaging statement.
const unstageChunk = 500

// MoveStaged moves the staged points of the next range of series from
// series `from` on into event_scalars, and returns the series to go on
// from (0 once it reached the last staged series) and how many points it
// moved (none where the store does not stage). A range is a parts-th of
// the staged series' id range, so that parts calls visit every series
// once: each series' page of event_scalars is then changed once a round,
// for all the points it staged meanwhile. The range is moved in
// transactions of about stageMovePoints points (whole series), so a
// range that grew while ingest outran the mover is still moved whole,
// without holding the writer long.
func (s *Store) MoveStaged(ctx context.Context, from int64, parts int) (next int64, moved int, err error) {
	if !s.stages() {
		return 0, 0, nil
	}
	var lo, first, last sql.NullInt64
	if err := s.db.Read().QueryRowContext(ctx, "SELECT (SELECT series FROM "+stagedTable+" WHERE series >= ? ORDER BY series LIMIT 1),"+
		" (SELECT series FROM "+stagedTable+" ORDER BY series LIMIT 1), (SELECT series FROM "+stagedTable+" ORDER BY series DESC LIMIT 1)",
		from).Scan(&lo, &first, &last); err != nil {
		return 0, 0, err
	}
	if !lo.Valid {
		return 0, 0, nil // nothing staged from there on: start over
	}
	hi := lo.Int64 + max(1, (last.Int64-first.Int64+1+int64(parts)-1)/int64(max(parts, 1)))
	for cur := lo.Int64; cur < hi; {
		var n int
		if err := s.db.Tx(ctx, func(q store.Querier) error {
			var err error
			n, cur, err = s.moveStagedFrom(ctx, q, cur, hi)
			return err
		}); err != nil {
			return 0, moved, err
		}
		moved += n
	}
	if hi <= last.Int64 {
		next = hi
	}
	return next, moved, nil
}

// moveStagedFrom moves the staged points of series lo up to hi, or up to
// the series where stageMovePoints points are reached, and returns how
// many it moved and the series it stopped at.
func (s *Store) moveStagedFrom(ctx context.Context, q store.Querier, lo, hi int64) (int, int64, error) {
	var bound int64
	err := q.QueryRowContext(ctx, "SELECT series FROM "+stagedTable+" WHERE series >= ? ORDER BY series, iter LIMIT 1 OFFSET ?",
		lo, stageMovePoints).Scan(&bound)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return 0, lo, err
	case bound < hi:
		hi = max(bound, lo+1)
	}
	res, err := q.ExecContext(ctx, "INSERT INTO event_scalars ("+stagedCols+") SELECT "+stagedCols+" FROM "+stagedTable+
		" WHERE series >= ? AND series < ? ORDER BY series, iter"+unstageConflict, lo, hi)
	if err != nil {
		return 0, lo, err
	}
	n, _ := res.RowsAffected()
	if _, err := q.ExecContext(ctx, "DELETE FROM "+stagedTable+" WHERE series >= ? AND series < ?", lo, hi); err != nil {
		return 0, lo, err
	}
	return int(n), hi, nil
}

// unpackedFrom is scalarsFrom for reads of points that are never packed
// (past a series' rollups, or without iteration): event_scalars, with the
// staged points where the store stages them.
func (s *Store) unpackedFrom(cond string, condArgs []any, lo, hi int64, limit int, desc bool) (string, []any) {
	if sd, ok := s.d.(stagedDialect); ok {
		return stagedFrom(sd, cond, condArgs, lo, hi, limit, desc)
	}
	return "event_scalars", nil
}

// sumOverPointTables is the sum of term, a scalar subquery naming its
// table %s (or %[1]s), over pointTables.
func (s *Store) sumOverPointTables(term string) string {
	return s.overPointTables(term, " + ")
}

// unionOverPointTables is sel, a SELECT naming its table %s (or %[1]s),
// over pointTables, joined by UNION ALL.
func (s *Store) unionOverPointTables(sel string) string {
	return s.overPointTables(sel, " UNION ALL ")
}

func (s *Store) overPointTables(part, sep string) string {
	tables := s.pointTables()
	parts := make([]string, len(tables))
	for i, t := range tables {
		parts[i] = fmt.Sprintf(part, t)
	}
	return "(" + strings.Join(parts, sep) + ")"
}

// repeatArgs is args once for each of pointTables, for the statements
// sumOverPointTables and unionOverPointTables build.
func (s *Store) repeatArgs(args ...any) []any {
	tables := s.pointTables()
	out := make([]any, 0, len(args)*len(tables))
	for range tables {
		out = append(out, args...)
	}
	return out
}
