package models_test

import (
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// TestWrongTypes sends malformed and mistyped bodies to every operation:
// they answer a 400 envelope; bodies that mix good and odd values may
// succeed (unknown fields are ignored), but nothing answers a 5xx.
func TestWrongTypes(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		id := mkModel(t, e, "typed", nil)
		ops := []string{"models.create", "models.edit", "models.update", "models.update_for_task", "models.update_tags",
			"models.get_by_id", "models.get_by_task_id", "models.get_all", "models.get_all_ex", "models.get_by_id_ex",
			"models.get_frameworks", "models.add_or_update_metadata", "models.delete_metadata", "models.delete",
			"models.delete_many", "models.archive_many", "models.unarchive_many", "models.publish_many",
			"models.set_ready", "models.move", "models.make_public", "models.make_private"}
		refused := []any{
			`{"model": `,
			`[1, 2]`,
			obj{"model": 5, "ids": "x", "task": 5, "name": 5, "uri": 5, "project": 5, "projects": "x", "keys": "k",
				"metadata": 5, "add_tags": "t", "ready": "yes", "force": "x", "id": 5, "tags": "x"},
		}
		odd := []any{
			obj{"model": id, "ids": []any{5}, "task": []string{"x"}, "ready": 3, "only_fields": "x", "page": "x"},
			obj{"model": id, "ids": []string{id}, "metadata": []any{"x"}, "labels": []int{1}, "design": 5,
				"last_update": obj{"x": 1}, "created": 5, "order_by": []int{1}, "scroll_id": 5, "size": 1},
		}
		for _, op := range ops {
			for i, b := range refused {
				if r := e.Call(t, op, b); r.Status != 400 {
					t.Errorf("%s refused body %d: HTTP %d %s", op, i, r.Status, r.Raw)
				}
			}
		}
		if getModel(t, e, id)["name"] != "typed" {
			t.Fatal("a refused call wrote the model")
		}
		for _, op := range ops {
			for i, b := range odd {
				if r := e.Call(t, op, b); r.Status >= 500 || r.Meta == nil {
					t.Errorf("%s odd body %d: HTTP %d %s", op, i, r.Status, r.Raw)
				}
			}
		}
	})
}
