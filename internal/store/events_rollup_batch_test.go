package store_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// groupedLikeSQL is what the database's own GROUP BY over the floored
// keys gives for a rollup read: the reference RollupHistograms must match.
func groupedLikeSQL(t *testing.T, db *store.DB, r store.RollupRead) []store.HistBucket {
	t.Helper()
	floor := "(bucket - (((bucket % ?) + ?) % ?))"
	args := []any{r.Interval, r.Interval, r.Interval, r.Series, r.Level}
	if r.NonNegative {
		floor, args = "(bucket - bucket % ?)", []any{r.Interval, r.Series, r.Level}
	}
	rs, err := db.Read().QueryContext(ctx, "SELECT "+floor+" AS x, SUM(total), SUM(cnt) FROM event_scalar_rollups WHERE series = ? AND level = ? GROUP BY x ORDER BY x", args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	var out []store.HistBucket
	for rs.Next() {
		var b store.HistBucket
		if err := rs.Scan(&b.X, &b.Sum, &b.Cnt); err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// RollupHistograms reads many series and levels in a few statements (one
// per level and chunk of series): each read's buckets must be what it
// gives alone and what SQL's grouping gives, in the order of the reads,
// across chunk boundaries, for a series read twice and for one without
// rollups.
func TestRollupHistogramsReadsManySeriesAtOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		const seriesCount = 130 // more than one statement's worth
		var rows []store.Rollup
		for s := int64(1); s <= seriesCount; s++ {
			lo := int64(0)
			if s%3 == 0 {
				lo = -256 // some series have negative iterations
			}
			for b := lo; b < 640+s*32; b += 32 {
				if (b/32+s)%7 == 3 {
					continue // gaps
				}
				rows = append(rows, store.Rollup{Series: s, Level: 5, Bucket: b, Cnt: 32 - (b/32+s)%5, Total: float64(b)*0.5 + float64(s)})
			}
			for b := lo; b < 640+s*32; b += 128 {
				rows = append(rows, store.Rollup{Series: s, Level: 7, Bucket: b, Cnt: 128, Total: float64(b+s) * 0.25})
			}
		}
		mustTx(t, db, func(q store.Querier) error { return db.Events().InsertRollups(ctx, q, rows) })
		var reads []store.RollupRead
		for s := int64(1); s <= seriesCount; s++ {
			reads = append(reads, store.RollupRead{Series: s, Level: 5, Interval: 64, NonNegative: s%3 != 0})
			if s%10 == 0 { // another level between them
				reads = append(reads, store.RollupRead{Series: s, Level: 7, Interval: 256, NonNegative: s%3 != 0})
			}
		}
		reads = append(reads,
			store.RollupRead{Series: 3, Level: 5, Interval: 32},           // a series read twice, another width
			store.RollupRead{Series: 9999, Level: 5, Interval: 64},        // no rollups
			store.RollupRead{Series: 6, Level: 7, Interval: 8192 * 3 / 2}, // a width not a power of two
		)
		got, err := db.Events().RollupHistograms(ctx, db.Read(), reads)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(reads) {
			t.Fatalf("%d results for %d reads", len(got), len(reads))
		}
		for i, r := range reads {
			want := groupedLikeSQL(t, db, r)
			if r.Series != 9999 && len(want) == 0 {
				t.Fatalf("read %+v: the reference found nothing", r)
			}
			if !reflect.DeepEqual(got[i], want) {
				t.Fatalf("read %+v:\n got %v\nwant %v", r, got[i], want)
			}
			alone, err := db.Events().HistogramFromRollups(ctx, db.Read(), r.Series, r.Level, r.Interval, r.NonNegative)
			if err != nil || !reflect.DeepEqual(alone, want) {
				t.Fatalf("read %+v alone: %v %v", r, alone, err)
			}
		}
		if got, err := db.Events().RollupHistograms(ctx, db.Read(), nil); err != nil || len(got) != 0 {
			t.Fatalf("no reads: %v %v", got, err)
		}
	})
}

// Histograms read the rollups from their key alone: on PostgreSQL the
// primary key carries cnt and total (migration 0103) and the planner reads
// a series' level with an index-only scan in key order, without a sort;
// on SQLite the rows live in the key's b-tree (WITHOUT ROWID).
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
		// enough rows of many series and levels, interleaved as ingest
		// writes them, for the planner to weigh its choices as at size
		var rows []store.Rollup
		for b := int64(0); b < 4000*32; b += 32 {
			for s := int64(1); s <= 8; s++ {
				rows = append(rows, store.Rollup{Series: s, Level: 5, Bucket: b, Cnt: 32, Total: float64(b)})
				if b%128 == 0 {
					rows = append(rows, store.Rollup{Series: s, Level: 7, Bucket: b, Cnt: 128, Total: float64(b)})
				}
			}
		}
		mustTx(t, db, func(q store.Querier) error { return db.Events().InsertRollups(ctx, q, rows) })
		// an upsert still finds the key by its columns
		mustTx(t, db, func(q store.Querier) error {
			return db.Events().AddRollups(ctx, q, []store.Rollup{{Series: 1, Level: 5, Bucket: 0, Cnt: 1, Total: 2}})
		})
		// The planner reads the key alone once VACUUM has marked the pages
		// all-visible, which it does only when no transaction can still
		// miss the rows: on a shared test server other suites' transactions
		// can hold that back for a while, and then the plan is not checked
		// (the key's columns above are).
		visible := false
		for try := 0; try < 30 && !visible; try++ {
			if try > 0 {
				time.Sleep(100 * time.Millisecond)
			}
			if _, err := db.Read().ExecContext(ctx, "VACUUM ANALYZE event_scalar_rollups"); err != nil {
				t.Fatal(err)
			}
			var pages, marked int
			if err := db.Read().QueryRowContext(ctx, "SELECT relpages, relallvisible FROM pg_class WHERE relname = 'event_scalar_rollups'").Scan(&pages, &marked); err != nil {
				t.Fatal(err)
			}
			visible = marked == pages
		}
		if visible {
			text := explain(t, db, "SELECT series, bucket, total, cnt FROM event_scalar_rollups WHERE level = ? AND series IN (?, ?) ORDER BY series, bucket", 5, 1, 2)
			if !strings.Contains(text, "Index Only Scan") || strings.Contains(text, "Sort") {
				t.Fatalf("the rollup read is not an index-only scan in key order:\n%s", text)
			}
		} else {
			t.Log("VACUUM could not mark the rollups all-visible (other transactions on the server): plan not checked")
		}
		got, err := db.Events().HistogramFromRollups(ctx, db.Read(), 1, 5, 64, true)
		if err != nil || len(got) != 2000 || got[0] != (store.HistBucket{X: 0, Sum: 34, Cnt: 65}) {
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
