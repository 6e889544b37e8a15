package models

import (
	"context"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// UpdateTags adds and removes tags of company models in one transaction;
// as in the reference, each model counts once per list given. Unknown
// ids fail the call and nothing changes.
func UpdateTags(ctx context.Context, env *domain.Env, a Actor, ids, add, remove []string) (int, error) {
	drop := map[string]bool{}
	for _, t := range remove {
		drop[t] = true
	}
	now := env.Time()
	n, err := writeEach(ctx, env, a.Company, ids, func(m *store.Model) {
		var tags []string
		for _, t := range append(m.Tags, add...) {
			if !drop[t] {
				tags = append(tags, t)
			}
		}
		m.Tags = domain.SortedTags(tags)
		touch(m, a.User, now, false)
	})
	if err != nil {
		return 0, err
	}
	lists := 0
	for _, list := range [][]string{add, remove} {
		if len(list) > 0 {
			lists++
		}
	}
	return n * lists, nil
}
