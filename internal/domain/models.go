package domain

import (
	"context"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
)

// DeleteModels is the one path every model deletion takes (models.delete,
// tasks.delete and tasks.reset for output models, projects.delete for a
// project's contents). It lives here, below the tasks and models domains,
// because both delete models and the models domain depends on the tasks
// one. Inside the caller's transaction it deletes the
// models' events and the models, and adds their URIs to urls (when not
// nil) so that the caller removes the files after it commits.
func DeleteModels(ctx context.Context, d *Env, q store.Querier, ids []string, urls *FileURLs) (int, error) {
	if len(ids) == 0 {
		return 0, nil
	}
	if urls != nil {
		uris, err := d.DB.ModelURIs(ctx, q, ids)
		if err != nil {
			return 0, err
		}
		urls.ModelURLs = append(urls.ModelURLs, uris...)
	}
	if _, err := eventstore.Of(d.DB).DeleteFor(ctx, q, ids); err != nil {
		return 0, err
	}
	return d.DB.DeleteModels(ctx, q, ids)
}
