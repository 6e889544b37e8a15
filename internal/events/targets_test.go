package events_test

import (
	"context"
	"testing"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain/domaintest"
	"github.com/trove-ml/trove/internal/events"
	"github.com/trove-ml/trove/internal/store"
)

func TestTargets(t *testing.T) {
	domaintest.Each(t, func(t *testing.T, e *domaintest.Env) {
		ctx, d := context.Background(), &e.Env
		now := e.Time()
		insert := func(rec interface{ RecordID() string }) {
			t.Helper()
			err := e.DB.Tx(ctx, func(q store.Querier) error {
				switch r := rec.(type) {
				case *store.Task:
					return e.DB.Tasks().Insert(ctx, q, r)
				case *store.Model:
					return e.DB.Models().Insert(ctx, q, r)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		insert(&store.Task{ID: "own", Company: domaintest.Company, Name: "own", Type: "training", Status: "published", Created: now, LastUpdate: now})
		insert(&store.Task{ID: "pub", Company: "", Name: "public", Type: "training", Status: "created", Created: now, LastUpdate: now})
		insert(&store.Task{ID: "other", Company: "elsewhere", Name: "other", Type: "training", Status: "created", Created: now, LastUpdate: now})
		insert(&store.Model{ID: "m1", Company: domaintest.Company, Name: "model", Ready: true, Created: now, LastUpdate: now})

		ts, err := events.ReadableMany(ctx, d, domaintest.Company, []string{"pub", "own", "pub", ""}, false)
		if err != nil || len(ts) != 2 || ts[0].ID != "pub" || ts[1].Name != "own" {
			t.Fatalf("readable %+v %v", ts, err)
		}
		_, err = events.ReadableMany(ctx, d, domaintest.Company, []string{"zz", "other", "own"}, false)
		if !apierr.Is(err, 400, 101) || apierr.As(err).Data["id"] == nil {
			t.Fatalf("unknown and foreign tasks: %v", err)
		}
		if _, err := events.ReadableMany(ctx, d, domaintest.Company, []string{""}, false); !apierr.Is(err, 400, 12) {
			t.Fatalf("no id: %v", err)
		}

		// Published tasks and ready models take events only with allow_locked.
		if _, err := events.Writable(ctx, d, e.DB.Read(), domaintest.Company, "own", false, false); !apierr.Is(err, 400, 101) {
			t.Fatalf("published task: %v", err)
		}
		if _, err := events.Writable(ctx, d, e.DB.Read(), domaintest.Company, "m1", true, false); !apierr.Is(err, 400, 201) {
			t.Fatalf("ready model: %v", err)
		}
		if _, err := events.Writable(ctx, d, e.DB.Read(), domaintest.Company, "pub", false, true); !apierr.Is(err, 400, 101) {
			t.Fatalf("public task is not writable: %v", err)
		}
		if n, err := events.DeleteFor(ctx, d, domaintest.Company, "own", false, true); err != nil || n != 0 {
			t.Fatalf("delete for a task without events: %d %v", n, err)
		}
		if n, err := events.ClearLog(ctx, d, domaintest.Company, "m1", false, events.LogClearing{}); !apierr.Is(err, 400, 101) || n != 0 {
			t.Fatalf("clear log of a model id: %d %v", n, err)
		}
	})
}
