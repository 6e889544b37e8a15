package models_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/events"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
	"github.com/trove-ml/trove/internal/store/storetest"
)

var ctx = context.Background()

// TestDeleteModels: the cascade deletes the models and their events and
// gathers their URIs; other models keep theirs.
func TestDeleteModels(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		d := &domain.Env{DB: db, Now: func() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }}
		now := d.Time()
		var lines [][]byte
		for _, id := range []string{"a", "b", "c"} {
			m := &store.Model{ID: id, Company: "c1", User: "u1", Name: id, Created: now, LastUpdate: now, LastChange: now}
			if id != "c" {
				m.URI = "file:///" + id + ".pt"
			}
			if err := db.Tx(ctx, func(q store.Querier) error { return db.Models().Insert(ctx, q, m) }); err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(map[string]any{"type": "training_stats_scalar", "model_event": true, "task": id, "metric": "m", "variant": "v", "iter": 1, "value": 1})
			lines = append(lines, b)
		}
		if res, err := (&events.Ingester{DB: db, Now: d.Now}).Ingest(ctx, events.Batch{Company: "c1", User: "u1", Lines: lines}); err != nil || res.ErrorCount() > 0 {
			t.Fatalf("report: %+v %v", res, err)
		}
		urls := domain.NewFileURLs()
		var n int
		if err := db.Tx(ctx, func(q store.Querier) (err error) {
			n, err = domain.DeleteModels(ctx, d, q, []string{"a", "c", "missing"}, urls)
			return
		}); err != nil {
			t.Fatal(err)
		}
		if n != 2 || len(urls.ModelURLs) != 1 || urls.ModelURLs[0] != "file:///a.pt" {
			t.Fatalf("deleted %d, urls %v", n, urls.ModelURLs)
		}
		for id, want := range map[string]int{"a": 0, "b": 1, "c": 0} {
			s, err := eventstore.Of(db).TaskSeries(ctx, db.Read(), id)
			if err != nil || len(s) != want {
				t.Fatalf("model %s: %d series (want %d) %v", id, len(s), want, err)
			}
		}
		if _, err := db.Models().Get(ctx, db.Read(), "b"); err != nil {
			t.Fatal("another model deleted")
		}
	})
}
