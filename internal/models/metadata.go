package models

import (
	"context"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// AddMetadata adds or replaces metadata items of a company model (all of
// them when replace).
func AddMetadata(ctx context.Context, env *domain.Env, a Actor, id string, items map[string]*store.MetadataItem, replace bool) error {
	return editMetadata(ctx, env, a, id, func(m *store.Model) {
		m.Metadata = domain.PutMetadata(m.Metadata, items, replace)
	})
}

// DeleteMetadata removes metadata keys of a company model; the model
// counts as changed even when none of them was there.
func DeleteMetadata(ctx context.Context, env *domain.Env, a Actor, id string, keys []string) error {
	return editMetadata(ctx, env, a, id, func(m *store.Model) {
		domain.DropMetadata(m.Metadata, keys)
	})
}

func editMetadata(ctx context.Context, env *domain.Env, a Actor, id string, edit func(m *store.Model)) error {
	return env.DB.Tx(ctx, func(q store.Querier) error {
		m, err := LoadWritable(ctx, env, q, a.Company, id)
		if err != nil {
			return err
		}
		edit(m)
		touch(m, a.User, env.Time(), true)
		return env.DB.Models().Update(ctx, q, m)
	})
}
