package models_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/trove-ml/trove/internal/api/models"
	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/query"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/testenv"
)

// TestStoredItemsKeepTheStoredShape: the list item conversion answers exactly
// what the stored documents hold today (numbers as written, nulls,
// omitted members), on both backends.
func TestStoredItemsKeepTheStoredShape(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		pid := e.Call(t, "projects.create", map[string]any{"name": "wire/shape"}).OK(t).Str("id")
		e.Call(t, "models.create", map[string]any{"name": "bare", "uri": "file:///bare.pt"}).OK(t)
		full := e.Call(t, "models.create", map[string]any{"name": "full", "uri": "s3://b/full.pt", "project": pid,
			"comment": "c", "framework": "PyTorch", "labels": map[string]int{"cat": 1, "dog": 2},
			"design":   map[string]any{"layers": []any{1.5, 2, "x", nil}, "deep": map[string]any{"lr": 0.001}},
			"ui_cache": map[string]any{"k": true}, "tags": []string{"b", "a"}, "system_tags": []string{"s"},
			"metadata": []map[string]string{{"key": "k", "type": "int", "value": "3"}}}).OK(t).Str("id")
		e.Call(t, "models.make_public", map[string]any{"ids": []string{full}}).OK(t)
		e.Call(t, "models.make_private", map[string]any{"ids": []string{full}}).OK(t)
		e.Call(t, "models.edit", map[string]any{"model": full, "project": ""}).OK(t)
		compareDocs(t, e.App.DB, "models", models.StoredItems)
	})
}

// compareDocs checks that conv(doc) equals the plain decoding of every
// document of table.
func compareDocs(t *testing.T, db *store.DB, table string, conv query.DocConverter) {
	t.Helper()
	n := 0
	err := db.ScanDocs(context.Background(), store.DocScan{Table: table, Companies: []string{"", auth.DefaultCompanyID}, AllProjects: true}, func(doc []byte) error {
		n++
		want, err := query.DecodeItem(doc)
		if err != nil {
			return err
		}
		got, err := conv(doc)
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("list item differs from the stored document\n got: %v\nwant: %v", got, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no documents compared")
	}
}
