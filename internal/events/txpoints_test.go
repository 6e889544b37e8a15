package events

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// A group whose batches write the same series (a later batch replacing
// points an earlier one left pending, then adding past them) stores what
// the same batches written one transaction each store: the same points,
// series marks and histograms (read from the rollups the big batches
// keep in step).
func TestGroupedPointsEqualOneByOne(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		grouped, single := newStoredTask(t, db, "c", "grouped"), newStoredTask(t, db, "c", "single")
		in := &Ingester{DB: db, Now: time.Now}
		parser := NewParser(UnknownWorker)
		lines := func(task string, from, to int, offset float64) [][]byte {
			var out [][]byte
			for i := from; i <= to; i++ {
				for _, v := range []string{"a", "b"} {
					out = append(out, []byte(fmt.Sprintf(`{"type":"training_stats_scalar","task":%q,"iter":%d,"metric":"m","variant":%q,"value":%g,"timestamp":%d}`,
						task, i, v, offset+float64(i), 1700000000000+i)))
				}
			}
			return out
		}
		batches := func(task string) [][][]byte {
			return [][][]byte{lines(task, 0, 39, 0), lines(task, 30, 59, 1000), lines(task, 60, 61, 0), lines(task, 5, 6, -50)}
		}
		var group []*pendingBatch
		for _, ls := range batches(grouped) {
			var evs []*Event
			for _, l := range ls {
				evs = append(evs, mustParse(t, parser, l))
			}
			now := time.Now()
			parts := prepare(evs, now.UnixMilli())
			group = append(group, &pendingBatch{ctx: ctx, company: "c", user: "u", now: now, wts: now.UnixMilli(), parseErrs: map[string]int{},
				parts: parts, tasks: map[string]bool{grouped: false}, models: map[string]bool{}, events: len(evs),
				upkeep: in.prepareUpkeep(ctx, "c", "u", now, parts, nil)})
		}
		// one transaction for the group (writeGroup would hide its failure
		// behind one transaction per batch)
		if err := in.writeTx(ctx, group); err != nil {
			t.Fatalf("group transaction: %v", err)
		}
		for i, p := range group {
			if p.res.Added != p.events {
				t.Fatalf("grouped batch %d: %+v", i, p.res)
			}
		}
		for i, ls := range batches(single) {
			if res, err := in.Ingest(ctx, Batch{Company: "c", User: "u", Lines: ls}); err != nil || res.Added != len(ls) {
				t.Fatalf("single batch %d: %v %+v", i, err, res)
			}
		}
		state := func(task string) string {
			series, err := eventstore.Of(db).TaskSeries(ctx, db.Read(), task)
			if err != nil || len(series) != 2 {
				t.Fatalf("series of %s: %v %+v", task, err, series)
			}
			var b strings.Builder
			for _, sr := range series {
				stored, err := eventstore.Of(db).ScalarValues(ctx, db.Read(), sr.ID, NoIter+1, 1<<40)
				if err != nil {
					t.Fatal(err)
				}
				vals := map[int64]float64{}
				for it, v := range stored {
					vals[it] = v.Value
				}
				fmt.Fprintf(&b, "%s/%s max %d rolled %d points %v\n", sr.Metric, sr.Variant, sr.MaxIter, sr.RolledThrough, vals)
			}
			return b.String()
		}
		if g, s := state(grouped), state(single); g != s {
			t.Fatalf("grouped:\n%s\none by one:\n%s", g, s)
		}
		if got := state(grouped); !strings.Contains(got, "max 61") || !strings.Contains(got, "5:-45") || !strings.Contains(got, "35:1035") {
			t.Fatalf("unexpected points:\n%s", got)
		}
		r := &Reader{DB: db}
		for _, samples := range []int{4, 10, 100} {
			g, err := r.Histogram(ctx, grouped, nil, samples, KeyIter)
			if err != nil {
				t.Fatal(err)
			}
			s, err := r.Histogram(ctx, single, nil, samples, KeyIter)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(g, s) || len(g) != 2 {
				t.Fatalf("histogram of %d samples:\ngrouped    %+v\none by one %+v", samples, g, s)
			}
		}
		gt, _ := db.Tasks().Get(ctx, db.Read(), grouped)
		st, _ := db.Tasks().Get(ctx, db.Read(), single)
		if !reflect.DeepEqual(gt.LastMetrics, st.LastMetrics) || gt.LastIteration != 61 {
			t.Fatalf("summaries differ: %+v vs %+v", gt.LastMetrics, st.LastMetrics)
		}
	})
}
