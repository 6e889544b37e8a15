package organization_test

import (
	"testing"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/testenv"
)

var otherUser = auth.FixedUser{ID: "other-user", Name: "other", AccessKey: "OTHERKEY000000000000",
	SecretKey: "other-secret-000000000000000000", Role: "user", Company: "other-company"}

type obj = map[string]any

func TestGetEntitiesCount(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		p := e.Call(t, "projects.create", obj{"name": "Counted"}).OK(t).Str("id")
		e.Call(t, "projects.create", obj{"name": "Counted/.datasets/ds", "system_tags": []string{"dataset"}}).OK(t)
		e.Call(t, "projects.create", obj{"name": "Counted/.pipelines/pl", "system_tags": []string{"pipeline"}}).OK(t)
		e.Call(t, "projects.create", obj{"name": "Hidden one", "system_tags": []string{"hidden"}}).OK(t)
		e.Call(t, "tasks.create", obj{"name": "task one", "type": "training", "project": p}).OK(t)
		e.Call(t, "tasks.create", obj{"name": "task two", "type": "training", "system_tags": []string{"archived"}}).OK(t)
		e.Call(t, "models.create", obj{"name": "model one", "uri": "file:///m", "project": p}).OK(t)
		e.Call(t, "reports.create", obj{"name": "report one", "project": p}).OK(t)
		e.Call(t, "reports.create", obj{"name": "report two"}).OK(t)

		all := obj{"projects": obj{"system_tags": []string{"-pipeline", "-dataset"}}, "tasks": obj{"system_tags": []string{"-archived"}},
			"models": obj{}, "datasets": obj{"system_tags": []string{"dataset"}}, "pipelines": obj{"system_tags": []string{"pipeline"}},
			"reports": obj{"project": []string{p}}}
		r := e.Call(t, "organization.get_entities_count", all).OK(t)
		// projects: Counted and its two folders (.datasets, .pipelines);
		// the hidden project and the hidden reports folders are left out.
		want := map[string]float64{"projects": 3, "tasks": 1, "models": 1, "datasets": 1, "pipelines": 1, "reports": 1}
		for k, n := range want {
			if r.Num(k) != n {
				t.Fatalf("%s: got %v, want %v (%s)", k, r.Num(k), n, r.Raw)
			}
		}
		hidden := e.Call(t, "organization.get_entities_count", obj{"projects": obj{}, "reports": obj{}, "search_hidden": true}).OK(t)
		if hidden.Num("projects") != 8 || hidden.Num("reports") != 2 || hidden.Data["tasks"] != nil {
			t.Fatalf("with hidden: %s", hidden.Raw)
		}
		// Active users: only projects and records of these users.
		mine := e.Call(t, "organization.get_entities_count", obj{"projects": obj{"id": []string{p}}, "models": obj{}, "active_users": []string{auth.AdminUserID}}).OK(t)
		if mine.Num("projects") != 1 || mine.Num("models") != 1 {
			t.Fatalf("active users: %s", mine.Raw)
		}
		nobody := e.Call(t, "organization.get_entities_count", obj{"projects": obj{}, "tasks": obj{}, "active_users": []string{"nobody"}}).OK(t)
		if nobody.Num("projects") != 0 || nobody.Num("tasks") != 0 {
			t.Fatalf("unknown user: %s", nobody.Raw)
		}

		// Not an object, or a bad limit: the whole read fails.
		for _, c := range []struct {
			name string
			body obj
		}{
			{"query not an object", obj{"projects": "x"}},
			{"query a list", obj{"tasks": []string{}}},
			{"negative limit", obj{"tasks": obj{}, "limit": -1}},
			{"limit not a number", obj{"tasks": obj{}, "limit": "ten"}},
		} {
			t.Run(c.name, func(t *testing.T) {
				e.Call(t, "organization.get_entities_count", c.body).Err(t, 400, 12)
			})
		}
		// A refused query of one kind: before 2.34 the read fails; from
		// 2.34 the kind is named in errors and the others are counted.
		for _, c := range []struct {
			name, kind string
			body       obj
		}{
			{"bad regex", "tasks", obj{"tasks": obj{"name": "("}, "models": obj{}}},
			{"bad page size", "models", obj{"models": obj{"page_size": "x"}, "tasks": obj{}}},
			{"reports project a number", "reports", obj{"reports": obj{"project": 5}, "models": obj{}}},
		} {
			t.Run(c.name, func(t *testing.T) {
				if r := e.Call(t, "v2.33/organization.get_entities_count", c.body); r.Status != 400 {
					t.Fatalf("2.33: want 400, got %s", r.Raw)
				}
				r := e.Call(t, "organization.get_entities_count", c.body).OK(t)
				msg, _ := testenv.Get(r.Data, "errors."+c.kind).(string)
				if msg == "" || r.Data[c.kind] != nil || len(r.Data) != 2 {
					t.Fatalf("2.34: %s", r.Raw)
				}
			})
		}

		// pipeline_runs and dataset_versions (2.34): controller and
		// data_processing tasks, in the named projects and their subprojects.
		sub := e.Call(t, "projects.create", obj{"name": "Counted/sub"}).OK(t).Str("id")
		e.Call(t, "tasks.create", obj{"name": "run one", "type": "controller", "project": p}).OK(t)
		e.Call(t, "tasks.create", obj{"name": "run two", "type": "controller", "project": sub}).OK(t)
		e.Call(t, "tasks.create", obj{"name": "run three", "type": "controller"}).OK(t)
		e.Call(t, "tasks.create", obj{"name": "version one", "type": "data_processing", "project": sub}).OK(t)
		runs := e.Call(t, "organization.get_entities_count", obj{"pipeline_runs": obj{"project": []string{p}, "type": []string{"training"}},
			"dataset_versions": obj{}}).OK(t)
		if runs.Num("pipeline_runs") != 2 || runs.Num("dataset_versions") != 1 || len(runs.Data) != 2 {
			t.Fatalf("runs and versions: %s", runs.Raw)
		}
		if old := e.Call(t, "v2.33/organization.get_entities_count", obj{"pipeline_runs": obj{}, "tasks": obj{}}).OK(t); old.Data["pipeline_runs"] != nil || old.Data["tasks"] == nil {
			t.Fatalf("2.33 has no pipeline_runs: %s", old.Raw)
		}
		// limit (2.33) caps each count; 0 counts all; older clients ignore it.
		for _, c := range []struct {
			name        string
			path        string
			limit       int
			tasks, runs float64
		}{
			{"limit 2", "organization.get_entities_count", 2, 2, 2},
			{"limit 1", "organization.get_entities_count", 1, 1, 1},
			{"limit 0 is no limit", "organization.get_entities_count", 0, 6, 3},
			{"limit above the counts", "organization.get_entities_count", 100, 6, 3},
			{"before 2.33", "v2.32/organization.get_entities_count", 1, 6, 0},
		} {
			t.Run(c.name, func(t *testing.T) {
				r := e.Call(t, c.path, obj{"tasks": obj{}, "pipeline_runs": obj{}, "limit": c.limit}).OK(t)
				if r.Num("tasks") != c.tasks || (c.runs > 0 && r.Num("pipeline_runs") != c.runs) {
					t.Fatalf("got %s", r.Raw)
				}
			})
		}

		other := e.Login(t, otherUser.AccessKey, otherUser.SecretKey)
		theirs := e.CallAs(t, other, "organization.get_entities_count", obj{"projects": obj{}, "tasks": obj{}, "reports": obj{}, "allow_public": false}).OK(t)
		if theirs.Num("projects") != 0 || theirs.Num("tasks") != 0 || theirs.Num("reports") != 0 {
			t.Fatalf("other company counts: %s", theirs.Raw)
		}
	}, testenv.WithUsers(otherUser))
}
