package models

import (
	"context"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// SetArchived adds (archived) or removes the archived system tag of one
// company model.
func SetArchived(ctx context.Context, env *domain.Env, a Actor, id string, archived bool) error {
	return env.DB.Tx(ctx, func(q store.Querier) error {
		m, err := LoadWritable(ctx, env, q, a.Company, id)
		if err != nil {
			return err
		}
		tags := domain.WithoutTag(m.SystemTags, store.ArchivedTag)
		if archived {
			tags = append(tags, store.ArchivedTag)
		}
		m.SystemTags = domain.SortedTags(tags)
		touch(m, a.User, env.Time(), false)
		return env.DB.Models().Update(ctx, q, m)
	})
}
