package projects_test

import (
	"sort"
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

type obj = map[string]any

func basenames(r *testenv.Response) []string {
	var out []string
	for _, it := range r.List("projects") {
		out = append(out, it.(map[string]any)["basename"].(string))
	}
	sort.Strings(out)
	return out
}

func newTask(t *testing.T, e *testenv.Env, body obj) string {
	t.Helper()
	if body["type"] == nil {
		body["type"] = "training"
	}
	return e.Call(t, "tasks.create", body).OK(t).Str("id")
}

// TestChildrenViews covers the Datasets, Pipelines and Reports pages:
// projects.get_all_ex with children_type lists the projects holding such
// children, and their statistics count only those.
func TestChildrenViews(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		root := create(t, e, map[string]any{"name": "Root"})
		ds := create(t, e, map[string]any{"name": "Root/P1/Dataset", "system_tags": []string{"dataset"}, "tags": []string{"world", "hello"}})
		newTask(t, e, obj{"name": "dataset task", "type": "data_processing", "system_tags": []string{"dataset"}, "project": ds})
		newTask(t, e, obj{"name": "regular task", "project": ds})
		pl := create(t, e, map[string]any{"name": "Root/P2/Pipeline", "system_tags": []string{"pipeline"}})
		newTask(t, e, obj{"name": "pipeline task", "type": "controller", "system_tags": []string{"pipeline"}, "project": pl})
		newTask(t, e, obj{"name": "regular task", "project": pl})
		p3 := create(t, e, map[string]any{"name": "Root/P3"})
		e.Call(t, "reports.create", obj{"name": "a report", "project": p3, "tags": []string{"t1"}}).OK(t)
		newTask(t, e, obj{"name": "regular task", "project": p3})

		all := e.Call(t, "projects.get_all_ex", obj{"parent": []string{root}, "shallow_search": true, "include_stats": true}).OK(t)
		for _, it := range all.List("projects") {
			p := it.(map[string]any)
			want := 2.0
			if p["basename"] == "P3" {
				want = 1 // the hidden reports folder does not count
			}
			if n := testenv.Get(p, "stats.active.total_tasks"); n != want {
				t.Fatalf("%s: total_tasks %v, want %v", p["basename"], n, want)
			}
		}
		view := func(typ string, extra obj) *testenv.Response {
			body := obj{"parent": []string{root}, "children_type": typ, "shallow_search": true, "include_stats": true, "check_own_contents": true}
			for k, v := range extra {
				body[k] = v
			}
			return e.Call(t, "projects.get_all_ex", body).OK(t)
		}
		d := view("dataset", nil)
		if b := basenames(d); len(b) != 1 || b[0] != "P1" || d.Num("projects.0.own_datasets") != 1 ||
			d.Num("projects.0.stats.datasets.count") != 1 || d.Str("projects.0.stats.datasets.tags.0") != "hello" {
			t.Fatalf("datasets view: %s", d.Raw)
		}
		if testenv.Get(d.Data, "projects.0.own_tasks") != nil {
			t.Fatalf("datasets view counts tasks: %s", d.Raw)
		}
		p := view("pipeline", nil)
		if b := basenames(p); len(b) != 1 || b[0] != "P2" || p.Num("projects.0.own_tasks") != 0 || p.Num("projects.0.stats.active.total_tasks") != 1 {
			t.Fatalf("pipelines view: %s", p.Raw)
		}
		r := view("report", nil)
		if b := basenames(r); len(b) != 1 || b[0] != "P3" || r.Num("projects.0.stats.active.total_tasks") != 1 {
			t.Fatalf("reports view: %s", r.Raw)
		}
		for _, c := range []struct {
			name  string
			extra obj
			want  int
		}{
			{"children tags", obj{"children_tags": []string{"t1"}}, 1},
			{"children tags excluded", obj{"children_tags": []string{"-t1"}}, 0},
			{"children tags filter", obj{"children_tags_filter": obj{"any": obj{"include": []string{"t1", "t2"}}}}, 1},
			{"children tags filter excluded", obj{"children_tags_filter": obj{"all": obj{"exclude": []string{"t1"}}}}, 0},
		} {
			t.Run(c.name, func(t *testing.T) {
				if n := len(view("report", c.extra).List("projects")); n != c.want {
					t.Fatalf("got %d projects, want %d", n, c.want)
				}
			})
		}
		// Dataset tags filter the dataset projects themselves.
		if n := len(view("dataset", obj{"children_tags": []string{"nope"}}).List("projects")); n != 0 {
			t.Fatalf("dataset tag filter: %d", n)
		}

		// The flat Pipelines page counts only the runs (include_stats_filter).
		flat := e.Call(t, "projects.get_all_ex", obj{"name": `/\.pipelines/|Pipeline`, "system_tags": []string{"pipeline"}, "search_hidden": true,
			"include_stats": true, "check_own_contents": true, "include_stats_filter": obj{"system_tags": []string{"pipeline"}, "type": []string{"controller"}}}).OK(t)
		if len(flat.List("projects")) != 1 || flat.Num("projects.0.stats.active.total_tasks") != 1 || flat.Num("projects.0.own_tasks") != 1 {
			t.Fatalf("flat pipelines view: %s", flat.Raw)
		}
		e.Call(t, "projects.get_all_ex", obj{"include_stats": true, "include_stats_filter": obj{"type": []any{obj{}}}}).Err(t, 400, 12)
		e.Call(t, "projects.get_all_ex", obj{"include_stats": true, "include_stats_filter": obj{"bad key!": []string{"x"}}}).Err(t, 400, 12)
		e.Call(t, "projects.get_all_ex", obj{"include_stats": true, "include_stats_filter": obj{"tags": obj{"bogus": 1}}}).Err(t, 400, 12)
		e.Call(t, "projects.get_all_ex", obj{"children_type": "nope"}).Err(t, 400, 12)
		e.Call(t, "projects.get_all_ex", obj{"children_type": "report", "children_tags": "x y"}).OK(t)
		e.Call(t, "projects.get_all_ex", obj{"children_type": "report", "children_tags": []any{obj{}}}).Err(t, 400, 12)
		e.Call(t, "projects.get_all_ex", obj{"children_type": "report", "children_tags_filter": obj{"bogus": 1}}).Err(t, 400, 12)
		other := e.Login(t, otherUser.AccessKey, otherUser.SecretKey)
		if n := len(e.CallAs(t, other, "projects.get_all_ex", obj{"children_type": "dataset"}).OK(t).List("projects")); n != 0 {
			t.Fatalf("other company sees %d dataset projects", n)
		}
	}, testenv.WithUsers(otherUser))
}

func TestDatasetStats(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		p := create(t, e, map[string]any{"name": "Dataset test", "system_tags": []string{"dataset"}})
		task := newTask(t, e, obj{"name": "version", "project": p})
		stats := func() any {
			r := e.Call(t, "projects.get_all_ex", obj{"id": []string{p}, "include_dataset_stats": true}).OK(t)
			v, ok := testenv.Get(r.Data, "projects.0").(map[string]any)["dataset_stats"]
			if !ok {
				t.Fatalf("no dataset_stats: %s", r.Raw)
			}
			return v
		}
		if s := stats(); s != nil {
			t.Fatalf("stats without runtime: %v", s)
		}
		e.Call(t, "tasks.edit", obj{"task": task, "runtime": obj{"ds_file_count": 2, "ds_total_size": 1000}}).OK(t)
		if s := stats().(map[string]any); s["file_count"] != 2.0 || s["total_size"] != 1000.0 {
			t.Fatalf("stats: %v", s)
		}
		e.Call(t, "tasks.archive", obj{"tasks": []string{task}}).OK(t)
		if s := stats(); s != nil {
			t.Fatalf("archived versions count: %v", s)
		}
	})
}

func TestDeleteDatasetsAndPipelines(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		parent := create(t, e, map[string]any{"name": "Datasets delete"})
		ds := create(t, e, map[string]any{"name": "Datasets delete/.datasets/one", "system_tags": []string{"dataset"}})
		version := newTask(t, e, obj{"name": "version", "project": ds, "system_tags": []string{"dataset"}})
		v := e.Call(t, "projects.validate_delete", obj{"project": parent}).OK(t)
		if v.Num("datasets") != 1 || v.Num("tasks") != 0 {
			t.Fatalf("validate_delete: %s", v.Raw)
		}
		e.Call(t, "projects.delete", obj{"project": parent}).Err(t, 400, 406)
		e.Call(t, "tasks.delete", obj{"task": version}).OK(t)
		if e.Call(t, "projects.validate_delete", obj{"project": parent}).OK(t).Num("datasets") != 0 {
			t.Fatal("empty dataset still counted")
		}
		e.Call(t, "projects.delete", obj{"project": parent}).OK(t)

		parent = create(t, e, map[string]any{"name": "Pipelines delete"})
		pl := create(t, e, map[string]any{"name": "Pipelines delete/.pipelines/one", "system_tags": []string{"pipeline"}})
		run := newTask(t, e, obj{"name": "run", "type": "controller", "project": pl, "system_tags": []string{"pipeline"}})
		if e.Call(t, "projects.validate_delete", obj{"project": parent}).OK(t).Num("pipelines") != 1 {
			t.Fatal("pipeline not counted")
		}
		e.Call(t, "projects.delete", obj{"project": parent}).Err(t, 400, 413)
		e.Call(t, "tasks.edit", obj{"task": run, "system_tags": []string{"archived", "pipeline"}}).OK(t)
		e.Call(t, "projects.delete", obj{"project": parent}).OK(t)

		// Reports are counted apart from tasks.
		p := create(t, e, map[string]any{"name": "Reports delete"})
		e.Call(t, "reports.create", obj{"name": "r1", "project": p}).OK(t)
		v = e.Call(t, "projects.validate_delete", obj{"project": p}).OK(t)
		if v.Num("reports") != 1 || v.Num("non_archived_reports") != 1 || v.Num("tasks") != 0 {
			t.Fatalf("reports counted: %s", v.Raw)
		}
		e.Call(t, "projects.delete", obj{"project": p}).Err(t, 400, 402)
	})
}

func TestTaskTagsOfSubprojects(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		top := create(t, e, map[string]any{"name": "Tags top"})
		sub := create(t, e, map[string]any{"name": "Tags top/sub"})
		newTask(t, e, obj{"name": "tagged", "project": sub, "tags": []string{"deep"}})
		r := e.Call(t, "projects.get_task_tags", obj{"projects": []string{top}, "include_system": true}).OK(t)
		if tags := r.List("tags"); len(tags) != 1 || tags[0] != "deep" {
			t.Fatalf("subproject tags: %s", r.Raw)
		}
		if st, ok := r.Data["system_tags"].([]any); !ok || len(st) != 0 {
			t.Fatalf("system_tags asked for must be a list: %s", r.Raw)
		}
		if _, ok := e.Call(t, "projects.get_model_tags", obj{"projects": []string{top}}).OK(t).Data["system_tags"]; ok {
			t.Fatal("system_tags answered without include_system")
		}
	})
}
