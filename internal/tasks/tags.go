package tasks

import (
	"context"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// UpdateTags adds and then removes tags on writable tasks of the company,
// in one transaction: any unknown id fails the call (400/101) and nothing
// changes. The answer counts each task once per non-empty list, as the
// reference does; the tasks' projects are touched.
func UpdateTags(ctx context.Context, d *domain.Env, company, user string, ids, add, remove []string) (int, error) {
	n := 0
	err := d.DB.Tx(ctx, func(q store.Querier) error {
		loaded, err := LoadAllWritable(ctx, d, q, company, ids)
		if err != nil {
			return err
		}
		now := d.Time()
		var projects []string
		for _, t := range loaded {
			tags := append([]string{}, t.Tags...)
			for _, tag := range add {
				if !domain.HasTag(tags, tag) {
					tags = append(tags, tag)
				}
			}
			for _, tag := range remove {
				tags = domain.WithoutTag(tags, tag)
			}
			t.Tags = domain.SortedTags(tags)
			t.LastChange, t.LastChangedBy = now, user
			if err := d.DB.Tasks().Update(ctx, q, t); err != nil {
				return err
			}
			projects = append(projects, t.Project)
		}
		for _, list := range [][]string{add, remove} {
			if len(list) > 0 {
				n += len(loaded)
			}
		}
		return TouchProjects(ctx, d, q, projects...)
	})
	return n, err
}
