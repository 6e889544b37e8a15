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

		for _, c := range []struct {
			name string
			body obj
		}{
			{"query not an object", obj{"projects": "x"}},
			{"query a list", obj{"tasks": []string{}}},
			{"bad regex", obj{"tasks": obj{"name": "("}}},
			{"bad page size", obj{"models": obj{"page_size": "x"}}},
			{"reports project a number", obj{"reports": obj{"project": 5}}},
		} {
			t.Run(c.name, func(t *testing.T) {
				r := e.Call(t, "organization.get_entities_count", c.body)
				if r.Status != 400 {
					t.Fatalf("want 400, got %s", r.Raw)
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
