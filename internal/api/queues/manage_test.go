package queues_test

import (
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/testenv"
)

// otherUser belongs to a second company, for isolation checks.
var otherUser = auth.FixedUser{ID: "other-user", Name: "other", AccessKey: "OTHERKEY000000000000",
	SecretKey: "other-secret-000000000000000000", Role: "user", Company: "other-company"}

func TestDefaultQueue(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		def := e.Call(t, "queues.get_default", nil).OK(t)
		if def.Str("name") != "default" || def.Str("id") == "" {
			t.Fatalf("a fresh server has a default queue: %s", def.Raw)
		}
		q := e.Call(t, "queues.get_by_id", map[string]any{"queue": def.Str("id")}).OK(t)
		if tags := q.List("queue.system_tags"); len(tags) != 1 || tags[0] != "default" {
			t.Fatalf("default queue tags: %s", q.Raw)
		}
		// The other company got its own default queue at start-up.
		other := e.Login(t, otherUser.AccessKey, otherUser.SecretKey)
		od := e.CallAs(t, other, "queues.get_default", nil).OK(t)
		if od.Str("id") == def.Str("id") || od.Str("name") != "default" {
			t.Fatalf("other company default: %s", od.Raw)
		}
		second := newQueue(t, e, "second", map[string]any{"system_tags": []string{"default"}})
		e.Call(t, "queues.get_default", nil).Err(t, 400, 708)
		e.Call(t, "queues.update", map[string]any{"queue": second, "system_tags": []string{}}).OK(t)
		e.Call(t, "queues.update", map[string]any{"queue": def.Str("id"), "system_tags": []string{}}).OK(t)
		e.Call(t, "queues.get_default", nil).Err(t, 400, 707)
	}, testenv.WithUsers(otherUser))
}

func TestCreateUpdate(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		id := newQueue(t, e, "  gpu queue  ", map[string]any{"tags": []string{"b", "a"}, "system_tags": []string{"x"},
			"display_name": "GPUs", "metadata": []map[string]any{{"key": "k", "type": "str", "value": "v"}}})
		q := e.Call(t, "queues.get_by_id", map[string]any{"queue": id}).OK(t)
		if q.Str("queue.name") != "gpu queue" || q.Str("queue.display_name") != "GPUs" || q.Str("queue.company") == "" ||
			q.Str("queue.created") == "" || q.Str("queue.last_update") == "" {
			t.Fatalf("bad queue %s", q.Raw)
		}
		if tags := q.List("queue.tags"); len(tags) != 2 || tags[0] != "a" {
			t.Fatalf("tags not sorted: %s", q.Raw)
		}
		if q.Str("queue.metadata.k.value") != "v" || len(q.List("queue.entries")) != 0 || q.Data["queue"].(map[string]any)["entries"] == nil {
			t.Fatalf("metadata map and empty entries list expected: %s", q.Raw)
		}
		newQueue(t, e, "taken")
		cases := []struct {
			name    string
			op      string
			body    any
			code    int
			subcode int
			check   func(t *testing.T, r *testenv.Response)
		}{
			{name: "short name", op: "queues.create", body: map[string]any{"name": " ab "}, code: 400, subcode: 800},
			{name: "duplicate name", op: "queues.create", body: map[string]any{"name": "taken"}, code: 400, subcode: 801},
			{name: "missing name", op: "queues.create", body: map[string]any{}, code: 400, subcode: 12},
			{name: "name wrong type", op: "queues.create", body: map[string]any{"name": 3}, code: 400, subcode: 12},
			{name: "operator tag", op: "queues.create", body: map[string]any{"name": "ops", "tags": []string{"__$not"}}, code: 400, subcode: 16},
			{name: "metadata not a list", op: "queues.create", body: map[string]any{"name": "meta", "metadata": "x"}, code: 400, subcode: 12},
			{name: "metadata without type", op: "queues.create", body: map[string]any{"name": "meta", "metadata": []map[string]any{{"key": "k", "value": "v"}}}, code: 400, subcode: 12},
			{name: "malformed body", op: "queues.create", body: `{"name": `, code: 400, subcode: 0},
			{name: "metadata as a map", op: "queues.create", body: map[string]any{"name": "meta-map", "metadata": map[string]any{"a": map[string]any{"type": "int", "value": "1"}}}, code: 200},
			{name: "rename", op: "queues.update", body: map[string]any{"queue": id, "name": "renamed", "tags": []string{"z"}}, code: 200,
				check: func(t *testing.T, r *testenv.Response) {
					f, _ := r.Data["fields"].(map[string]any)
					if r.Num("updated") != 1 || f["name"] != "renamed" || f["last_update"] == nil {
						t.Fatalf("update answer %s", r.Raw)
					}
				}},
			{name: "rename to taken", op: "queues.update", body: map[string]any{"queue": id, "name": "taken"}, code: 400, subcode: 801},
			{name: "rename too short", op: "queues.update", body: map[string]any{"queue": id, "name": "x"}, code: 400, subcode: 800},
			{name: "update unknown", op: "queues.update", body: map[string]any{"queue": "nope", "name": "whatever"}, code: 400, subcode: 701},
			{name: "update without queue", op: "queues.update", body: map[string]any{"name": "whatever"}, code: 400, subcode: 12},
			{name: "update nothing", op: "queues.update", body: map[string]any{"queue": id}, code: 200,
				check: func(t *testing.T, r *testenv.Response) {
					if r.Num("updated") != 0 {
						t.Fatalf("nothing to update: %s", r.Raw)
					}
				}},
			{name: "get by name is a JSON 400", op: "queues.get_by_id", body: map[string]any{"queue": "taken"}, code: 400, subcode: 701},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				r := e.Call(t, tc.op, tc.body)
				if tc.code == 200 {
					r.OK(t)
				} else {
					r.Err(t, tc.code, tc.subcode)
				}
				if tc.check != nil {
					tc.check(t, r)
				}
			})
		}
		q = e.Call(t, "queues.get_by_id", map[string]any{"queue": id}).OK(t)
		if q.Str("queue.name") != "renamed" || q.Str("queue.metadata.k.key") != "k" {
			t.Fatalf("after update: %s", q.Raw)
		}
		// Queues are private to their company.
		other := e.Login(t, otherUser.AccessKey, otherUser.SecretKey)
		e.CallAs(t, other, "queues.get_by_id", map[string]any{"queue": id}).Err(t, 400, 701)
		e.CallAs(t, other, "queues.update", map[string]any{"queue": id, "name": "stolen"}).Err(t, 400, 701)
		if r := e.CallAs(t, other, "queues.create", map[string]any{"name": "taken"}).OK(t); r.Str("id") == "" {
			t.Fatalf("names are unique per company only: %s", r.Raw)
		}
	}, testenv.WithUsers(otherUser))
}

func TestDelete(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		empty := newQueue(t, e, "empty")
		if r := e.Call(t, "queues.delete", map[string]any{"queue": empty}).OK(t); r.Num("deleted") != 1 {
			t.Fatalf("delete: %s", r.Raw)
		}
		e.Call(t, "queues.get_by_id", map[string]any{"queue": empty}).Err(t, 400, 701)
		e.Call(t, "queues.delete", map[string]any{"queue": empty}).Err(t, 400, 701)

		busy := newQueue(t, e, "busy")
		queued := newTask(t, e, "queued")
		e.Call(t, "tasks.enqueue", map[string]any{"task": queued, "queue": busy}).OK(t)
		added := newTask(t, e, "added")
		e.Call(t, "queues.add_task", map[string]any{"queue": busy, "task": added}).OK(t)
		r := e.Call(t, "queues.delete", map[string]any{"queue": busy}).Err(t, 400, 702)
		if !strings.Contains(r.Msg(), "num_entries=2") {
			t.Fatalf("message names the entries: %s", r.Msg())
		}
		if got := entryTasks(t, e, busy); len(got) != 2 {
			t.Fatalf("refused delete changed entries: %v", got)
		}
		e.Call(t, "queues.delete", map[string]any{"queue": busy, "force": true}).OK(t)
		task := e.Call(t, "tasks.get_by_id", map[string]any{"task": queued}).OK(t)
		if task.Str("task.status") != "created" || task.Str("task.execution.queue") != "" ||
			!strings.Contains(task.Str("task.status_reason"), "was deleted") {
			t.Fatalf("a task of a deleted queue goes back to created: %s", task.Raw)
		}
		if r := e.Call(t, "queues.get_all", map[string]any{"id": []string{busy}}).OK(t); len(r.List("queues")) != 0 {
			t.Fatalf("deleted queue listed: %s", r.Raw)
		}
	})
}
