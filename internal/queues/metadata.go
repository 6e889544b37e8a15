package queues

import (
	"context"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// GetDefault is Default on a read of the store (queues.get_default).
func GetDefault(ctx context.Context, d *domain.Env, company string) (*store.Queue, error) {
	return Default(ctx, d.DB, d.DB.Read(), company)
}

// PutMetadata adds or replaces metadata items of a company's queue (with
// replace, drops the others first) and sets its last_update.
func PutMetadata(ctx context.Context, d *domain.Env, company, id string, items map[string]*store.MetadataItem, replace bool) error {
	return d.DB.Tx(ctx, func(q store.Querier) error {
		qu, err := GetForUpdate(ctx, d.DB, q, company, id)
		if err != nil {
			return err
		}
		qu.Metadata = domain.PutMetadata(qu.Metadata, items, replace)
		qu.LastUpdate = d.Time()
		return d.DB.Queues().Update(ctx, q, qu)
	})
}

// DropMetadata removes metadata keys of a company's queue; it writes
// nothing and answers 0 when none of the keys was there, else 1.
func DropMetadata(ctx context.Context, d *domain.Env, company, id string, keys []string) (int, error) {
	updated := 0
	err := d.DB.Tx(ctx, func(q store.Querier) error {
		qu, err := GetForUpdate(ctx, d.DB, q, company, id)
		if err != nil {
			return err
		}
		if !domain.DropMetadata(qu.Metadata, keys) {
			return nil
		}
		updated = 1
		qu.LastUpdate = d.Time()
		return d.DB.Queues().Update(ctx, q, qu)
	})
	return updated, err
}
