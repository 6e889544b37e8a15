package reports_test

import (
	"strings"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/testenv"
)

// otherUser is a user of a second company, for isolation tests.
var otherUser = auth.FixedUser{ID: "other-user", Name: "other", AccessKey: "OTHERKEY000000000000",
	SecretKey: "other-secret-000000000000000000", Role: "user", Company: "other-company"}

type obj = map[string]any

func newReport(t *testing.T, e *testenv.Env, body obj) (id, folder string) {
	t.Helper()
	return newReportAs(t, e, e.Token, body)
}

func project(t *testing.T, e *testenv.Env, id string) *testenv.Response {
	t.Helper()
	return e.Call(t, "projects.get_all_ex", obj{"id": []string{id}, "search_hidden": true})
}

func task(t *testing.T, e *testenv.Env, id string) map[string]any {
	t.Helper()
	r := e.Call(t, "tasks.get_all_ex", obj{"id": []string{id}}).OK(t)
	if len(r.List("tasks")) != 1 {
		t.Fatalf("task %s not found: %s", id, r.Raw)
	}
	return r.List("tasks")[0].(map[string]any)
}

func TestCreateUpdatePublish(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		id, folder := newReport(t, e, obj{"name": "Rep1", "comment": "first", "tags": []string{"b", "a"}})
		got := task(t, e, id)
		if got["type"] != "report" || got["status"] != "created" || got["comment"] != "first" {
			t.Fatalf("bad report: %v", got)
		}
		if st := testenv.Get(got, "system_tags"); len(st.([]any)) != 2 {
			t.Fatalf("system tags: %v", st)
		}
		f := project(t, e, folder).OK(t)
		if f.Str("projects.0.name") != ".reports" || len(f.List("projects.0.system_tags")) != 2 || f.Str("projects.0.description") != "Reports project" {
			t.Fatalf("bad folder: %s", f.Raw)
		}
		// The folder is hidden from ordinary project lists.
		if n := len(e.Call(t, "projects.get_all_ex", obj{"name": `^\.reports$`}).OK(t).List("projects")); n != 0 {
			t.Fatalf("hidden folder listed: %d", n)
		}
		if tags := e.Call(t, "reports.get_tags", obj{}).OK(t).List("tags"); len(tags) != 2 || tags[0] != "a" {
			t.Fatalf("tags: %v", tags)
		}

		long := strings.Repeat("word ", 40)
		u := e.Call(t, "reports.update", obj{"task": id, "tags": []string{}, "report": long, "report_assets": []string{"file://a.jpg"}}).OK(t)
		if u.Num("updated") != 1 || !strings.HasSuffix(u.Str("fields.report"), "[...]") || len(u.Str("fields.report")) > 100 {
			t.Fatalf("update answer: %s", u.Raw)
		}
		if tags := e.Call(t, "reports.get_tags", obj{}).OK(t).List("tags"); len(tags) != 0 {
			t.Fatalf("tags after clearing: %v", tags)
		}
		if a := testenv.Get(task(t, e, id), "report_assets").([]any); len(a) != 1 {
			t.Fatalf("report_assets: %v", a)
		}
		if e.Call(t, "reports.update", obj{"task": id}).OK(t).Num("updated") != 0 {
			t.Fatal("an empty update changes nothing")
		}

		p := e.Call(t, "reports.publish", obj{"task": id, "comment": "done"}).OK(t)
		if p.Num("updated") != 1 || p.Str("fields.status") != "published" || p.Str("fields.published") == "" {
			t.Fatalf("publish: %s", p.Raw)
		}
		// A published report keeps its content; name, tags and comment still change.
		e.Call(t, "reports.update", obj{"task": id, "report": "new"}).Err(t, 400, 110)
		// Every edit sets last_update, a rename of a published report too.
		later := time.Now().UTC().Add(2 * time.Hour).Truncate(time.Second)
		e.App.Deps.Now = func() time.Time { return later }
		e.Call(t, "reports.update", obj{"task": id, "name": "renamed", "tags": []string{"x"}, "comment": "c"}).OK(t)
		if got := task(t, e, id); got["name"] != "renamed" || got["comment"] != "c" || !strings.HasPrefix(got["last_update"].(string), later.Format("2006-01-02T15:04:05")) {
			t.Fatalf("rename of published: %v", got)
		}
	})
}

func TestMoveArchiveDelete(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		id, rootFolder := newReport(t, e, obj{"name": "Rep1"})
		id2, _ := newReport(t, e, obj{"name": "Rep2"})

		moved := e.Call(t, "reports.move", obj{"task": id, "project_name": "Team"}).OK(t).Str("project_id")
		if n := project(t, e, moved).OK(t).Str("projects.0.name"); n != "Team/.reports" {
			t.Fatalf("moved into %q", n)
		}
		// The root folder keeps Rep2; moving Rep2 into the folder itself empties and drops it.
		if e.Call(t, "reports.move", obj{"task": id2, "project": moved}).OK(t).Str("project_id") != moved {
			t.Fatal("a folder id is its own folder")
		}
		if n := len(project(t, e, rootFolder).OK(t).List("projects")); n != 0 {
			t.Fatalf("empty root folder kept")
		}
		back := e.Call(t, "reports.move", obj{"task": id2, "project": nil}).OK(t).Str("project_id")
		if p := project(t, e, back).OK(t); p.Str("projects.0.name") != ".reports" || testenv.Get(p.Data, "projects.0.parent") != nil {
			t.Fatalf("root folder: %s", p.Raw)
		}

		if e.Call(t, "reports.archive", obj{"task": id}).OK(t).Num("archived") != 1 {
			t.Fatal("archive")
		}
		if !hasTag(task(t, e, id), "archived") {
			t.Fatal("archived tag missing")
		}
		if e.Call(t, "reports.unarchive", obj{"task": id}).OK(t).Num("unarchived") != 1 || hasTag(task(t, e, id), "archived") {
			t.Fatal("unarchive")
		}

		e.Call(t, "reports.publish", obj{"task": id}).OK(t)
		e.Call(t, "reports.delete", obj{"task": id}).Err(t, 400, 123)
		if e.Call(t, "reports.delete", obj{"task": id, "force": true}).OK(t).Num("deleted") != 1 {
			t.Fatal("forced delete")
		}
		// A draft goes without force; its folder goes with it.
		if e.Call(t, "reports.delete", obj{"task": id2}).OK(t).Num("deleted") != 1 {
			t.Fatal("draft delete")
		}
		if n := len(project(t, e, back).OK(t).List("projects")); n != 0 {
			t.Fatal("empty folder kept after delete")
		}
		if n := len(project(t, e, moved).OK(t).List("projects")); n != 0 {
			t.Fatal("empty Team folder kept after delete")
		}
	})
}

func hasTag(task map[string]any, tag string) bool {
	for _, x := range task["system_tags"].([]any) {
		if x == tag {
			return true
		}
	}
	return false
}

func TestGetAllEx(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		root, _ := newReport(t, e, obj{"name": "root report"})
		pid := e.Call(t, "projects.create", obj{"name": "Team"}).OK(t).Str("id")
		sub := e.Call(t, "projects.create", obj{"name": "Team/Sub"}).OK(t).Str("id")
		inTeam, _ := newReport(t, e, obj{"name": "team report", "project": pid})
		inSub, _ := newReport(t, e, obj{"name": "sub report", "project": sub})
		e.Call(t, "tasks.create", obj{"name": "hello", "type": "training"}).OK(t)
		e.Call(t, "reports.update", obj{"task": inTeam, "report": "hello world"}).OK(t)

		ids := func(body obj) []string {
			var out []string
			for _, it := range e.Call(t, "reports.get_all_ex", body).OK(t).List("tasks") {
				out = append(out, it.(map[string]any)["id"].(string))
			}
			return out
		}
		if got := ids(obj{}); len(got) != 3 {
			t.Fatalf("all reports: %v", got)
		}
		if got := ids(obj{"project": pid}); len(got) != 1 || got[0] != inTeam {
			t.Fatalf("team reports: %v", got)
		}
		if got := ids(obj{"project": []any{nil}}); len(got) != 1 || got[0] != root {
			t.Fatalf("root reports: %v", got)
		}
		if got := ids(obj{"project": []string{pid}, "include_subprojects": true}); len(got) != 2 {
			t.Fatalf("with subprojects: %v", got)
		}
		if got := ids(obj{"project": sub}); len(got) != 1 || got[0] != inSub {
			t.Fatalf("sub reports: %v", got)
		}
		if got := ids(obj{"_any_": obj{"pattern": "hello", "fields": []string{"name", "report"}}}); len(got) != 1 || got[0] != inTeam {
			t.Fatalf("search: %v", got)
		}
		// The project of each report is its folder, named in _ex reads.
		r := e.Call(t, "reports.get_all_ex", obj{"id": []string{inTeam}, "only_fields": []string{"project.name"}}).OK(t)
		if r.Str("tasks.0.project.name") != "Team/.reports" {
			t.Fatalf("project name: %s", r.Raw)
		}
		// Projects without reports list none.
		empty := e.Call(t, "projects.create", obj{"name": "Empty"}).OK(t).Str("id")
		if got := ids(obj{"project": empty}); len(got) != 0 {
			t.Fatalf("empty project: %v", got)
		}
		// The projects view of reports: the parents of folders holding them.
		ps := e.Call(t, "projects.get_all_ex", obj{"children_type": "report", "shallow_search": true,
			"include_stats": true, "check_own_contents": true}).OK(t)
		if len(ps.List("projects")) != 1 || ps.Str("projects.0.name") != "Team" || ps.Num("projects.0.stats.active.total_tasks") != 2 {
			t.Fatalf("report projects: %s", ps.Raw)
		}
	})
}

func TestBadInputAndCompanies(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		id, folder := newReport(t, e, obj{"name": "mine", "tags": []string{"secret"}})
		training := e.Call(t, "tasks.create", obj{"name": "training task", "type": "training"}).OK(t).Str("id")
		for _, c := range []struct {
			name, op string
			body     obj
			code     int
		}{
			{"create without name", "reports.create", obj{}, 12},
			{"create with blank name", "reports.create", obj{"name": "  "}, 12},
			{"create with tags not a list", "reports.create", obj{"name": "x", "tags": "a"}, 12},
			{"create with an operator tag", "reports.create", obj{"name": "x", "tags": []string{"__$not"}}, 16},
			{"create in an unknown project", "reports.create", obj{"name": "x", "project": "nope"}, 401},
			{"update without task", "reports.update", obj{"name": "x"}, 12},
			{"update an unknown task", "reports.update", obj{"task": "nope", "name": "x"}, 101},
			{"update a training task", "reports.update", obj{"task": training, "name": "x"}, 150},
			{"update with a blank name", "reports.update", obj{"task": id, "name": ""}, 12},
			{"move without target", "reports.move", obj{"task": id}, 11},
			{"move to a project given as a number", "reports.move", obj{"task": id, "project": 5}, 12},
			{"move into an unknown project", "reports.move", obj{"task": id, "project": "nope"}, 401},
			{"move a training task", "reports.move", obj{"task": training, "project_name": "x y z"}, 150},
			{"publish without task", "reports.publish", obj{}, 12},
			{"publish a training task", "reports.publish", obj{"task": training}, 150},
			{"archive an unknown task", "reports.archive", obj{"task": "nope"}, 101},
			{"unarchive a training task", "reports.unarchive", obj{"task": training}, 150},
			{"delete without task", "reports.delete", obj{}, 12},
			{"delete a training task", "reports.delete", obj{"task": training}, 150},
			{"list with a numeric project", "reports.get_all_ex", obj{"project": 5}, 12},
			{"list with a bad page size", "reports.get_all_ex", obj{"page_size": 0}, 12},
			{"task data with negative iters", "reports.get_task_data", obj{"plots": obj{"iters": -1}}, 12},
			{"task data with a metric without name", "reports.get_task_data", obj{"debug_images": obj{"metrics": []obj{{}}}}, 12},
			{"task data with an unknown key", "reports.get_task_data", obj{"scalar_metrics_iter_histogram": obj{"key": "nope"}}, 12},
			{"task data with samples out of range", "reports.get_task_data", obj{"scalar_metrics_iter_histogram": obj{"samples": -1}}, 12},
		} {
			t.Run(c.name, func(t *testing.T) { e.Call(t, c.op, c.body).Err(t, 400, c.code) })
		}

		other := e.Login(t, otherUser.AccessKey, otherUser.SecretKey)
		for _, op := range []string{"reports.update", "reports.publish", "reports.archive", "reports.unarchive", "reports.delete"} {
			e.CallAs(t, other, op, obj{"task": id, "name": "stolen"}).Err(t, 400, 101)
		}
		e.CallAs(t, other, "reports.move", obj{"task": id, "project_name": "theirs"}).Err(t, 400, 101)
		e.CallAs(t, other, "reports.create", obj{"name": "x", "project": folder}).Err(t, 400, 401)
		if n := len(e.CallAs(t, other, "reports.get_all_ex", obj{}).OK(t).List("tasks")); n != 0 {
			t.Fatalf("other company lists %d reports", n)
		}
		if n := len(e.CallAs(t, other, "reports.get_tags", obj{}).OK(t).List("tags")); n != 0 {
			t.Fatalf("other company sees %d tags", n)
		}
		if n := len(e.CallAs(t, other, "reports.get_task_data", obj{"id": []string{id}}).OK(t).List("tasks")); n != 0 {
			t.Fatalf("other company reads %d tasks", n)
		}
		// Their own report goes into their own root folder.
		if _, f := newReportAs(t, e, other, obj{"name": "theirs"}); f == folder {
			t.Fatal("companies share a reports folder")
		}
	}, testenv.WithUsers(otherUser))
}

func newReportAs(t *testing.T, e *testenv.Env, token string, body obj) (id, folder string) {
	t.Helper()
	r := e.CallAs(t, token, "reports.create", body).OK(t)
	return r.Str("id"), r.Str("project_id")
}
