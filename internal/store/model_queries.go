package store

import (
	"context"
	"sort"
)

// ModelFrameworks lists the distinct non-empty frameworks of the models of
// companies, sorted; projects, when given, limits them to those projects.
func (db *DB) ModelFrameworks(ctx context.Context, companies, projects []string) ([]string, error) {
	where := "company IN (" + Placeholders(len(companies)) + ") AND framework IS NOT NULL AND framework <> ''"
	args := Args(companies)
	if len(projects) > 0 {
		where += " AND project IN (" + Placeholders(len(projects)) + ")"
		args = append(args, Args(projects)...)
	}
	fws, err := IDs(ctx, db.Read(), "SELECT DISTINCT framework FROM models WHERE "+where, args...)
	if err != nil {
		return nil, err
	}
	sort.Strings(fws)
	if fws == nil {
		fws = []string{}
	}
	return fws, nil
}
