package store_test

import (
	"context"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// TestWriteTasksCountingNoTasks: a group none of whose tasks changes names
// runs no statement for them, neither the trigger's pause nor the counts
// (each pause row left a dead row behind on PostgreSQL that every task
// write's trigger conditions then scanned).
func TestWriteTasksCountingNoTasks(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		counted := false
		versions, err := db.WriteTasksCountingNames(context.Background(), nil, nil, func() []store.MetricNameDelta {
			counted = true
			return nil
		})
		if err != nil || len(versions) != 0 || counted {
			t.Fatalf("versions %v, err %v, counted %v", versions, err, counted)
		}
	})
}
