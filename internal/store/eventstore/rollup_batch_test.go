package eventstore_test

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// inKeyOrder is what the histograms gave before RollupHistograms: a
// read's rows in key order from the database, summed one after the other
// into the buckets (float sums depend on that order).
func inKeyOrder(t *testing.T, db *store.DB, r eventstore.RollupRead) []eventstore.HistBucket {
	t.Helper()
	rs, err := db.Read().QueryContext(ctx, "SELECT bucket, total, cnt FROM event_scalar_rollups WHERE series = ? AND level = ? ORDER BY bucket", r.Series, r.Level)
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	var out []eventstore.HistBucket
	for rs.Next() {
		var bucket, cnt int64
		var total float64
		if err := rs.Scan(&bucket, &total, &cnt); err != nil {
			t.Fatal(err)
		}
		x := bucket - ((bucket%r.Interval)+r.Interval)%r.Interval
		if n := len(out); n > 0 && out[n-1].X == x {
			out[n-1].Sum += total
			out[n-1].Cnt += cnt
			continue
		}
		out = append(out, eventstore.HistBucket{X: x, Sum: total, Cnt: cnt})
	}
	return out
}

// RollupHistograms reads many series and levels in a few statements (one
// per level and chunk of series), rows in whatever order the database
// finds them: each read's buckets must be what it gives alone and what
// rows read in key order give, sums included to the last bit, in the
// order of the reads, across chunk boundaries, for a series read twice
// and for one without rollups. The rows are written out of key order and
// some replaced afterwards, so that the heap holds them out of order.
func TestRollupHistogramsReadsManySeriesAtOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		const seriesCount = 130 // more than one statement's worth
		var rows []eventstore.Rollup
		for s := int64(1); s <= seriesCount; s++ {
			lo := int64(0)
			if s%3 == 0 {
				lo = -256 // some series have negative iterations
			}
			for b := lo; b < 640+s*32; b += 32 {
				if (b/32+s)%7 == 3 {
					continue // gaps
				}
				rows = append(rows, eventstore.Rollup{Series: s, Level: 5, Bucket: b, Cnt: 32 - (b/32+s)%5, Total: float64(b)*0.1 + float64(s)/3})
			}
			for b := lo; b < 640+s*32; b += 128 {
				rows = append(rows, eventstore.Rollup{Series: s, Level: 7, Bucket: b, Cnt: 128, Total: float64(b+s) * 0.7})
			}
		}
		rand.New(rand.NewPCG(1, 2)).Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
		mustTx(t, db, func(q store.Querier) error { return eventstore.Of(db).InsertRollups(ctx, q, rows[:len(rows)/2]) })
		mustTx(t, db, func(q store.Querier) error { return eventstore.Of(db).InsertRollups(ctx, q, rows[len(rows)/2:]) })
		var more []eventstore.Rollup
		for s := int64(1); s <= seriesCount; s += 4 {
			more = append(more, eventstore.Rollup{Series: s, Level: 5, Bucket: 64, Cnt: 1, Total: 0.1}, eventstore.Rollup{Series: s, Level: 7, Bucket: 128, Cnt: 1, Total: 0.3})
		}
		mustTx(t, db, func(q store.Querier) error { return eventstore.Of(db).AddRollups(ctx, q, more) })
		var reads []eventstore.RollupRead
		for s := int64(1); s <= seriesCount; s++ {
			reads = append(reads, eventstore.RollupRead{Series: s, Level: 5, Interval: 64, NonNegative: s%3 != 0})
			if s%10 == 0 { // another level between them
				reads = append(reads, eventstore.RollupRead{Series: s, Level: 7, Interval: 256, NonNegative: s%3 != 0})
			}
		}
		reads = append(reads,
			eventstore.RollupRead{Series: 3, Level: 5, Interval: 32},           // a series read twice, another width
			eventstore.RollupRead{Series: 9999, Level: 5, Interval: 64},        // no rollups
			eventstore.RollupRead{Series: 6, Level: 7, Interval: 8192 * 3 / 2}, // a width not a power of two
		)
		got, err := eventstore.Of(db).RollupHistograms(ctx, db.Read(), reads)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(reads) {
			t.Fatalf("%d results for %d reads", len(got), len(reads))
		}
		for i, r := range reads {
			want := inKeyOrder(t, db, r)
			if r.Series != 9999 && len(want) == 0 {
				t.Fatalf("read %+v: the reference found nothing", r)
			}
			if !reflect.DeepEqual(got[i], want) {
				t.Fatalf("read %+v:\n got %v\nwant %v", r, got[i], want)
			}
			alone, err := eventstore.Of(db).HistogramFromRollups(ctx, db.Read(), r.Series, r.Level, r.Interval, r.NonNegative)
			if err != nil || !reflect.DeepEqual(alone, want) {
				t.Fatalf("read %+v alone: %v %v", r, alone, err)
			}
		}
		if got, err := eventstore.Of(db).RollupHistograms(ctx, db.Read(), nil); err != nil || len(got) != 0 {
			t.Fatalf("no reads: %v %v", got, err)
		}
	})
}

// Histograms read the rollups from their key alone: on PostgreSQL the
// primary key carries cnt and total (migration 0103), so once VACUUM has
// marked the pages all-visible the planner reads the rollups of a level
// with an index-only scan and no sort; on SQLite the rows live in the
// key's b-tree (WITHOUT ROWID).
func TestRollupKeyCoversHistogramReads(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		if db.D.Name() == "sqlite" {
			var ddl string
			if err := db.Read().QueryRowContext(ctx, "SELECT sql FROM sqlite_master WHERE name = 'event_scalar_rollups'").Scan(&ddl); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(ddl, "WITHOUT ROWID") {
				t.Fatalf("rollups are not clustered by their key: %s", ddl)
			}
			return
		}
		var cols, keys int
		if err := db.Read().QueryRowContext(ctx, "SELECT i.indnatts, i.indnkeyatts FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = 'event_scalar_rollups_pkey' AND i.indisprimary").Scan(&cols, &keys); err != nil {
			t.Fatal(err)
		}
		if cols != 5 || keys != 3 {
			t.Fatalf("rollups' key: %d columns, %d of them key columns; want 5 and 3", cols, keys)
		}
		// Autovacuum stays off this table: an automatic ANALYZE that starts
		// during the test's VACUUM holds back the pages it may mark
		// all-visible, and the planner then weighs a bitmap scan (it did
		// once, with several packages testing at once).
		if _, err := db.Write().ExecContext(ctx, "ALTER TABLE event_scalar_rollups SET (autovacuum_enabled = false)"); err != nil {
			t.Fatal(err)
		}
		// enough rows of many series and levels, interleaved as ingest
		// writes them, for the planner to weigh its choices as at size
		var rows []eventstore.Rollup
		for b := int64(0); b < 4000*32; b += 32 {
			for s := int64(1); s <= 8; s++ {
				rows = append(rows, eventstore.Rollup{Series: s, Level: 5, Bucket: b, Cnt: 32, Total: float64(b)})
				if b%128 == 0 {
					rows = append(rows, eventstore.Rollup{Series: s, Level: 7, Bucket: b, Cnt: 128, Total: float64(b)})
				}
			}
		}
		// Committed synchronously: pages are marked all-visible only once
		// the commit is flushed, which a test server with synchronous_commit
		// off leaves to later WAL traffic.
		syncTx := func(fn func(q store.Querier) error) {
			mustTx(t, db, func(q store.Querier) error {
				if _, err := q.ExecContext(ctx, "SET LOCAL synchronous_commit = on"); err != nil {
					return err
				}
				return fn(q)
			})
		}
		syncTx(func(q store.Querier) error { return eventstore.Of(db).InsertRollups(ctx, q, rows) })
		// an upsert still finds the key by its columns
		syncTx(func(q store.Querier) error {
			return eventstore.Of(db).AddRollups(ctx, q, []eventstore.Rollup{{Series: 1, Level: 5, Bucket: 0, Cnt: 1, Total: 2}})
		})
		// The test's database is its own, yet once (with several packages
		// testing on one server) VACUUM marked none of its 334 pages
		// all-visible: a transaction open elsewhere still held its horizon.
		// Vacuum again until most pages are (bounded), then look at the plan.
		for try := 0; try < 50; try++ {
			if _, err := db.Read().ExecContext(ctx, "VACUUM ANALYZE event_scalar_rollups"); err != nil {
				t.Fatal(err)
			}
			var pages, visible int64
			if err := db.Read().QueryRowContext(ctx, "SELECT relpages, relallvisible FROM pg_class WHERE relname = 'event_scalar_rollups'").Scan(&pages, &visible); err != nil {
				t.Fatal(err)
			}
			if pages > 0 && visible*10 >= pages*9 {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		text := explain(t, db, "SELECT series, bucket, total, cnt FROM event_scalar_rollups WHERE level = ? AND series IN (?, ?)", 5, 1, 2)
		if !strings.Contains(text, "Index Only Scan") || strings.Contains(text, "Sort") {
			var pages, visible int64
			_ = db.Read().QueryRowContext(ctx, "SELECT relpages, relallvisible FROM pg_class WHERE relname = 'event_scalar_rollups'").Scan(&pages, &visible)
			t.Fatalf("the rollup read is not an index-only scan (%d of %d pages all-visible):\n%s", visible, pages, text)
		}
		got, err := eventstore.Of(db).HistogramFromRollups(ctx, db.Read(), 1, 5, 64, true)
		if err != nil || len(got) != 2000 || got[0] != (eventstore.HistBucket{X: 0, Sum: 34, Cnt: 65}) {
			t.Fatalf("%d buckets, first %v, %v", len(got), got[:min(1, len(got))], err)
		}
	})
}

// explain is PostgreSQL's plan for a statement.
func explain(t *testing.T, db *store.DB, query string, args ...any) string {
	t.Helper()
	rs, err := db.Read().QueryContext(ctx, "EXPLAIN "+query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	var plan []string
	for rs.Next() {
		var line string
		if err := rs.Scan(&line); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, line)
	}
	return strings.Join(plan, "\n")
}
