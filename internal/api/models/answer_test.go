package models_test

import (
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// TestModelAnswersPinned pins, byte for byte on both backends, the answers
// that carry whole models: get_by_id of a model with
// every member set and of a bare one, get_all_ex and get_all items (the
// list path), and edit's fields. Timestamps and ids are masked
// (testenv.Pinned).
func TestModelAnswersPinned(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		p := mkProject(t, e, "pinned models")
		task := putTask(t, e, taskFixture{name: "pinned task", status: "completed", project: p})
		bare := mkModel(t, e, "bare model", nil)
		full := mkModel(t, e, "full model", obj{"uri": "s3://b/full.pt", "project": p, "task": task, "parent": bare,
			"comment": "c", "framework": "PyTorch", "labels": obj{"cat": 1, "dog": 2}, "ready": true,
			"design":   obj{"layers": []any{1.5, 2, "x", nil}, "deep": obj{"lr": 0.001}},
			"ui_cache": obj{"k": true}, "tags": []string{"b", "a"}, "system_tags": []string{"s"},
			"metadata": []map[string]string{{"key": "k", "type": "int", "value": "3"}, {"key": "a", "type": "str", "value": "x"}}})
		edit := e.Call(t, "models.edit", obj{"model": full, "comment": "edited", "iteration": 7}).OK(t)
		got := e.Call(t, "models.get_by_id", obj{"model": full}).OK(t)
		names := map[string]string{"<full>": full, "<bare>": bare, "<task>": task, "<project>": p,
			"<company>": got.Str("model.company"), "<user>": got.Str("model.user")}
		testenv.CheckPinned(t, names, []testenv.PinnedCase{
			{Name: "full", Got: got, Want: pinnedFullModel},
			{Name: "bare", Got: e.Call(t, "models.get_by_id", obj{"model": bare}).OK(t), Want: pinnedBareModel},
			{Name: "get_all_ex", Got: e.Call(t, "models.get_all_ex", obj{"id": []string{full, bare}, "order_by": []string{"name"}}).OK(t), Want: pinnedModelList},
			{Name: "get_all", Got: e.Call(t, "models.get_all", obj{"id": []string{full}}).OK(t), Want: pinnedModelListOne},
			{Name: "edit", Got: edit, Want: pinnedModelEdit},
		})
	})
}

const (
	pinnedFullModel    = `{"model":{"comment":"edited","company":"<company>","created":"<time>","design":{"deep":{"lr":0.001},"layers":[1.5,2,"x",null]},"framework":"PyTorch","id":"<full>","labels":{"cat":1,"dog":2},"last_change":"<time>","last_changed_by":"<user>","last_iteration":0,"last_metrics":{},"last_update":"<time>","metadata":{"a":{"key":"a","type":"str","value":"x"},"k":{"key":"k","type":"int","value":"3"}},"name":"full model","parent":"<bare>","project":"<project>","ready":true,"system_tags":["s"],"tags":["a","b"],"task":"<task>","uri":"s3://b/full.pt","user":"<user>"}}`
	pinnedBareModel    = `{"model":{"company":"<company>","created":"<time>","design":{},"id":"<bare>","labels":{},"last_change":"<time>","last_changed_by":"<user>","last_iteration":0,"last_metrics":{},"last_update":"<time>","metadata":{},"name":"bare model","ready":false,"system_tags":[],"tags":[],"uri":"file:///tmp/bare model.pt","user":"<user>"}}`
	pinnedModelList    = `{"models":[{"company":{"id":"<company>"},"created":"<time>","design":{},"id":"<bare>","labels":{},"last_change":"<time>","last_changed_by":"<user>","last_iteration":0,"last_metrics":{},"last_update":"<time>","metadata":{},"name":"bare model","ready":false,"system_tags":[],"tags":[],"uri":"file:///tmp/bare model.pt","user":{"id":"<user>"}},{"comment":"edited","company":{"id":"<company>"},"created":"<time>","design":{"deep":{"lr":0.001},"layers":[1.5,2,"x",null]},"framework":"PyTorch","id":"<full>","labels":{"cat":1,"dog":2},"last_change":"<time>","last_changed_by":"<user>","last_iteration":0,"last_metrics":{},"last_update":"<time>","metadata":{"a":{"key":"a","type":"str","value":"x"},"k":{"key":"k","type":"int","value":"3"}},"name":"full model","parent":{"id":"<bare>"},"project":{"id":"<project>"},"ready":true,"system_tags":["s"],"tags":["a","b"],"task":{"id":"<task>"},"uri":"s3://b/full.pt","user":{"id":"<user>"}}],"scroll_id":"-"}`
	pinnedModelListOne = `{"models":[{"comment":"edited","company":"<company>","created":"<time>","design":{"deep":{"lr":0.001},"layers":[1.5,2,"x",null]},"framework":"PyTorch","id":"<full>","labels":{"cat":1,"dog":2},"last_change":"<time>","last_changed_by":"<user>","last_iteration":0,"last_metrics":{},"last_update":"<time>","metadata":{"a":{"key":"a","type":"str","value":"x"},"k":{"key":"k","type":"int","value":"3"}},"name":"full model","parent":"<bare>","project":"<project>","ready":true,"system_tags":["s"],"tags":["a","b"],"task":"<task>","uri":"s3://b/full.pt","user":"<user>"}],"scroll_id":"-"}`
	pinnedModelEdit    = `{"updated":1,"fields":{"comment":"edited","last_change":"<time>","last_changed_by":"<user>"}}`
)
