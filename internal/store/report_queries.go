package store

import "context"

// TaskTagsOfType lists, sorted, the distinct tags of the company's tasks
// of one type (reports.get_tags).
func (db *DB) TaskTagsOfType(ctx context.Context, company, taskType string) ([]string, error) {
	return db.DistinctTags(ctx, TagScope{Tables: []string{"tasks"}, Company: company, Cond: "tasks.type = ?", CondArgs: []any{taskType}}, "tags")
}
