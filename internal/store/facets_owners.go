package store

import "context"

// RecordOwners lists, sorted, the distinct users owning tasks or models
// (entity) of companies in projects (nil: anywhere; empty: nowhere), from
// record_facets' "user" facet (migration 0097): projects.get_user_names
// read the owner of every record before.
func (db *DB) RecordOwners(ctx context.Context, entity string, companies, projects []string) ([]string, error) {
	if projects != nil && len(projects) == 0 {
		return []string{}, nil
	}
	return db.FacetValues(ctx, db.Read(), FacetScope{Entity: entity, Companies: companies, Projects: projects}, "user")
}
