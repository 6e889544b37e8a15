package store

import "context"

// ModelsIn loads the models with the given ids that belong to one of the
// companies (unknown ids are left out).
func (db *DB) ModelsIn(ctx context.Context, q Querier, ids, companies []string) ([]*Model, error) {
	if len(ids) == 0 || len(companies) == 0 {
		return nil, nil
	}
	return db.Models().Select(ctx, q, "id IN ("+Placeholders(len(ids))+") AND company IN ("+Placeholders(len(companies))+")",
		append(Args(ids), Args(companies)...)...)
}
