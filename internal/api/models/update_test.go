package models_test

import (
	"strings"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/testenv"
)

func TestEditAndUpdate(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		pid := mkProject(t, e, "edit/target")
		task := putTask(t, e, taskFixture{})
		id := mkModel(t, e, "draft", obj{"ui_cache": obj{"preview": "x"}})
		before := getModel(t, e, id)
		e.Clock.Advance(time.Second)

		// edit: the SDK's OutputModel call.
		r := e.Call(t, "models.edit", obj{"model": id, "uri": "file:///w/model.pt", "name": "m", "comment": "Created by task id",
			"tags": []string{"t2", "t1"}, "system_tags": []string{}, "framework": "PyTorch", "design": obj{"design": ""},
			"labels": obj{"background": 0, "cat": 1}, "project": pid, "task": task, "iteration": 7}).OK(t)
		if r.Num("updated") != 1 || testenv.Get(r.Data, "fields.name") != "m" || testenv.Get(r.Data, "fields.framework") != "PyTorch" ||
			testenv.Get(r.Data, "fields.last_update") == nil || len(r.List("fields.tags")) != 2 || r.Str("fields.tags.0") != "t1" {
			t.Fatalf("edit answer: %s", r.Raw)
		}
		m := getModel(t, e, id)
		if m["name"] != "m" || m["uri"] != "file:///w/model.pt" || m["project"] != pid || m["task"] != task ||
			testenv.Get(m, "labels.cat") != 1.0 || testenv.Get(m, "design.design") != "" {
			t.Fatalf("edit not stored: %v", m)
		}
		if m["last_update"] == before["last_update"] {
			t.Fatalf("last_update not moved by edit")
		}
		ui := e.Call(t, "models.get_by_id", obj{"model": id, "only_fields": []string{"ui_cache"}}).OK(t)
		if len(testenv.Get(ui.Data, "model.ui_cache").(map[string]any)) != 0 {
			t.Fatalf("a new uri empties ui_cache: %s", ui.Raw)
		}
		if got := getTask(t, e, task).LastIteration; got != 7 {
			t.Fatalf("iteration raises the task's last_iteration: %d", got)
		}
		e.Call(t, "models.edit", obj{"model": id, "iteration": 3}).OK(t)
		if got := getTask(t, e, task).LastIteration; got != 7 {
			t.Fatalf("last_iteration only rises: %d", got)
		}
		// A comment-only edit changes last_change, not last_update.
		lu := getModel(t, e, id)["last_update"]
		e.Clock.Advance(time.Second)
		r = e.Call(t, "models.edit", obj{"model": id, "comment": "new"}).OK(t)
		if testenv.Get(r.Data, "fields.last_update") != nil || getModel(t, e, id)["last_update"] != lu {
			t.Fatalf("comment moved last_update: %s", r.Raw)
		}
		// Nothing to change.
		if r := e.Call(t, "models.edit", obj{"model": id}).OK(t); r.Num("updated") != 0 {
			t.Fatalf("empty edit: %s", r.Raw)
		}
		// Edit may set ready; update ignores labels but writes ready and ui_cache.
		e.Call(t, "models.edit", obj{"model": id, "ready": true}).OK(t)
		e.Call(t, "models.update", obj{"model": id, "ready": false, "labels": obj{"x": 5}, "ui_cache": obj{"a": 1},
			"created": "2020-01-02T03:04:05+00:00", "name": "renamed"}).OK(t)
		m = getModel(t, e, id)
		if m["ready"] != false || testenv.Get(m, "labels.x") != nil || m["name"] != "renamed" || m["created"] != "2020-01-02T03:04:05+00:00" {
			t.Fatalf("update: %v", m)
		}
		// Bad input, nothing written.
		cases := []struct {
			name    string
			op      string
			body    obj
			code    int
			subcode int
			field   string
		}{
			{"edit unknown model", "models.edit", obj{"model": "nope", "name": "x"}, 400, 201, "nope"},
			{"update unknown model", "models.update", obj{"model": "nope", "name": "x"}, 400, 201, "nope"},
			{"edit missing model", "models.edit", obj{"name": "x"}, 400, 12, "model"},
			{"edit unknown task", "models.edit", obj{"model": id, "task": "nope", "name": "zzz"}, 400, 101, "nope"},
			{"edit unknown project", "models.edit", obj{"model": id, "project": "nope", "name": "zzz"}, 400, 12, "project"},
			{"edit unknown parent", "models.edit", obj{"model": id, "parent": "nope", "name": "zzz"}, 400, 12, "parent"},
			{"edit bad labels", "models.edit", obj{"model": id, "labels": obj{"a": "b"}, "name": "zzz"}, 400, 12, "labels"},
			{"edit bad tags", "models.edit", obj{"model": id, "tags": []string{"__$all"}, "name": "zzz"}, 400, 16, "tags"},
			{"edit empty name", "models.edit", obj{"model": id, "name": "  "}, 400, 12, "name"},
			{"update bad created", "models.update", obj{"model": id, "created": "yesterday", "name": "zzz"}, 400, 12, "created"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				r := e.Call(t, tc.op, tc.body).Err(t, tc.code, tc.subcode)
				if !strings.Contains(r.Msg(), tc.field) {
					t.Fatalf("message does not name %s: %s", tc.field, r.Msg())
				}
			})
		}
		if getModel(t, e, id)["name"] != "renamed" {
			t.Fatal("a refused edit wrote the name")
		}
	})
}

func TestMetadata(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		id := mkModel(t, e, "with metadata", nil)
		md := func() map[string]any { return getModel(t, e, id)["metadata"].(map[string]any) }
		// The SDK's set_metadata: a list, merged by key.
		e.Call(t, "models.add_or_update_metadata", obj{"model": id, "metadata": []obj{{"key": "a", "type": "int", "value": "1"}}}).OK(t)
		r := e.Call(t, "models.add_or_update_metadata", obj{"model": id, "metadata": []obj{{"key": "b", "type": "str", "value": "x"}, {"key": "a", "type": "int", "value": "2"}}}).OK(t)
		if r.Num("updated") != 1 {
			t.Fatalf("answer: %s", r.Raw)
		}
		if m := md(); len(m) != 2 || testenv.Get(m, "a.value") != "2" || testenv.Get(m, "b.key") != "b" {
			t.Fatalf("merge: %v", m)
		}
		// A map is accepted too; replace_metadata drops the rest.
		e.Call(t, "models.add_or_update_metadata", obj{"model": id, "replace_metadata": true, "metadata": obj{"c.d": obj{"key": "c.d", "type": "float", "value": "0.5"}}}).OK(t)
		if m := md(); len(m) != 1 || m["c.d"] == nil {
			t.Fatalf("replace: %v", m)
		}
		// Keys with dots are filtered with %2E.
		if n := len(e.Call(t, "models.get_all", obj{"metadata.c%2Ed": []string{"0.5"}}).OK(t).List("models")); n != 1 {
			t.Fatalf("escaped metadata key filter found %d", n)
		}
		r = e.Call(t, "models.delete_metadata", obj{"model": id, "keys": []string{"c.d", "unknown"}}).OK(t)
		if r.Num("updated") != 1 || len(md()) != 0 {
			t.Fatalf("delete_metadata: %s %v", r.Raw, md())
		}
		// Bad input.
		e.Call(t, "models.add_or_update_metadata", obj{"model": id}).Err(t, 400, 12)
		e.Call(t, "models.add_or_update_metadata", obj{"model": id, "metadata": []obj{}}).Err(t, 400, 12)
		e.Call(t, "models.add_or_update_metadata", obj{"model": id, "metadata": []obj{{"type": "x", "value": "y"}}}).Err(t, 400, 12)
		e.Call(t, "models.add_or_update_metadata", obj{"model": id, "metadata": []obj{{"key": "k", "value": "y"}}}).Err(t, 400, 12)
		e.Call(t, "models.add_or_update_metadata", obj{"model": id, "metadata": []obj{{"key": "k", "type": "int", "value": 5}}}).Err(t, 400, 12)
		e.Call(t, "models.add_or_update_metadata", obj{"model": "nope", "metadata": []obj{{"key": "k", "type": "t", "value": "v"}}}).Err(t, 400, 201)
		e.Call(t, "models.add_or_update_metadata", obj{"metadata": []obj{{"key": "k", "type": "t", "value": "v"}}}).Err(t, 400, 12)
		e.Call(t, "models.delete_metadata", obj{"model": id}).Err(t, 400, 12)
		e.Call(t, "models.delete_metadata", obj{"model": id, "keys": []string{}}).Err(t, 400, 12)
		e.Call(t, "models.delete_metadata", obj{"model": "nope", "keys": []string{"a"}}).Err(t, 400, 201)
		if len(md()) != 0 {
			t.Fatalf("refused calls wrote metadata: %v", md())
		}
		// Below 2.13 the operations do not exist.
		e.Call(t, "v2.12/models.add_or_update_metadata", obj{"model": id, "metadata": []obj{{"key": "k", "type": "t", "value": "v"}}}).Err(t, 404, 0)
	})
}

func TestArchiveTagsMove(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		a := mkModel(t, e, "model a", obj{"tags": []string{"keep", "drop"}})
		b := mkModel(t, e, "model b", nil)
		// archive_many / unarchive_many.
		r := e.Call(t, "models.archive_many", obj{"ids": []string{a, "nope", b}}).OK(t)
		if len(r.List("succeeded")) != 2 || r.Str("failed.0.id") != "nope" || testenv.Get(r.Data, "failed.0.error.codes.1") != 201.0 ||
			testenv.Get(r.Data, "succeeded.0.archived") != true {
			t.Fatalf("archive_many: %s", r.Raw)
		}
		if st := getModel(t, e, a)["system_tags"].([]any); len(st) != 1 || st[0] != "archived" {
			t.Fatalf("archived tag: %v", st)
		}
		e.Call(t, "models.archive_many", obj{"ids": []string{a}}).OK(t)
		if st := getModel(t, e, a)["system_tags"].([]any); len(st) != 1 {
			t.Fatalf("archive twice adds the tag once: %v", st)
		}
		r = e.Call(t, "models.unarchive_many", obj{"ids": []string{a}}).OK(t)
		if testenv.Get(r.Data, "succeeded.0.unarchived") != true || len(getModel(t, e, a)["system_tags"].([]any)) != 0 {
			t.Fatalf("unarchive_many: %s", r.Raw)
		}
		e.Call(t, "models.archive_many", obj{"ids": []string{}}).Err(t, 400, 12)
		e.Call(t, "models.archive_many", obj{}).Err(t, 400, 12)

		// update_tags.
		r = e.Call(t, "models.update_tags", obj{"ids": []string{a, b}, "add_tags": []string{"new"}, "remove_tags": []string{"drop"}}).OK(t)
		if r.Num("updated") != 4 {
			t.Fatalf("update_tags counts each model per list: %s", r.Raw)
		}
		if tags := getModel(t, e, a)["tags"].([]any); len(tags) != 2 || tags[0] != "keep" || tags[1] != "new" {
			t.Fatalf("tags: %v", tags)
		}
		e.Call(t, "models.update_tags", obj{"ids": []string{a}}).Err(t, 400, 12)
		e.Call(t, "models.update_tags", obj{"add_tags": []string{"x"}}).Err(t, 400, 12)
		e.Call(t, "models.update_tags", obj{"ids": []string{a, "nope"}, "add_tags": []string{"x"}}).Err(t, 400, 201)
		e.Call(t, "models.update_tags", obj{"ids": []string{a}, "add_tags": []string{"__$x"}}).Err(t, 400, 16)
		if tags := getModel(t, e, a)["tags"].([]any); len(tags) != 2 {
			t.Fatalf("refused update_tags wrote: %v", tags)
		}
		e.Call(t, "v2.23/models.update_tags", obj{"ids": []string{a}, "add_tags": []string{"x"}}).Err(t, 404, 0)

		// move: by id, by name (created), to the root.
		pid := mkProject(t, e, "move/here")
		r = e.Call(t, "models.move", obj{"ids": []string{a, b}, "project": pid}).OK(t)
		if r.Str("project_id") != pid || getModel(t, e, a)["project"] != pid || getModel(t, e, b)["project"] != pid {
			t.Fatalf("move by id: %s", r.Raw)
		}
		r = e.Call(t, "models.move", obj{"ids": []string{a}, "project_name": "move/new/deep"}).OK(t)
		created := r.Str("project_id")
		if p := e.Call(t, "projects.get_by_id", obj{"project": created}).OK(t); p.Str("project.name") != "move/new/deep" || getModel(t, e, a)["project"] != created {
			t.Fatalf("move by name: %s", p.Raw)
		}
		r = e.Call(t, "models.move", obj{"ids": []string{a}, "project": nil}).OK(t)
		if _, ok := getModel(t, e, a)["project"]; ok || r.Data["project_id"] != nil {
			t.Fatalf("move to root: %s", r.Raw)
		}
		e.Call(t, "models.move", obj{"ids": []string{a}}).Err(t, 400, 11)
		e.Call(t, "models.move", obj{"ids": []string{a}, "project": "nope"}).Err(t, 400, 401)
		e.Call(t, "models.move", obj{"ids": []string{a, "nope"}, "project": pid}).Err(t, 400, 201)
		e.Call(t, "models.move", obj{"ids": []string{}, "project": pid}).Err(t, 400, 12)
		// A project that is neither a string nor null is refused naming the field.
		for _, bad := range []any{5, obj{"id": pid}, []string{pid}} {
			if msg := e.Call(t, "models.move", obj{"ids": []string{a}, "project": bad}).Err(t, 400, 12).Msg(); !strings.Contains(msg, "'project'") {
				t.Errorf("project %v: message %q does not name the field", bad, msg)
			}
		}
		if _, ok := getModel(t, e, a)["project"]; ok {
			t.Fatal("a refused move moved the model")
		}
	})
}
