package tasks_test

import (
	"context"
	"testing"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/tasks"
)

// ensureNamed stands in for projects.EnsureByName: it stores a project
// whose id is its name.
func ensureNamed(ctx context.Context, d *domain.Env, q store.Querier, company, user, name string) (*store.Project, error) {
	p := &store.Project{ID: name, Company: company, User: user, Name: name, Basename: name, Created: d.Time()}
	return p, d.DB.Projects().Insert(ctx, q, p)
}

// TestClone: the definition is copied with the replacements, the run
// state is not, the parent is the source, output artifacts are dropped,
// and a project is created by name when asked.
func TestClone(t *testing.T) {
	eachStore(t, func(t *testing.T, d *domain.Env, _ *removed) {
		putTask(t, d, "src", tasks.Completed, withParams, func(tk *store.Task) {
			tk.Execution.Queue = "q1"
			tk.Execution.Artifacts = []*store.Artifact{{Key: "in", Mode: "input"}, {Key: "out", Mode: "output"}}
			tk.LastIteration = 7
		})
		res, err := tasks.Clone(ctx, d, tasks.CloneRequest{Company: "c1", User: "u2", Task: "src", Name: " copy ",
			Hyperparams:    map[string]map[string]*tasks.ParamInput{"New": {"x": param("New", "x", "1")}},
			NewProjectName: "fresh"}, ensureNamed)
		if err != nil {
			t.Fatal(err)
		}
		if res.NewProject == nil || res.NewProject.ID != "fresh" {
			t.Fatalf("new project %+v", res.NewProject)
		}
		got := getTask(t, d, res.ID)
		switch {
		case got.Name != "copy" || got.Status != tasks.Created || got.Parent != "src" || got.Project != "fresh" || got.User != "u2":
			t.Fatalf("clone %+v", got)
		case len(got.Hyperparams) != 1 || got.Hyperparams["New"]["x"].Value != "1":
			t.Fatalf("clone hyperparams %+v", got.Hyperparams)
		case got.Execution.Queue != "" || len(got.Execution.Artifacts) != 1 || got.Execution.Artifacts[0].Key != "in" || got.LastIteration != 0:
			t.Fatalf("clone kept run state: %+v, last_iteration %d", got.Execution, got.LastIteration)
		}
		if _, err := tasks.Clone(ctx, d, tasks.CloneRequest{Company: "c1", User: "u2", Task: "unknown"}, ensureNamed); !apierr.Is(err, 400, 101) {
			t.Fatalf("clone of an unknown task: %v", err)
		}
	})
}

// TestMove: by id, by name (created), to no project; an unknown project
// or task changes nothing.
func TestMove(t *testing.T) {
	eachStore(t, func(t *testing.T, d *domain.Env, _ *removed) {
		putTask(t, d, "a", tasks.Created)
		putTask(t, d, "b", tasks.Published)
		tx(t, d, func(q store.Querier) error { _, err := ensureNamed(ctx, d, q, "c1", "u1", "p1"); return err })
		move := func(r tasks.MoveRequest) (string, error) {
			r.Company, r.User = "c1", "u2"
			return tasks.Move(ctx, d, r, ensureNamed)
		}
		if id, err := move(tasks.MoveRequest{Tasks: []string{"a", "b"}, ByID: true, ProjectID: "p1"}); err != nil || id != "p1" {
			t.Fatalf("move by id: %q %v", id, err)
		}
		if got := getTask(t, d, "b"); got.Project != "p1" || got.LastChangedBy != "u2" {
			t.Fatalf("moved task %+v", got)
		}
		if id, err := move(tasks.MoveRequest{Tasks: []string{"a"}, ProjectName: "p2"}); err != nil || id != "p2" || getTask(t, d, "a").Project != "p2" {
			t.Fatalf("move by name: %q %v", id, err)
		}
		if id, err := move(tasks.MoveRequest{Tasks: []string{"a"}, ByID: true}); err != nil || id != "" || getTask(t, d, "a").Project != "" {
			t.Fatalf("move to no project: %q %v", id, err)
		}
		if _, err := move(tasks.MoveRequest{Tasks: []string{"a"}, ByID: true, ProjectID: "nope"}); !apierr.Is(err, 400, 401) {
			t.Fatalf("move to an unknown project: %v", err)
		}
		if _, err := move(tasks.MoveRequest{Tasks: []string{"b", "zz"}, ByID: true, ProjectID: "p2"}); !apierr.Is(err, 400, 101) {
			t.Fatalf("move of an unknown task: %v", err)
		}
		if got := getTask(t, d, "b"); got.Project != "p1" {
			t.Fatalf("failed move changed %+v", got)
		}
	})
}
