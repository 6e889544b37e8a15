package models_test

import (
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

func TestCreateAndGetByID(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		pid := mkProject(t, e, "models/create")
		task := putTask(t, e, taskFixture{project: pid})
		parent := mkModel(t, e, "parent model", nil)
		r := e.Call(t, "models.create", obj{"name": "  resnet  ", "uri": "s3://bucket/resnet.pt", "comment": "c",
			"framework": "PyTorch", "labels": obj{"cat": 1, "dog": 2}, "design": obj{"design": "layers"},
			"project": pid, "task": task, "parent": parent, "tags": []string{"b", "a", "b"}, "system_tags": []string{"x"},
			"metadata": []obj{{"key": "acc", "type": "float", "value": "0.9"}}}).OK(t)
		if r.Data["created"] != true || r.Str("id") == "" {
			t.Fatalf("bad create answer %s", r.Raw)
		}
		m := getModel(t, e, r.Str("id"))
		want := obj{"name": "resnet", "uri": "s3://bucket/resnet.pt", "comment": "c", "framework": "PyTorch",
			"project": pid, "task": task, "parent": parent, "ready": false, "company": "d1bd92a3b039400cbafc60a7a5b1e52b",
			"user": "__admin__", "last_changed_by": "__admin__", "last_iteration": 0.0}
		for k, v := range want {
			if m[k] != v {
				t.Fatalf("%s: got %v, want %v (%v)", k, m[k], v, m)
			}
		}
		if tags := m["tags"].([]any); len(tags) != 2 || tags[0] != "a" {
			t.Fatalf("tags not deduplicated and sorted: %v", tags)
		}
		if md := m["metadata"].(map[string]any)["acc"].(map[string]any); md["value"] != "0.9" || md["type"] != "float" || md["key"] != "acc" {
			t.Fatalf("metadata map: %v", m["metadata"])
		}
		for _, k := range []string{"created", "last_update", "last_change"} {
			if s, _ := m[k].(string); !strings.HasSuffix(s, "+00:00") {
				t.Fatalf("%s not a wire date: %v", k, m[k])
			}
		}
		if _, ok := m["ui_cache"]; ok {
			t.Fatalf("ui_cache is hidden unless asked: %v", m)
		}
		if _, ok := m["last_metrics"].(map[string]any); !ok {
			t.Fatalf("last_metrics must be {}: %v", m)
		}
		// A bare model: absent optional fields, empty defaults.
		bare := getModel(t, e, mkModel(t, e, "bare", nil))
		for _, k := range []string{"project", "task", "parent", "comment", "framework"} {
			if _, ok := bare[k]; ok {
				t.Fatalf("%s should be absent: %v", k, bare)
			}
		}
		if len(bare["labels"].(map[string]any)) != 0 || len(bare["design"].(map[string]any)) != 0 || len(bare["metadata"].(map[string]any)) != 0 {
			t.Fatalf("empty maps expected: %v", bare)
		}
		// ready may be set on create; only_fields projects get_by_id.
		ready := mkModel(t, e, "ready one", obj{"ready": true, "ui_cache": obj{"k": 1}})
		p := e.Call(t, "models.get_by_id", obj{"model": ready, "only_fields": []string{"ready", "ui_cache"}}).OK(t)
		if p.Data["model"].(map[string]any)["ready"] != true || testenv.Get(p.Data, "model.ui_cache.k") != 1.0 || p.Str("model.name") != "" {
			t.Fatalf("projection: %s", p.Raw)
		}
		// Names are not unique.
		mkModel(t, e, "resnet", nil)
		// Old clients read metadata as a list.
		old := e.Call(t, "v2.13/models.get_by_id", obj{"model": r.Str("id")}).OK(t)
		if l := old.List("model.metadata"); len(l) != 1 {
			t.Fatalf("metadata at 2.13 should be a list: %s", old.Raw)
		}
		e.Call(t, "models.get_by_id", obj{"model": "nope"}).Err(t, 400, 201)
		e.Call(t, "models.get_by_id", obj{}).Err(t, 400, 12)
	})
}

func TestCreateBadInput(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		other := e.Call(t, "projects.create", obj{"name": "a project"}).OK(t).Str("id")
		_ = other
		cases := []struct {
			name    string
			body    any
			code    int
			subcode int
			field   string
		}{
			{"missing name", obj{"uri": "x"}, 400, 12, "name"},
			{"missing uri", obj{"name": "abc"}, 400, 12, "uri"},
			{"name too short", obj{"name": " ab ", "uri": "x"}, 400, 800, "name"},
			{"blank name", obj{"name": "   ", "uri": "x"}, 400, 12, "name"},
			{"name not a string", obj{"name": 5, "uri": "x"}, 400, 12, "name"},
			{"labels not integers", obj{"name": "abc", "uri": "x", "labels": obj{"a": "b"}}, 400, 12, "labels"},
			{"labels fractions", obj{"name": "abc", "uri": "x", "labels": obj{"a": 1.5}}, 400, 12, "labels"},
			{"design not an object", obj{"name": "abc", "uri": "x", "design": "text"}, 400, 12, "design"},
			{"operator tag", obj{"name": "abc", "uri": "x", "tags": []string{"__$not"}}, 400, 16, "tags"},
			{"unknown project", obj{"name": "abc", "uri": "x", "project": "nope"}, 400, 12, "project"},
			{"unknown task", obj{"name": "abc", "uri": "x", "task": "nope"}, 400, 101, "nope"},
			{"unknown parent", obj{"name": "abc", "uri": "x", "parent": "nope"}, 400, 12, "parent"},
			{"metadata without key", obj{"name": "abc", "uri": "x", "metadata": []obj{{"type": "a", "value": "b"}}}, 400, 12, "metadata"},
			{"metadata without value", obj{"name": "abc", "uri": "x", "metadata": []obj{{"key": "k", "type": "a"}}}, 400, 12, "metadata.value"},
			{"metadata not a list", obj{"name": "abc", "uri": "x", "metadata": "k=v"}, 400, 12, "metadata"},
			{"malformed json", `{"name": "abc",`, 400, 0, ""},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				r := e.Call(t, "models.create", tc.body).Err(t, tc.code, tc.subcode)
				if tc.field != "" && !strings.Contains(r.Msg(), tc.field) {
					t.Fatalf("message does not name %s: %s", tc.field, r.Msg())
				}
			})
		}
		// Nothing half-written.
		if n := len(e.Call(t, "models.get_all", nil).OK(t).List("models")); n != 0 {
			t.Fatalf("failed creates left %d models", n)
		}
		// Metadata as a map is accepted; the map key names the item.
		id := mkModel(t, e, "map metadata", obj{"metadata": obj{"k1": obj{"type": "str", "value": "v1"}}})
		if md := getModel(t, e, id)["metadata"].(map[string]any)["k1"].(map[string]any); md["key"] != "k1" || md["value"] != "v1" {
			t.Fatalf("map metadata: %v", md)
		}
	})
}
