package eventstore_test

import (
	"errors"
	"reflect"
	"sort"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
	"github.com/trove-ml/trove/internal/store/storetest"
)

func ptr[T any](v T) *T { return &v }

func TestEventScalarsWriteRead(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ev := eventstore.Of(db)
		sr := &eventstore.Series{Task: "t1", Metric: "loss", Variant: "train", Worker: "w1", MaxIter: 2, RolledThrough: -1}
		mustTx(t, db, func(q store.Querier) error {
			if err := ev.CreateSeries(ctx, q, sr); err != nil {
				return err
			}
			return ev.InsertScalars(ctx, q, []eventstore.ScalarRow{
				{Series: sr.ID, Iter: 0, Value: 1.5, TS: 10, WTS: 10},
				{Series: sr.ID, Iter: 1, Value: 1.0, TS: 11, WTS: 11, Worker: ptr("w2")},
				{Series: sr.ID, Iter: 2, Value: 0.5, TS: 12, WTS: 12},
			})
		})
		if sr.ID == 0 {
			t.Fatal("series got no id")
		}
		// A re-sent iteration replaces the stored point.
		mustTx(t, db, func(q store.Querier) error {
			return ev.UpsertScalars(ctx, q, []eventstore.ScalarRow{{Series: sr.ID, Iter: 1, Value: 0.9, TS: 13, WTS: 13}})
		})
		var got map[[2]string]*eventstore.Series
		mustTx(t, db, func(q store.Querier) error {
			var err error
			got, err = ev.SeriesOf(ctx, q, "t1", []string{"loss"})
			return err
		})
		if s := got[[2]string{"loss", "train"}]; s == nil || s.ID != sr.ID || s.Worker != "w1" || s.MaxIter != 2 {
			t.Fatalf("series of t1: %+v", got)
		}
		pts, err := ev.PointsByIter(ctx, db.Read(), sr.ID, 0, true, false, 10)
		if err != nil {
			t.Fatal(err)
		}
		var vals []float64
		for _, p := range pts {
			vals = append(vals, p.Value)
		}
		if !reflect.DeepEqual(vals, []float64{1.5, 0.9, 0.5}) || pts[1].Worker != nil {
			t.Fatalf("points %+v", pts)
		}
		last, err := ev.LastValues(ctx, db.Read(), sr.ID, false, 2)
		if err != nil || !reflect.DeepEqual(last, []float64{0.5, 0.9}) {
			t.Fatalf("last values %v, %v", last, err)
		}
		maxIters, err := ev.MaxIters(ctx, db.Read(), []string{"t1", "t2"})
		if err != nil || !reflect.DeepEqual(maxIters, map[string]int64{"t1": 2}) {
			t.Fatalf("max iterations %v, %v", maxIters, err)
		}
		_, err = ev.LockSeries(ctx, db.Read(), sr.ID+100)
		if !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("missing series: %v", err)
		}
	})
}

func TestEventLogsAndDocs(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ev := eventstore.Of(db)
		mustTx(t, db, func(q store.Querier) error {
			if err := ev.InsertLogs(ctx, q, []eventstore.LogRow{
				{Task: "t1", TS: 20, WTS: 20, Msg: ptr("second")},
				{Task: "t1", TS: 10, WTS: 10, Msg: ptr("first"), Iter: ptr(int64(3))},
				{Task: "t1", TS: 20, WTS: 21, Msg: ptr("third")},
				{Task: "t2", TS: 5, WTS: 5, Msg: ptr("other task")},
			}); err != nil {
				return err
			}
			return ev.UpsertDocs(ctx, q, []eventstore.DocRow{
				{Task: "t1", EType: "training_debug_image", Metric: "m", Variant: "v", Iter: 1, Key: "k", TS: 1, URL: ptr("file:///a.png"), Doc: []byte(`{"n":1}`)},
				{Task: "t1", EType: "training_debug_image", Metric: "m", Variant: "v", Iter: 2, Key: "k", TS: 2, URL: ptr("file:///b.png"), Doc: []byte(`{"n":2}`)},
				{Task: "t1", EType: "plot", Metric: "m", Variant: "v", Iter: 1, Key: "", TS: 3, Doc: []byte(`{"n":3}`), Plot: ptr("{}")},
			})
		})
		for _, c := range []struct {
			name string
			lq   eventstore.LogQuery
			want []string
		}{
			{"ascending", eventstore.LogQuery{Task: "t1"}, []string{"first", "second", "third"}},
			{"descending", eventstore.LogQuery{Task: "t1", Desc: true}, []string{"third", "second", "first"}},
			{"limited", eventstore.LogQuery{Task: "t1", Limit: 2}, []string{"first", "second"}},
			{"after a time", eventstore.LogQuery{Task: "t1", From: ptr(int64(10))}, []string{"second", "third"}},
			{"with iteration", eventstore.LogQuery{Task: "t1", WithIter: true}, []string{"first"}},
		} {
			rows, err := ev.Logs(ctx, db.Read(), c.lq)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			var got []string
			for _, r := range rows {
				got = append(got, *r.Msg)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("%s: %v, want %v", c.name, got, c.want)
			}
		}
		// A re-sent identity replaces the document.
		mustTx(t, db, func(q store.Querier) error {
			return ev.UpsertDocs(ctx, q, []eventstore.DocRow{
				{Task: "t1", EType: "training_debug_image", Metric: "m", Variant: "v", Iter: 2, Key: "k", TS: 4, URL: ptr("file:///c.png"), Doc: []byte(`{"n":4}`)},
			})
		})
		docs, err := ev.Docs(ctx, db.Read(), eventstore.DocQuery{Tasks: []string{"t1"}, EType: "training_debug_image", Desc: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(docs) != 2 || docs[0].Iter != 2 || *docs[0].URL != "file:///c.png" || docs[1].Iter != 1 {
			t.Fatalf("debug images %+v", docs)
		}
		urls, err := eventstore.Of(db).EventFileURLs(ctx, db.Read(), []string{"t1"})
		sort.Strings(urls)
		if err != nil || !reflect.DeepEqual(urls, []string{"file:///a.png", "file:///c.png"}) {
			t.Fatalf("file urls %v, %v", urls, err)
		}

		var deleted int64
		mustTx(t, db, func(q store.Querier) error {
			var err error
			deleted, err = ev.DeleteFor(ctx, q, []string{"t1"})
			return err
		})
		if deleted != 6 { // three logs and three documents
			t.Fatalf("deleted %d events", deleted)
		}
		if rows, _ := ev.Logs(ctx, db.Read(), eventstore.LogQuery{Task: "t2"}); len(rows) != 1 {
			t.Fatalf("the other task's log: %+v", rows)
		}
	})
}

func TestEventScrollStates(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ev := eventstore.Of(db)
		put := func(id, company, state string, expires, now int64) {
			t.Helper()
			if err := ev.PutScrollState(ctx, eventstore.ScrollState{ID: id, Company: company, Kind: "images", State: state, Expires: expires}, now); err != nil {
				t.Fatal(err)
			}
		}
		put("s1", "c1", "one", 100, 0)
		put("s1", "c2", "stolen", 100, 50) // a live state of another company stays
		put("s1", "c1", "two", 200, 60)
		put("old", "c1", "gone", 10, 0)
		put("old", "c2", "reused", 300, 20) // an expired id may be taken over
		for _, c := range []struct {
			id, company, kind string
			now               int64
			state             string // "" = not found
		}{
			{"s1", "c1", "images", 150, "two"},
			{"s1", "c2", "images", 150, ""},
			{"s1", "c1", "plots", 150, ""},
			{"s1", "c1", "images", 250, ""}, // expired
			{"old", "c2", "images", 30, "reused"},
		} {
			st, err := ev.GetScrollState(ctx, c.id, c.company, c.kind, c.now)
			switch {
			case c.state == "" && !errors.Is(err, store.ErrNotFound):
				t.Errorf("get %s of %s: want ErrNotFound, got %+v, %v", c.id, c.company, st, err)
			case c.state != "" && (err != nil || st.State != c.state):
				t.Errorf("get %s of %s: %+v, %v; want %s", c.id, c.company, st, err, c.state)
			}
		}
		if err := ev.DeleteScrollState(ctx, "s1", "c2"); err != nil {
			t.Fatal(err)
		}
		if _, err := ev.GetScrollState(ctx, "s1", "c1", "images", 150); err != nil {
			t.Fatalf("another company deleted the state: %v", err)
		}
		if err := ev.DeleteExpiredScrollStates(ctx, 250); err != nil {
			t.Fatal(err)
		}
		if _, err := ev.GetScrollState(ctx, "old", "c2", "images", 30); err != nil {
			t.Fatalf("a live state was swept: %v", err)
		}
		if err := ev.DeleteScrollState(ctx, "old", "c2"); err != nil {
			t.Fatal(err)
		}
		if _, err := ev.GetScrollState(ctx, "old", "c2", "images", 30); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("deleted state: %v", err)
		}
	})
}

func TestEventSpaceReclaim(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		on, err := eventstore.Of(db).UseIncrementalVacuum(ctx, 1<<30)
		if err != nil {
			t.Fatal(err)
		}
		// A small SQLite file switches; PostgreSQL has no such mode.
		if want := db.D.Name() == "sqlite"; on != want {
			t.Fatalf("incremental vacuum %v, want %v", on, want)
		}
		if _, err := eventstore.Of(db).ReclaimSpace(ctx, 100); err != nil {
			t.Fatal(err)
		}
	})
}
