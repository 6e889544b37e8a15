package tasks_test

import (
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// TestBadInput covers refused requests: each names what is wrong and
// writes nothing.
func TestBadInput(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		id := mkTask(t, e, "good task", nil)
		cases := []struct {
			name, op string
			body     any
			code     int
			subcode  int
			mention  string
		}{
			{"create without name", "tasks.create", obj{"type": "training"}, 400, 12, "name"},
			{"create without type", "tasks.create", obj{"name": "abc"}, 400, 12, "type"},
			{"create with bad type", "tasks.create", obj{"name": "abc", "type": "nonsense"}, 400, 12, "type"},
			{"create with short name", "tasks.create", obj{"name": "ab", "type": "training"}, 400, 800, "name"},
			{"create with name of wrong type", "tasks.create", obj{"name": 5, "type": "training"}, 400, 12, "name"},
			{"create with unknown project", "tasks.create", obj{"name": "abc", "type": "training", "project": "nope"}, 400, 401, "nope"},
			{"create with unknown parent", "tasks.create", obj{"name": "abc", "type": "training", "parent": "nope"}, 400, 101, "parent"},
			{"create with unknown input model", "tasks.create", obj{"name": "abc", "type": "training", "models": obj{"input": []obj{{"name": "m", "model": "nope"}}}}, 400, 201, "nope"},
			{"create with operator tag", "tasks.create", obj{"name": "abc", "type": "training", "tags": []string{"__$all"}}, 400, 16, "tags"},
			{"create with empty section", "tasks.create", obj{"name": "abc", "type": "training", "hyperparams": obj{"": obj{}}}, 400, 12, "hyperparams"},
			{"create with artifact without key", "tasks.create", obj{"name": "abc", "type": "training", "execution": obj{"artifacts": []obj{{"type": "x"}}}}, 400, 12, "key"},
			{"create with bad artifact mode", "tasks.create", obj{"name": "abc", "type": "training", "execution": obj{"artifacts": []obj{{"key": "k", "type": "x", "mode": "sideways"}}}}, 400, 12, "mode"},
			{"malformed json", "tasks.create", `{"name": `, 400, 0, ""},
			{"get unknown task", "tasks.get_by_id", obj{"task": "nope"}, 400, 101, "nope"},
			{"get without task", "tasks.get_by_id", obj{}, 400, 12, "task"},
			{"get_by_id_ex without id", "tasks.get_by_id_ex", obj{}, 400, 11, "id"},
			{"started on unknown task", "tasks.started", obj{"task": "nope"}, 400, 101, "nope"},
			{"dequeue with bad new_status", "tasks.dequeue", obj{"task": id, "new_status": "sleeping"}, 400, 12, "new_status"},
			{"edit with bad status", "tasks.edit", obj{"task": id, "status": "sleeping"}, 400, 12, "status"},
			{"bad order field", "tasks.get_all", obj{"order_by": []string{"nothing"}}, 400, 14, "nothing"},
			{"bad regex", "tasks.get_all", obj{"name": "a("}, 400, 21, "name"},
			{"bad list operator", "tasks.get_all", obj{"tags": []string{"__$xor", "a"}}, 400, 16, "__$xor"},
			{"unknown status filter", "tasks.get_all", obj{"status": []string{"sleeping"}}, 400, 12, "status"},
			{"range not a pair", "tasks.get_all", obj{"last_iteration": []int{1}}, 400, 12, "last_iteration"},
			{"edit hyper params without value", "tasks.edit_hyper_params", obj{"task": id, "hyperparams": []obj{{"section": "s", "name": "n"}}}, 400, 12, "value"},
			{"edit hyper params with bad mode", "tasks.edit_hyper_params", obj{"task": id, "hyperparams": []obj{{"section": "s", "name": "n", "value": "1"}}, "replace_hyperparams": "some"}, 400, 12, "replace_hyperparams"},
			{"delete section and parameter together", "tasks.delete_hyper_params", obj{"task": id, "hyperparams": []obj{{"section": "s"}, {"section": "s", "name": "n"}}}, 400, 15, "section"},
			{"delete hyper params without section", "tasks.delete_hyper_params", obj{"task": id, "hyperparams": []obj{{"name": "n"}}}, 400, 12, "section"},
			{"edit configuration without name", "tasks.edit_configuration", obj{"task": id, "configuration": []obj{{"value": "v"}}}, 400, 12, "name"},
			{"add model with bad type", "tasks.add_or_update_model", obj{"task": id, "model": "m", "name": "n", "type": "sideways"}, 400, 12, "type"},
			{"set requirements without requirements", "tasks.set_requirements", obj{"task": id}, 400, 12, "requirements"},
			{"move without target", "tasks.move", obj{"ids": []string{id}}, 400, 11, "project"},
			{"move to unknown project", "tasks.move", obj{"ids": []string{id}, "project": "nope"}, 400, 401, "nope"},
			{"move unknown task", "tasks.move", obj{"ids": []string{"nope"}, "project": nil}, 400, 101, "nope"},
			{"archive unknown task", "tasks.archive", obj{"tasks": []string{id, "nope"}}, 400, 101, "nope"},
			{"batch without ids", "tasks.stop_many", obj{"ids": []string{}}, 400, 12, "ids"},
			{"enqueue with queue and name", "tasks.enqueue", obj{"task": id, "queue": "q", "queue_name": "n"}, 400, 12, "queue"},
			{"enqueue into unknown queue", "tasks.enqueue", obj{"task": mkTask(t, e, "script task", obj{"script": obj{"entry_point": "a.py", "repository": "git@x"}}), "queue": "nope"}, 400, 701, "nope"},
			{"enqueue without script", "tasks.enqueue", obj{"task": id, "queue": mkQueue(t, e, "bad input queue")}, 400, 122, "entry point"},
			{"clone unknown task", "tasks.clone", obj{"task": "nope"}, 400, 101, "nope"},
			{"clone with unknown parent", "tasks.clone", obj{"task": id, "new_task_parent": "nope"}, 400, 101, "parent"},
			{"hyperparam values without name", "projects.get_hyperparam_values", obj{"section": "s"}, 400, 12, "name"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				r := e.Call(t, c.op, c.body).Err(t, c.code, c.subcode)
				if c.mention != "" && !strings.Contains(r.Msg(), c.mention) {
					t.Fatalf("message %q does not name %q", r.Msg(), c.mention)
				}
			})
		}
		if got := getTask(t, e, id); got["status"] != "created" || len(got["hyperparams"].(map[string]any)) != 0 {
			t.Fatalf("refused calls changed the task: %v", got)
		}
	})
}

// TestUpdateBatch covers tasks.update_batch with JSON lines.
func TestUpdateBatch(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		a, b := mkTask(t, e, "batch a", nil), mkTask(t, e, "batch b", nil)
		send := func(body string) *testenv.Response {
			return e.Do(t, "tasks.update_batch", body, jsonLines(e.Token))
		}
		r := send(`{"task": "` + a + `", "name": "batch a2", "comment": "c"}` + "\n" + `{"task": "` + b + `", "tags": ["x"]}` + "\n")
		if r.OK(t).Num("updated") != 2 {
			t.Fatalf("updated: %s", r.Raw)
		}
		if getTask(t, e, a)["name"] != "batch a2" || mustJSON(getTask(t, e, b)["tags"]) != `["x"]` {
			t.Fatal("batch not applied")
		}
		send(`{"task": "`+a+`", "name": "zzz"}`+"\n"+`{"task": "nope", "name": "yyy"}`).Err(t, 400, 101)
		if getTask(t, e, a)["name"] != "batch a2" {
			t.Fatal("failed batch was half-written")
		}
		send(`{"task": "`+a+`"`+"\n").Err(t, 400, 0)
		send(``).Err(t, 400, 17)
		send(`{"task": "`+a+`", "name": 5}`).Err(t, 400, 12)
	})
}
