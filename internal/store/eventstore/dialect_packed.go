package eventstore

import (
	"strconv"
	"strings"
)

// On PostgreSQL a row per scalar point costs about 90 bytes, three times
// its data; rolled-up points are packed into blocks of a series instead
// (migration 0105, packed.go). Readers see the two tables as one
// through scalarsFrom. SQLite stores a point in under 30 bytes and keeps
// every point in event_scalars.

// packedDialect is a dialect that packs rolled-up scalar points.
type packedDialect interface {
	// scalarsSQL is a FROM item of the points (series, iter, value, dts,
	// dwts) of the series matching "series "+cond with lo <= iter <= hi,
	// packed or not, and possibly some points of the blocks around lo and
	// hi: the statement filters. Its placeholders are cond's, lo, hi,
	// cond's, lo, hi, then the point limit when pick is pickCounted (see
	// Store.scalarsFrom).
	scalarsSQL(cond string, pick blockPick, desc bool) string
	// allScalarsSQL is a FROM item of every point, packed or not, with
	// event_scalars' columns.
	allScalarsSQL() string
	// thawSQL moves the points of a series' blocks overlapping [lo, hi]
	// back into event_scalars (arguments: series, hi, lo).
	thawSQL() string
	// packSQL packs the points in (packed_through, rolled_through] of the
	// listed series, at most a given number per series, and returns how
	// many it packed (arguments: the per-series bound minus one, the ids as
	// an array).
	packSQL() string
	// iterBoundsSQL reads a series' lowest iteration above a bound and its
	// highest iteration, unpacking at most one block (arguments: series,
	// bound, bound, bound, series, bound, series, series).
	iterBoundsSQL() string
	// touchSQL is TouchSeriesMany's statement, taking one array per
	// column (id, max_iter, rolled_through, last_wts, and a fifth: a
	// series never written before starts packing above it).
	touchSQL() string
	// blockCountSQL counts the packed points of the series matching
	// "series "+cond from the blocks' counts, unpacking nothing.
	blockCountSQL(cond string) string
	// deadUnpackedSQL reads the dead and live row counts of event_scalars
	// the server's statistics hold.
	deadUnpackedSQL() string
}

// blockPick is which blocks of a series' range a read unpacks.
type blockPick int

const (
	pickAll     blockPick = iota
	pickFirst             // the first in the read's order: a read of one point
	pickCounted           // as many as a read of a given number of points can reach
)

// unpackBlocks turns a block row b into its points u (iter, value, dts,
// dwts), in iteration order.
const unpackBlocks = " CROSS JOIN LATERAL (SELECT COALESCE(x.it, b.first_iter + x.ord - 1) AS iter, x.value, x.dts, x.dwts" +
	" FROM unnest(b.iters, b.vals, b.dts, b.dwts) WITH ORDINALITY AS x(it, value, dts, dwts, ord)) u"

// blockPoints is the most points a block holds.
const blockPoints = 1024

func (postgresEvents) scalarsSQL(cond string, pick blockPick, desc bool) string {
	var b strings.Builder
	b.WriteString("(SELECT series, iter, value, dts, dwts FROM event_scalars WHERE series ")
	b.WriteString(cond)
	b.WriteString(" AND iter >= ? AND iter <= ? UNION ALL SELECT b.series, u.iter, u.value, u.dts, u.dwts FROM ")
	order := "first_iter"
	if desc {
		order += " DESC"
	}
	switch pick {
	case pickAll:
		b.WriteString("(SELECT * FROM event_scalar_blocks WHERE series ")
		b.WriteString(cond)
		b.WriteString(" AND last_iter >= ? AND first_iter <= ?) b")
	case pickFirst:
		// blocks do not overlap: the first block in range holds the
		// read's point
		b.WriteString("(SELECT * FROM event_scalar_blocks WHERE series ")
		b.WriteString(cond)
		b.WriteString(" AND last_iter >= ? AND first_iter <= ? ORDER BY " + order + " LIMIT 1) b")
	default:
		// A read of the first `limit` points in order needs the first
		// block (which may start outside the range) and then the blocks
		// that fewer than `limit` points precede; counted from n, so the
		// arrays of the others are never read.
		b.WriteString("(SELECT * FROM (SELECT k.*, SUM(k.n) OVER w - k.n - FIRST_VALUE(k.n) OVER w AS before, ROW_NUMBER() OVER w AS rn" +
			" FROM event_scalar_blocks k WHERE k.series ")
		b.WriteString(cond)
		b.WriteString(" AND k.last_iter >= ? AND k.first_iter <= ? WINDOW w AS (PARTITION BY k.series ORDER BY k.")
		b.WriteString(order)
		b.WriteString(")) k WHERE k.rn = 1 OR k.before < ?) b")
	}
	// the statement's own conditions filter the points: a filter here too
	// made the planner expect a row or two a block
	b.WriteString(unpackBlocks)
	b.WriteString(")")
	return b.String()
}

func (postgresEvents) allScalarsSQL() string {
	return "(SELECT series, iter, value, dts, dwts FROM event_scalars UNION ALL SELECT b.series, u.iter, u.value, u.dts, u.dwts FROM event_scalar_blocks b" +
		unpackBlocks + ") AS event_scalars"
}

func (postgresEvents) thawSQL() string {
	return "WITH b AS (DELETE FROM event_scalar_blocks WHERE series = ? AND first_iter <= ? AND last_iter >= ? RETURNING *)" +
		" INSERT INTO event_scalars (series, iter, value, dts, dwts) SELECT b.series, u.iter, u.value, u.dts, u.dwts FROM b" + unpackBlocks
}

func (postgresEvents) packSQL() string {
	return `WITH s AS (
	SELECT e.id, e.packed_through AS lo, LEAST(e.rolled_through, COALESCE(
		(SELECT h.iter FROM event_scalars h WHERE h.series = e.id AND h.iter > e.packed_through ORDER BY h.iter OFFSET ? LIMIT 1),
		e.rolled_through)) AS hi
	FROM event_series e WHERE e.id = ANY(?::int8[])
), moved AS (
	DELETE FROM event_scalars h USING s WHERE h.series = s.id AND h.iter > s.lo AND h.iter <= s.hi
	RETURNING h.series, h.iter, h.value, h.dts, h.dwts
), numbered AS (
	SELECT m.*, (ROW_NUMBER() OVER (PARTITION BY m.series ORDER BY m.iter) - 1) / ` + strconv.Itoa(blockPoints) + ` AS blk FROM moved m
), packed AS (
	INSERT INTO event_scalar_blocks (series, first_iter, last_iter, n, iters, vals, dts, dwts)
	SELECT series, MIN(iter), MAX(iter), COUNT(*),
		CASE WHEN MAX(iter) - MIN(iter) + 1 = COUNT(*) THEN NULL ELSE array_agg(iter ORDER BY iter) END,
		array_agg(value ORDER BY iter), array_agg(dts ORDER BY iter), array_agg(dwts ORDER BY iter)
	FROM numbered GROUP BY series, blk
	RETURNING n
), marked AS (
	UPDATE event_series e SET packed_through = s.hi FROM s WHERE e.id = s.id AND s.hi > s.lo
)
SELECT COALESCE(SUM(n), 0) FROM packed`
}

func (postgresEvents) deadUnpackedSQL() string {
	return "SELECT n_dead_tup, n_live_tup FROM pg_stat_user_tables WHERE relid = 'event_scalars'::regclass"
}

// iterBoundsSQL: blocks do not overlap and no unpacked point lies inside
// one, so the lowest iteration above the bound is in the first block
// ending above it (its first_iter, unless the bound cuts the block) or
// among the unpacked points, and the highest is the last block's
// last_iter or an unpacked point.
func (postgresEvents) iterBoundsSQL() string {
	return `SELECT
	(SELECT MIN(m.i) FROM (
		(SELECT iter AS i FROM event_scalars WHERE series = ? AND iter > ? ORDER BY iter LIMIT 1)
		UNION ALL
		(SELECT CASE WHEN b.first_iter > ? THEN b.first_iter ELSE (SELECT MIN(u.iter) FROM (SELECT 1) one` + unpackBlocks + ` WHERE u.iter > ?) END
			FROM event_scalar_blocks b WHERE b.series = ? AND b.last_iter > ? ORDER BY b.first_iter LIMIT 1)) m),
	(SELECT MAX(m.i) FROM (
		(SELECT iter AS i FROM event_scalars WHERE series = ? ORDER BY iter DESC LIMIT 1)
		UNION ALL
		(SELECT last_iter FROM event_scalar_blocks WHERE series = ? ORDER BY first_iter DESC LIMIT 1)) m)`
}

// The series are given as arrays, as points are (dialect_columns.go):
// five parameters whatever their number. With a VALUES row of five per
// series, planning the statement cost more than its updates: 0.32 ms for
// 16 series, 0.38 ms for 32, at 300 experiments reporting.
func (postgresEvents) touchSQL() string {
	return "UPDATE event_series SET max_iter = v.max_iter, rolled_through = v.rolled_through, last_wts = v.last_wts," +
		" packed_through = CASE WHEN event_series.max_iter = " + strconv.FormatInt(noIter, 10) +
		" THEN GREATEST(event_series.packed_through, v.below) ELSE event_series.packed_through END" +
		" FROM unnest($1::int8[], $2::int8[], $3::int8[], $4::int8[], $5::int8[]) AS v(id, max_iter, rolled_through, last_wts, below)" +
		" WHERE event_series.id = v.id"
}

func (postgresEvents) blockCountSQL(cond string) string {
	return "SELECT COALESCE(SUM(n), 0) FROM event_scalar_blocks WHERE series " + cond
}
