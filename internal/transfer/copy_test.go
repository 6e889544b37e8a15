package transfer_test

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/config"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
	"github.com/trove-ml/trove/internal/testenv"
	"github.com/trove-ml/trove/internal/transfer"
)

// copyInto copies the store of e into the empty store dsn.
func copyInto(t *testing.T, e *testenv.Env, dsn string) string {
	t.Helper()
	ctx := context.Background()
	dst, err := store.Open(ctx, dsn, "")
	if err != nil {
		t.Fatalf("open target: %v", err)
	}
	defer dst.Close()
	var progress bytes.Buffer
	res, err := transfer.Copy(ctx, e.App.DB, dst, &progress)
	if err != nil {
		t.Fatalf("copy: %v\n%s", err, progress.String())
	}
	if !res.Check.OK() || res.Check.Tasks == 0 || res.Rows == 0 {
		t.Fatalf("copy check: %+v", res.Check)
	}
	if !strings.Contains(progress.String(), "rows/s") || !strings.Contains(progress.String(), "100%") {
		t.Fatalf("no progress bar: %q", progress.String())
	}
	return progress.String()
}

// sqliteIn names a new SQLite store in a fresh data dir.
func sqliteIn(t *testing.T) (dsn, dataDir string) {
	dir := t.TempDir()
	return filepath.Join(dir, "trove.db"), dir
}

// TestCopyRoundTrip copies a store made through the API to the other
// backend and back, and compares every read before and after.
func TestCopyRoundTrip(t *testing.T) {
	src := testenv.New(t, "sqlite")
	tasks := populate(t, src)
	want := answers(t, src, tasks)
	// the training loop's points are still staged: the copy reads them
	// beside event_scalars
	var staged int
	if err := src.App.DB.Read().QueryRowContext(context.Background(), "SELECT COUNT(*) FROM event_scalars_staged").Scan(&staged); err != nil || staged < 20 {
		t.Fatalf("%d points staged in the source (%v), want the 20 of the training loop", staged, err)
	}

	if os.Getenv("TROVE_TEST_POSTGRES") == "" {
		// Without PostgreSQL, SQLite to SQLite still runs the whole path.
		dsn, dir := sqliteIn(t)
		copyInto(t, src, dsn)
		back := testenv.New(t, "sqlite", func(c *config.Config) { c.DataDir = dir })
		sameAnswers(t, "sqlite to sqlite", want, answers(t, back, tasks))
		return
	}
	pgURL := testenv.NewPostgresDB(t)
	copyInto(t, src, pgURL)
	pg := testenv.New(t, "postgres", func(c *config.Config) { c.DB = pgURL })
	sameAnswers(t, "sqlite to postgres", want, answers(t, pg, tasks))
	// The copy arrives unpacked; packed, it answers the same, and the
	// copies out of it below read its packed points.
	if n, err := eventstore.Of(pg.App.DB).PackPoints(context.Background(), 1, math.MaxInt64); err != nil || n < 200 {
		t.Fatalf("packed %d points: %v", n, err)
	}
	if err := pg.App.RunJobsOnce(context.Background()); err != nil { // the packer too
		t.Fatal(err)
	}
	sameAnswers(t, "postgres, packed", want, answers(t, pg, tasks))

	pg2 := testenv.NewPostgresDB(t)
	copyInto(t, pg, pg2)
	pgCopy := testenv.New(t, "postgres", func(c *config.Config) { c.DB = pg2 })
	sameAnswers(t, "postgres to postgres", want, answers(t, pgCopy, tasks))

	dsn, dir := sqliteIn(t)
	copyInto(t, pg, dsn)
	back := testenv.New(t, "sqlite", func(c *config.Config) { c.DataDir = dir })
	sameAnswers(t, "postgres back to sqlite", want, answers(t, back, tasks))

	// New writes on the copies take fresh ids past the copied ones.
	for _, e := range []*testenv.Env{pg, back} {
		e.Call(t, "events.add", obj{"type": "log", "task": tasks[0], "msg": "after copy"}).OK(t)
	}
}

// TestCopyRefusesNonEmptyTarget copies onto a store that has data.
func TestCopyRefusesNonEmptyTarget(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		other := testenv.New(t, "sqlite")
		ctx := context.Background()
		_, err := transfer.Copy(ctx, e.App.DB, other.App.DB, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), "not empty") || !strings.Contains(err.Error(), "users") {
			t.Fatalf("copy onto a used store: %v", err)
		}
	})
}

// TestCopyCheckFindsDifferences changes the target after a copy: the
// check must name the table whose count moved and the task whose events
// changed, also when the count stays the same.
func TestCopyCheckFindsDifferences(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		tasks := populate(t, e)
		ctx := context.Background()
		dsn, _ := sqliteIn(t)
		dst, err := store.Open(ctx, dsn, "")
		if err != nil {
			t.Fatal(err)
		}
		defer dst.Close()
		c, err := transfer.NewCopier(ctx, e.App.DB, dst)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		for _, tb := range c.Tables() {
			if err := c.CopyTable(ctx, tb.Name, nil); err != nil {
				t.Fatal(err)
			}
		}
		if chk, err := c.Verify(ctx); err != nil || !chk.OK() {
			t.Fatalf("clean copy: %v %+v", err, chk)
		}
		if _, err := eventstore.Of(dst).DeleteLogs(ctx, dst.Write(), tasks[0], eventstore.LogDeletion{}); err != nil {
			t.Fatal(err)
		}
		series, err := eventstore.Of(dst).TaskSeries(ctx, dst.Read(), tasks[1])
		if err != nil || len(series) == 0 {
			t.Fatalf("series: %v", err)
		}
		s := series[0]
		if err := eventstore.Of(dst).TouchSeries(ctx, dst.Write(), s.ID, s.MaxIter+1, s.RolledThrough, s.LastWTS); err != nil {
			t.Fatal(err)
		}
		chk, err := c.Verify(ctx)
		if err != nil {
			t.Fatal(err)
		}
		diff := transfer.Differences(chk)
		if chk.OK() || !strings.Contains(diff, "table event_logs") || !strings.Contains(diff, "event_logs: task "+tasks[0]) ||
			!strings.Contains(diff, "event_series: task "+tasks[1]+" differs") {
			t.Fatalf("check missed the changes:\n%s", diff)
		}
	})
}
