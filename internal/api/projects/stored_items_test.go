package projects_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/trove-ml/trove/internal/api/projects"
	"github.com/trove-ml/trove/internal/query"
	"github.com/trove-ml/trove/internal/testenv"
)

// TestStoredItemsKeepTheStoredShape: the list item conversion answers exactly
// what the stored documents hold today, on both backends.
func TestStoredItemsKeepTheStoredShape(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		ids := []string{
			e.Call(t, "projects.create", map[string]any{"name": "wire/a/b", "description": "d", "tags": []string{"t"},
				"default_output_destination": "s3://out"}).OK(t).Str("id"),
			e.Call(t, "projects.create", map[string]any{"name": "plain"}).OK(t).Str("id"),
		}
		e.Call(t, "projects.make_public", map[string]any{"ids": ids[1:]}).OK(t)
		for _, id := range ids {
			doc, err := e.App.DB.Projects().GetRaw(context.Background(), e.App.DB.Read(), id)
			if err != nil {
				t.Fatal(err)
			}
			want, err := query.DecodeItem(doc)
			if err != nil {
				t.Fatal(err)
			}
			got, err := projects.StoredItems(doc)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("list item differs from the stored document\n got: %v\nwant: %v", got, want)
			}
		}
	})
}
