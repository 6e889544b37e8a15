package tasks_test

import (
	"context"
	"testing"
	"time"

	idgen "github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
	taskdom "github.com/trove-ml/trove/internal/tasks"
	"github.com/trove-ml/trove/internal/testenv"
)

// mkModel stores a model of the admin's company linked to a task.
func mkModel(t *testing.T, e *testenv.Env, company, task, uri string, ready bool) string {
	t.Helper()
	now := jsonx.Now()
	m := &store.Model{ID: idgen.New(), Company: company, Name: "model " + uri, Created: now, LastUpdate: now, LastChange: now,
		Tags: []string{}, SystemTags: []string{}, URI: uri, Design: map[string]any{}, Labels: map[string]int64{}, Ready: ready,
		Metadata: map[string]*store.MetadataItem{}, LastMetrics: map[string]map[string]*store.MetricSummary{}, Task: task}
	if err := e.App.DB.Models().Insert(context.Background(), e.App.DB.Write(), m); err != nil {
		t.Fatal(err)
	}
	return m.ID
}

func modelReady(t *testing.T, e *testenv.Env, id string) (bool, bool) {
	t.Helper()
	m, err := e.App.DB.Models().Get(context.Background(), e.App.DB.Read(), id)
	if err != nil {
		return false, false
	}
	return m.Ready, true
}

// patchTask rewrites a stored task (for states only workers reach).
func patchTask(t *testing.T, e *testenv.Env, id string, fn func(*store.Task)) {
	t.Helper()
	ctx := context.Background()
	err := e.App.DB.Tx(ctx, func(q store.Querier) error {
		tk, err := e.App.DB.Tasks().Get(ctx, q, id)
		if err != nil {
			return err
		}
		fn(tk)
		return e.App.DB.Tasks().Update(ctx, q, tk)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestEditAndUpdate(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		p := mkProject(t, e, "edit project")
		id := mkTask(t, e, "edit task", obj{"script": obj{"repository": " git@repo ", "entry_point": "a.py"},
			"execution": obj{"parameters": obj{"lr": 0.5, "TF_DEFINE/x": "y"}, "model_labels": obj{"cat": 1}}})
		task := getTask(t, e, id)
		if testenv.Get(task, "hyperparams.Args.lr.value") != "0.5" || testenv.Get(task, "hyperparams.TF_DEFINE.x.type") != "legacy" {
			t.Fatalf("legacy parameters not converted: %v", task["hyperparams"])
		}
		if testenv.Get(task, "script.repository") != "git@repo" {
			t.Fatalf("script strings not stripped: %v", task["script"])
		}
		r := e.Call(t, "tasks.edit", obj{"task": id, "script": obj{"branch": "main"}, "execution": obj{"framework": "pytorch"},
			"output_dest": "s3://bucket", "runtime": obj{"progress": "1"}}).OK(t)
		if r.Num("updated") != 1 || r.Str("fields.last_update") == "" {
			t.Fatalf("edit answer %s", r.Raw)
		}
		task = getTask(t, e, id)
		if testenv.Get(task, "script.entry_point") != "a.py" || testenv.Get(task, "script.branch") != "main" ||
			testenv.Get(task, "execution.model_labels.cat") != 1.0 || testenv.Get(task, "output.destination") != "s3://bucket" {
			t.Fatalf("edit did not merge one level deep: %v", task)
		}
		r = e.Call(t, "tasks.edit", obj{"task": id, "name": "renamed task"}).OK(t)
		if r.Str("fields.last_update") != "" {
			t.Fatalf("a name-only edit must not bump last_update: %s", r.Raw)
		}
		e.Call(t, "tasks.started", obj{"task": id}).OK(t)
		e.Call(t, "tasks.edit", obj{"task": id, "comment": "x"}).Err(t, 400, 110)
		e.Call(t, "tasks.edit", obj{"task": id, "comment": "x", "force": true}).OK(t)

		r = e.Call(t, "tasks.update", obj{"task": id, "name": "updated name", "project": p, "output__error": "boom", "status_message": "m", "created": "2020-01-01"}).OK(t)
		if field(r, "output.error") != "boom" || r.Str("fields.project") != p || field(r, "created") != "2020-01-01T00:00:00+00:00" {
			t.Fatalf("update answer %s", r.Raw)
		}
		task = getTask(t, e, id)
		if task["name"] != "updated name" || task["project"] != p || task["created"] != "2020-01-01T00:00:00+00:00" || testenv.Get(task, "output.error") != "boom" || task["status_message"] != "m" {
			t.Fatalf("update not written: %v", task)
		}
		if e.Call(t, "tasks.update", obj{"task": id}).OK(t).Num("updated") != 0 {
			t.Fatal("empty update must answer updated 0")
		}
		r = e.Call(t, "tasks.set_requirements", obj{"task": id, "requirements": obj{"pip": []string{"numpy==1"}}}).OK(t)
		if testenv.Get(getTask(t, e, id), "script.requirements.pip.0") != "numpy==1" || r.Data["fields"].(map[string]any)["script.requirements"] == nil {
			t.Fatalf("requirements: %s", r.Raw)
		}
		before := getTask(t, e, id)["last_update"]
		e.Clock.Advance(time.Second)
		e.Call(t, "tasks.ping", obj{"task": id}).OK(t)
		after := getTask(t, e, id)
		if after["last_update"] == before || after["active_duration"] == nil {
			t.Fatalf("ping did not refresh: %v", after)
		}
	})
}

func TestHyperParamsAndConfiguration(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		id := mkTask(t, e, "params task", obj{"hyperparams": obj{"A": obj{"x": obj{"value": "1"}}, "B": obj{"y": obj{"value": "2"}}}})
		item := func(sec, name, v string) obj { return obj{"section": sec, "name": name, "value": v} }
		e.Call(t, "tasks.edit_hyper_params", obj{"task": id, "hyperparams": []obj{item("A", "z", "3")}}).OK(t)
		hp := getTask(t, e, id)["hyperparams"].(map[string]any)
		if len(hp["A"].(map[string]any)) != 2 || hp["B"] == nil {
			t.Fatalf("none mode: %v", hp)
		}
		e.Call(t, "tasks.edit_hyper_params", obj{"task": id, "hyperparams": []obj{item("A", "w", "4")}, "replace_hyperparams": "section"}).OK(t)
		hp = getTask(t, e, id)["hyperparams"].(map[string]any)
		if mustJSON(keys(hp["A"])) != `["w"]` || hp["B"] == nil {
			t.Fatalf("section mode: %v", hp)
		}
		e.Call(t, "tasks.edit_hyper_params", obj{"task": id, "hyperparams": []obj{item("C", "v", "5")}, "replace_hyperparams": "all"}).OK(t)
		hp = getTask(t, e, id)["hyperparams"].(map[string]any)
		if mustJSON(keys(hp)) != `["C"]` {
			t.Fatalf("all mode: %v", hp)
		}
		e.Call(t, "tasks.edit_hyper_params", obj{"task": id, "hyperparams": []obj{item("C", "u", "6"), item("D", "t", "7")}}).OK(t)
		r := e.Call(t, "tasks.get_hyper_params", obj{"tasks": []string{id}}).OK(t)
		got := []string{}
		for _, it := range r.List("params.0.hyperparams") {
			m := it.(map[string]any)
			got = append(got, m["section"].(string)+"."+m["name"].(string))
		}
		if mustJSON(got) != `["C.u","C.v","D.t"]` {
			t.Fatalf("get_hyper_params order: %v", got)
		}
		e.Call(t, "tasks.delete_hyper_params", obj{"task": id, "hyperparams": []obj{{"section": "C", "name": "u"}, {"section": "D"}}}).OK(t)
		if mustJSON(keys(getTask(t, e, id)["hyperparams"])) != `["C"]` {
			t.Fatal("delete_hyper_params")
		}
		e.Call(t, "tasks.get_hyper_params", obj{"tasks": []string{id, "nope"}}).Err(t, 400, 101)

		e.Call(t, "tasks.edit_configuration", obj{"task": id, "configuration": []obj{{"name": "b", "value": "2"}, {"name": "a", "value": ""}}}).OK(t)
		r = e.Call(t, "tasks.get_configurations", obj{"tasks": []string{id}}).OK(t)
		if mustJSON(testenv.Get(r.Data, "configurations.0.configuration.0.name")) != `"a"` {
			t.Fatalf("configurations: %s", r.Raw)
		}
		r = e.Call(t, "tasks.get_configurations", obj{"tasks": []string{id}, "names": []string{"b"}}).OK(t)
		if len(r.List("configurations.0.configuration")) != 1 {
			t.Fatalf("names filter: %s", r.Raw)
		}
		r = e.Call(t, "tasks.get_configuration_names", obj{"tasks": []string{id, "nope"}}).OK(t)
		if mustJSON(r.List("configurations")) != mustJSON([]obj{{"task": id, "names": []string{"b"}}}) {
			t.Fatalf("configuration names: %s", r.Raw)
		}
		r = e.Call(t, "tasks.get_configuration_names", obj{"tasks": []string{id}, "skip_empty": false}).OK(t)
		if len(r.List("configurations.0.names")) != 2 {
			t.Fatalf("skip_empty false: %s", r.Raw)
		}
		e.Call(t, "tasks.delete_configuration", obj{"task": id, "configuration": []string{"a"}}).OK(t)
		e.Call(t, "tasks.edit_configuration", obj{"task": id, "configuration": []obj{{"name": "c", "value": "3"}}, "replace_configuration": true}).OK(t)
		if mustJSON(keys(getTask(t, e, id)["configuration"])) != `["c"]` {
			t.Fatal("replace_configuration")
		}

		// Status locks: in progress needs force; the properties section never does.
		e.Call(t, "tasks.started", obj{"task": id}).OK(t)
		e.Call(t, "tasks.edit_hyper_params", obj{"task": id, "hyperparams": []obj{item("C", "v", "9")}}).Err(t, 400, 110)
		e.Call(t, "tasks.edit_hyper_params", obj{"task": id, "hyperparams": []obj{item("C", "v", "9")}, "force": true}).OK(t)
		e.Call(t, "tasks.edit_configuration", obj{"task": id, "configuration": []obj{{"name": "c", "value": "4"}}}).Err(t, 400, 110)
		e.Call(t, "tasks.completed", obj{"task": id}).OK(t)
		e.Call(t, "tasks.edit_hyper_params", obj{"task": id, "hyperparams": []obj{item("C", "v", "9")}, "force": true}).Err(t, 400, 110)
		before := getTask(t, e, id)["last_update"]
		e.Call(t, "tasks.edit_hyper_params", obj{"task": id, "hyperparams": []obj{item("Properties", "owner", "me")}}).OK(t)
		after := getTask(t, e, id)
		if testenv.Get(after, "hyperparams.properties.owner.value") != "me" || after["last_update"] != before {
			t.Fatalf("properties edit: %v", after["hyperparams"])
		}
	})
}

func keys(v any) []string {
	out := []string{}
	m, _ := v.(map[string]any)
	for k := range m {
		out = append(out, k)
	}
	sortStrings(out)
	return out
}

func TestArtifactsAndModels(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		id := mkTask(t, e, "artifacts task", nil)
		art := func(key, mode, uri string) obj {
			return obj{"key": key, "type": "custom", "mode": mode, "uri": uri, "timestamp": 1700000000}
		}
		r := e.Call(t, "tasks.add_or_update_artifacts", obj{"task": id, "artifacts": []obj{art("b", "output", "u1"), art("a", "input", "u2")}}).OK(t)
		if r.Num("updated") != 1 {
			t.Fatalf("updated: %s", r.Raw)
		}
		e.Call(t, "tasks.add_or_update_artifacts", obj{"task": id, "artifacts": []obj{art("b", "output", "u3"), art("b", "input", "u4")}}).OK(t)
		arts := getTask(t, e, id)["execution"].(map[string]any)["artifacts"].([]any)
		got := []string{}
		for _, a := range arts {
			m := a.(map[string]any)
			got = append(got, m["key"].(string)+"/"+m["mode"].(string)+"/"+m["uri"].(string))
		}
		if mustJSON(got) != `["a/input/u2","b/input/u4","b/output/u3"]` {
			t.Fatalf("artifacts: %v", got)
		}
		// display_data is a list even when none was sent (the web app walks it).
		for _, a := range arts {
			if dd, ok := a.(map[string]any)["display_data"].([]any); !ok || len(dd) != 0 {
				t.Fatalf("display_data of an artifact sent without it: %v", a)
			}
		}
		e.Call(t, "tasks.delete_artifacts", obj{"task": id, "artifacts": []obj{{"key": "b"}}}).OK(t)
		if n := len(getTask(t, e, id)["execution"].(map[string]any)["artifacts"].([]any)); n != 2 {
			t.Fatalf("delete_artifacts left %d", n)
		}
		e.Call(t, "tasks.add_or_update_artifacts", obj{"task": id, "artifacts": []obj{{"key": "d", "type": "custom", "uri": "u5",
			"display_data": [][]any{{"rows", 3}}}}}).OK(t)
		for _, op := range []string{"tasks.get_all_ex", "tasks.get_all", "tasks.get_by_id_ex"} {
			r = e.Call(t, op, obj{"id": []string{id}, "only_fields": []string{"execution.artifacts"}}).OK(t)
			dd := map[string]string{}
			for _, a := range r.List("tasks.0.execution.artifacts") {
				m := a.(map[string]any)
				dd[m["key"].(string)+"/"+m["mode"].(string)] = mustJSON(m["display_data"])
			}
			if mustJSON(dd) != `{"a/input":"[]","b/input":"[]","d/output":"[[\"rows\",3]]"}` {
				t.Fatalf("%s display_data: %v %s", op, dd, r.Raw)
			}
		}
		e.Call(t, "tasks.delete_artifacts", obj{"task": id, "artifacts": []obj{{"key": "d"}}}).OK(t)

		e.Call(t, "tasks.add_or_update_model", obj{"task": id, "name": "m1", "model": "x1", "type": "output", "iteration": 7}).OK(t)
		e.Call(t, "tasks.add_or_update_model", obj{"task": id, "name": "m1", "model": "x2", "type": "output"}).OK(t)
		e.Call(t, "tasks.add_or_update_model", obj{"task": id, "name": "in", "model": "x3", "type": "input"}).OK(t)
		task := getTask(t, e, id)
		if testenv.Get(task, "models.output.0.model") != "x2" || len(task["models"].(map[string]any)["output"].([]any)) != 1 ||
			task["last_iteration"] != 7.0 || testenv.Get(task, "models.output.0.updated") == nil {
			t.Fatalf("models: %v", task["models"])
		}
		e.Call(t, "tasks.delete_models", obj{"task": id, "models": []obj{{"name": "m1", "type": "output"}, {"name": "zz", "type": "input"}}}).OK(t)
		task = getTask(t, e, id)
		if len(task["models"].(map[string]any)["output"].([]any)) != 0 || len(task["models"].(map[string]any)["input"].([]any)) != 1 {
			t.Fatalf("delete_models: %v", task["models"])
		}
		e.Call(t, "tasks.completed", obj{"task": id, "force": true}).OK(t)
		e.Call(t, "tasks.add_or_update_artifacts", obj{"task": id, "artifacts": []obj{art("c", "output", "u")}}).Err(t, 400, 110)
	})
}

func TestCloneAndMove(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		p := mkProject(t, e, "clone project")
		src := mkTask(t, e, "clone source", obj{"project": p, "tags": []string{"t"}, "system_tags": []string{"development", "keep"},
			"comment": "c", "hyperparams": obj{"A": obj{"x": obj{"value": "1"}}}, "container": obj{"image": "img"},
			"execution": obj{"queue": "q", "artifacts": []obj{{"key": "in", "type": "x", "mode": "input"}, {"key": "out", "type": "x"}}}})
		e.Call(t, "tasks.started", obj{"task": src}).OK(t)
		r := e.Call(t, "tasks.clone", obj{"task": src}).OK(t)
		c := getTask(t, e, r.Str("id"))
		if c["status"] != "created" || c["name"] != "clone source" || c["parent"] != src || c["project"] != p ||
			mustJSON(c["system_tags"]) != `[]` || c["started"] != nil || testenv.Get(c, "execution.queue") != nil ||
			len(testenv.Get(c, "execution.artifacts").([]any)) != 1 || testenv.Get(c, "hyperparams.A.x.value") != "1" ||
			testenv.Get(c, "container.image") != "img" || c["comment"] != "c" {
			t.Fatalf("clone: %v", c)
		}
		r = e.Call(t, "tasks.clone", obj{"task": src, "new_task_name": "clone two", "new_task_tags": []string{"n"}, "new_task_system_tags": []string{"s"},
			"new_project_name": "clone target/deep", "new_task_hyperparams": obj{"B": obj{"y": obj{"value": "2"}}},
			"new_task_container": obj{"image": "other"}, "execution_overrides": obj{"framework": "tf", "docker_cmd": "ignored img"},
			"new_task_configuration": obj{"cfg": obj{"value": "v"}}}).OK(t)
		if r.Str("new_project.name") != "clone target/deep" || r.Str("new_project.id") == "" {
			t.Fatalf("new project: %s", r.Raw)
		}
		c = getTask(t, e, r.Str("id"))
		if c["name"] != "clone two" || mustJSON(c["tags"]) != `["n"]` || mustJSON(c["system_tags"]) != `["s"]` || c["project"] != r.Str("new_project.id") ||
			testenv.Get(c, "hyperparams.A") != nil || testenv.Get(c, "container.image") != "other" || testenv.Get(c, "execution.framework") != "tf" ||
			testenv.Get(c, "configuration.cfg.value") != "v" {
			t.Fatalf("clone with overrides: %v", c)
		}
		e.Call(t, "tasks.clone", obj{"task": src, "new_task_input_models": []obj{{"name": "m", "model": "nope"}}}).Err(t, 400, 201)

		moved := mkTask(t, e, "moved task", nil)
		r = e.Call(t, "tasks.move", obj{"ids": []string{moved}, "project_name": "moved here"}).OK(t)
		if pid := r.Str("project_id"); pid == "" || getTask(t, e, moved)["project"] != pid {
			t.Fatalf("move by name: %s", r.Raw)
		}
		e.Call(t, "tasks.move", obj{"ids": []string{moved}, "project": p}).OK(t)
		if getTask(t, e, moved)["project"] != p {
			t.Fatal("move by id")
		}
		e.Call(t, "tasks.move", obj{"ids": []string{moved}, "project": nil}).OK(t)
		if getTask(t, e, moved)["project"] != nil {
			t.Fatal("move to no project")
		}
	})
}

func TestEnqueueAndDequeue(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		script := obj{"script": obj{"entry_point": "train.py", "diff": "print('hi')"}}
		a := mkTask(t, e, "queue a", obj{"system_tags": []string{"development"}, "script": obj{"entrypoint": "t.py", "repository": "git@x"}})
		q1, q2 := mkQueue(t, e, "tq one"), mkQueue(t, e, "tq two")
		r := e.Call(t, "tasks.enqueue", obj{"task": a, "queue": q1, "status_reason": "go"}).OK(t)
		if r.Num("queued") != 1 || field(r, "execution.queue") != q1 || r.Str("fields.status") != "queued" {
			t.Fatalf("enqueue answer %s", r.Raw)
		}
		task := getTask(t, e, a)
		if mustJSON(task["system_tags"]) != `[]` || task["status_reason"] != "go" || testenv.Get(task, "execution.queue") != q1 {
			t.Fatalf("enqueued task %v", task)
		}
		if mustJSON(queueEntries(t, e, q1)) != mustJSON([]string{a}) {
			t.Fatal("queue entry missing")
		}
		e.Call(t, "tasks.enqueue", obj{"task": a, "queue": q2}).Err(t, 400, 110)
		r = e.Call(t, "tasks.dequeue", obj{"task": a}).OK(t)
		if r.Num("dequeued") != 1 || status(t, e, a) != "created" || len(queueEntries(t, e, q1)) != 0 {
			t.Fatalf("dequeue %s", r.Raw)
		}
		if testenv.Get(getTask(t, e, a), "execution.queue") != q1 {
			t.Fatal("dequeue must keep execution.queue")
		}
		e.Call(t, "tasks.dequeue", obj{"task": a}).Err(t, 400, 110)

		// Default queue: none, then one, then two.
		b := mkTask(t, e, "queue b", script)
		for _, qid := range queuesTagged(t, e, "default") {
			untag(t, e, qid)
		}
		e.Call(t, "tasks.enqueue", obj{"task": b}).Err(t, 400, 707)
		def := mkQueue(t, e, "tq default", "default")
		e.Call(t, "tasks.enqueue", obj{"task": b}).OK(t)
		if mustJSON(queueEntries(t, e, def)) != mustJSON([]string{b}) {
			t.Fatal("default queue not used")
		}
		c := mkTask(t, e, "queue c", script)
		mkQueue(t, e, "tq default 2", "default")
		e.Call(t, "tasks.enqueue", obj{"task": c}).Err(t, 400, 708)
		r = e.Call(t, "tasks.enqueue", obj{"task": c, "queue_name": "tq by name"}).OK(t)
		if field(r, "execution.queue") == nil {
			t.Fatalf("queue by name: %s", r.Raw)
		}

		// _many: one failing id never fails the call.
		d := mkTask(t, e, "queue d", script)
		r = e.Call(t, "tasks.enqueue_many", obj{"ids": []string{d, "nope", c}, "queue": q2}).OK(t)
		if len(r.List("succeeded")) != 1 || len(r.List("failed")) != 2 || testenv.Get(r.Data, "succeeded.0.queued") != true {
			t.Fatalf("enqueue_many: %s", r.Raw)
		}
		if codes := mustJSON(testenv.Get(r.Data, "failed.0.error.codes")); codes != `[400,101]` {
			t.Fatalf("failure codes %s", codes)
		}
		r = e.Call(t, "tasks.dequeue_many", obj{"ids": []string{d, c}}).OK(t)
		if len(r.List("succeeded")) != 2 || testenv.Get(r.Data, "succeeded.0.dequeued") != true {
			t.Fatalf("dequeue_many: %s", r.Raw)
		}
		// Archive leaves the queue.
		e.Call(t, "tasks.enqueue", obj{"task": d, "queue": q2}).OK(t)
		e.Call(t, "tasks.archive", obj{"tasks": []string{d}}).OK(t)
		task = getTask(t, e, d)
		if task["status"] != "created" || mustJSON(task["system_tags"]) != `["archived"]` || len(queueEntries(t, e, q2)) != 0 {
			t.Fatalf("archive of a queued task: %v", task)
		}
		r = e.Call(t, "tasks.unarchive_many", obj{"ids": []string{d}}).OK(t)
		if testenv.Get(r.Data, "succeeded.0.unarchived") != true || mustJSON(getTask(t, e, d)["system_tags"]) != `[]` {
			t.Fatalf("unarchive: %s", r.Raw)
		}
	})
}

func queuesTagged(t *testing.T, e *testenv.Env, tag string) []string {
	t.Helper()
	list, err := e.App.DB.Queues().Select(context.Background(), e.App.DB.Read(), e.App.DB.D.ArrayHas("system_tags"), tag)
	if err != nil {
		t.Fatal(err)
	}
	out := []string{}
	for _, q := range list {
		out = append(out, q.ID)
	}
	return out
}

func untag(t *testing.T, e *testenv.Env, id string) {
	t.Helper()
	ctx := context.Background()
	q, err := e.App.DB.Queues().Get(ctx, e.App.DB.Read(), id)
	if err != nil {
		t.Fatal(err)
	}
	q.SystemTags = []string{}
	if err := e.App.DB.Queues().Update(ctx, e.App.DB.Write(), q); err != nil {
		t.Fatal(err)
	}
}

func TestStopWithLiveWorker(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		id := mkTask(t, e, "worker task", nil)
		e.Call(t, "tasks.started", obj{"task": id}).OK(t)
		patchTask(t, e, id, func(tk *store.Task) { tk.LastWorker, tk.LastUpdate = "w1", jsonx.Now() })
		r := e.Call(t, "tasks.stop", obj{"task": id, "status_reason": "abort"}).OK(t)
		task := getTask(t, e, id)
		if task["status"] != "in_progress" || task["status_message"] != "stopping" || task["status_reason"] != "abort" {
			t.Fatalf("live worker stop: %v %s", task, r.Raw)
		}
		e.Call(t, "tasks.stopped", obj{"task": id, "status_reason": "worker stopped"}).OK(t)
		if got := getTask(t, e, id); got["status"] != "stopped" || got["completed"] == nil {
			t.Fatalf("stopped: %v", got)
		}
		// Without a live worker the stop is immediate.
		idle := mkTask(t, e, "idle task", nil)
		e.Call(t, "tasks.started", obj{"task": idle}).OK(t)
		patchTask(t, e, idle, func(tk *store.Task) {
			tk.LastWorker, tk.LastUpdate = "w1", jsonx.Time{Time: time.Now().Add(-time.Hour).UTC()}
		})
		r = e.Call(t, "tasks.stop_many", obj{"ids": []string{idle, "nope"}}).OK(t)
		if got := getTask(t, e, idle); got["status"] != "stopped" || got["status_message"] != "Stopped by "+adminName(t, e) {
			t.Fatalf("idle stop: %v", got)
		}
		if len(r.List("failed")) != 1 {
			t.Fatalf("stop_many: %s", r.Raw)
		}
	})
}

func adminName(t *testing.T, e *testenv.Env) string {
	t.Helper()
	r := e.Call(t, "users.get_current_user", nil)
	if r.Status == 200 {
		if n := r.Str("user.name"); n != "" {
			return n
		}
	}
	id := mkTask(t, e, "name probe", nil)
	u, _ := getTask(t, e, id)["user"].(string)
	usr, err := e.App.DB.GetUser(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	return usr.Name
}

func TestResetDeleteAndPublish(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		company := companyOf(t, e)
		// Reset: run state cleared, draft output model deleted, URLs returned.
		id := mkTask(t, e, "reset task", obj{"execution": obj{"artifacts": []obj{
			{"key": "o", "type": "x", "uri": "http://files/o"}, {"key": "i", "type": "x", "mode": "input", "uri": "http://files/i"}}}})
		e.Call(t, "tasks.started", obj{"task": id}).OK(t)
		draft := mkModel(t, e, company, id, "http://files/m", false)
		e.Call(t, "tasks.add_or_update_model", obj{"task": id, "name": "m", "model": draft, "type": "output", "iteration": 3}).OK(t)
		q := mkQueue(t, e, "reset queue")
		e.Call(t, "tasks.failed", obj{"task": id}).OK(t)
		r := e.Call(t, "tasks.reset", obj{"task": id, "return_file_urls": true}).OK(t)
		task := getTask(t, e, id)
		if task["status"] != "created" || task["status_reason"] != "reset" || task["started"] != nil || task["last_iteration"] != 0.0 ||
			len(testenv.Get(task, "models.output").([]any)) != 0 || len(testenv.Get(task, "execution.artifacts").([]any)) != 1 {
			t.Fatalf("reset task: %v", task)
		}
		if r.Num("deleted_models") != 1 || mustJSON(r.List("urls.model_urls")) != `["http://files/m"]` ||
			mustJSON(r.List("urls.artifact_urls")) != `["http://files/o"]` || r.Data["events"] == nil || r.Data["dequeued"] != nil {
			t.Fatalf("reset answer: %s", r.Raw)
		}
		if _, ok := modelReady(t, e, draft); ok {
			t.Fatal("draft model survived the reset")
		}
		e.Call(t, "tasks.edit", obj{"task": id, "script": obj{"entry_point": "x.py", "diff": "x"}}).OK(t)
		e.Call(t, "tasks.enqueue", obj{"task": id, "queue": q}).OK(t)
		r = e.Call(t, "tasks.reset", obj{"task": id}).OK(t)
		if testenv.Get(r.Data, "dequeued.removed") != 1.0 || r.Data["urls"] != nil || len(queueEntries(t, e, q)) != 0 {
			t.Fatalf("reset of a queued task: %s", r.Raw)
		}
		e.Call(t, "tasks.completed", obj{"task": id, "force": true}).OK(t)
		e.Call(t, "tasks.reset", obj{"task": id}).Err(t, 400, 110)
		r = e.Call(t, "tasks.reset_many", obj{"ids": []string{id}, "force": true}).OK(t)
		if testenv.Get(r.Data, "succeeded.0.dequeued") != false {
			t.Fatalf("reset_many: %s", r.Raw)
		}

		// Publish sets the last output model ready, unless told not to.
		pub := mkTask(t, e, "publish task", nil)
		m := mkModel(t, e, company, pub, "http://files/p", false)
		e.Call(t, "tasks.add_or_update_model", obj{"task": pub, "name": "p", "model": m, "type": "output"}).OK(t)
		e.Call(t, "tasks.started", obj{"task": pub}).OK(t)
		e.Call(t, "tasks.publish", obj{"task": pub}).Err(t, 400, 110)
		r = e.Call(t, "tasks.completed", obj{"task": pub, "publish": true}).OK(t)
		if r.Num("published") != 1 || r.Str("fields.status") != "published" {
			t.Fatalf("completed+publish: %s", r.Raw)
		}
		if ready, _ := modelReady(t, e, m); !ready || getTask(t, e, pub)["published"] == nil {
			t.Fatal("publish did not ready the output model")
		}
		// A task completed before is published by completed with publish.
		done := mkTask(t, e, "publish task done", nil)
		e.Call(t, "tasks.started", obj{"task": done}).OK(t)
		e.Call(t, "tasks.completed", obj{"task": done}).OK(t)
		r = e.Call(t, "tasks.completed", obj{"task": done, "publish": true}).OK(t)
		if r.Num("updated") != 1 || r.Num("published") != 1 || r.Str("fields.status") != "published" {
			t.Fatalf("completed+publish of a completed task: %s", r.Raw)
		}
		pub2 := mkTask(t, e, "publish task 2", nil)
		m2 := mkModel(t, e, company, pub2, "http://files/p2", false)
		e.Call(t, "tasks.add_or_update_model", obj{"task": pub2, "name": "p", "model": m2, "type": "output"}).OK(t)
		e.Call(t, "tasks.stopped", obj{"task": pub2, "force": true}).OK(t)
		r = e.Call(t, "tasks.publish_many", obj{"ids": []string{pub2, pub}, "publish_model": false}).OK(t)
		if len(r.List("succeeded")) != 1 || len(r.List("failed")) != 1 {
			t.Fatalf("publish_many: %s", r.Raw)
		}
		if ready, _ := modelReady(t, e, m2); ready {
			t.Fatal("publish_model false readied the model")
		}
		e.Call(t, "tasks.reset", obj{"task": pub}).Err(t, 400, 110)

		// Delete: children and ready models block unless forced.
		parent := mkTask(t, e, "parent task", nil)
		child := mkTask(t, e, "child task", obj{"parent": parent})
		ready := mkModel(t, e, company, parent, "http://files/r", true)
		e.Call(t, "tasks.delete", obj{"task": parent}).Err(t, 400, 123)
		e.Call(t, "tasks.delete", obj{"task": child}).OK(t)
		e.Call(t, "tasks.delete", obj{"task": parent}).Err(t, 400, 123)
		child2 := mkTask(t, e, "child task 2", obj{"parent": parent})
		r = e.Call(t, "tasks.delete", obj{"task": parent, "force": true, "return_file_urls": true}).OK(t)
		if r.Data["deleted"] != true || r.Num("updated_children") != 1 || r.Num("updated_models") != 1 || testenv.Get(r.Data, "events.deleted") != 0.0 {
			t.Fatalf("delete answer: %s", r.Raw)
		}
		if getTask(t, e, child2)["parent"] != "__DELETED__"+parent {
			t.Fatal("child not pointed at the deleted parent")
		}
		mm, err := e.App.DB.Models().Get(context.Background(), e.App.DB.Read(), ready)
		if err != nil || mm.Task != "__DELETED__"+parent {
			t.Fatalf("ready model after delete: %v %v", mm, err)
		}
		running := mkTask(t, e, "running task", nil)
		e.Call(t, "tasks.started", obj{"task": running}).OK(t)
		r = e.Call(t, "tasks.delete_many", obj{"ids": []string{running, child2}}).OK(t)
		if len(r.List("succeeded")) != 1 || mustJSON(testenv.Get(r.Data, "failed.0.error.codes")) != `[400,123]` {
			t.Fatalf("delete_many: %s", r.Raw)
		}
	})
}

func TestSilentTaskWatchdog(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		silent, busy := mkTask(t, e, "silent task", nil), mkTask(t, e, "busy task", nil)
		for _, id := range []string{silent, busy} {
			e.Call(t, "tasks.started", obj{"task": id}).OK(t)
		}
		patchTask(t, e, silent, func(tk *store.Task) { tk.LastUpdate = jsonx.Time{Time: time.Now().Add(-3 * time.Hour).UTC()} })
		n, err := taskdom.StopSilentTasks(context.Background(), &e.App.Deps.Env, taskdom.SilentThreshold)
		if err != nil || n != 1 {
			t.Fatalf("stopped %d, %v", n, err)
		}
		if got := getTask(t, e, silent); got["status"] != "stopped" || got["status_reason"] != taskdom.SilentReason {
			t.Fatalf("silent task: %v", got)
		}
		if status(t, e, busy) != "in_progress" {
			t.Fatal("busy task was stopped")
		}
	})
}

// field reads a member of the answer's fields (keys may hold dots).
func field(r *testenv.Response, key string) any {
	f, _ := r.Data["fields"].(map[string]any)
	return f[key]
}

// TestResetKeepsModelsUsedElsewhere: a draft output model another task
// uses as input survives the reset, detached from the task.
func TestResetKeepsModelsUsedElsewhere(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		company := companyOf(t, e)
		id := mkTask(t, e, "producer task", nil)
		m := mkModel(t, e, company, id, "http://files/shared", false)
		mkTask(t, e, "consumer task", obj{"models": obj{"input": []obj{{"name": "in", "model": m}}}})
		r := e.Call(t, "tasks.reset", obj{"task": id, "return_file_urls": true}).OK(t)
		if r.Num("deleted_models") != 0 || len(r.List("urls.model_urls")) != 0 {
			t.Fatalf("reset answer: %s", r.Raw)
		}
		mm, err := e.App.DB.Models().Get(context.Background(), e.App.DB.Read(), m)
		if err != nil || mm.Task != "" {
			t.Fatalf("model used as input: %v %v", mm, err)
		}
	})
}
