package events

import (
	"context"

	"github.com/trove-ml/trove/internal/store"
)

// NameCountFolder folds the metric-name count differences the writer
// appends on PostgreSQL into the project count rows
// (store.FoldNameCountDeltas): the readers add those not folded yet, so
// folding only keeps the appended rows few.
type NameCountFolder struct{ DB *store.DB }

// Run folds once; on a store that adds its counts at once it does nothing.
func (f *NameCountFolder) Run(ctx context.Context) error {
	if !f.DB.D.DefersNameCounts() {
		return nil
	}
	return f.DB.Tx(ctx, func(q store.Querier) error { return f.DB.FoldNameCountDeltas(ctx, q) })
}
