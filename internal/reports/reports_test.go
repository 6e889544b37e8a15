package reports_test

import (
	"context"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/domain/domaintest"
	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/projects"
	"github.com/trove-ml/trove/internal/reports"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/tasks"
)

var ctx = context.Background()

const company, user = "c1", "u1"

func folderName(t *testing.T, env *domain.Env, id string) string {
	t.Helper()
	p, err := env.DB.Projects().Get(ctx, env.DB.Read(), id)
	if err != nil {
		return ""
	}
	return p.Name
}

func TestFoldersFollowReports(t *testing.T) {
	domaintest.EachEnv(t, func(t *testing.T, env *domain.Env) {
		team, err := projects.Create(ctx, env, projects.CreateInput{Company: company, User: user, Name: "Team"})
		if err != nil {
			t.Fatal(err)
		}
		root, err := reports.Create(ctx, env, reports.CreateInput{Company: company, User: user, Name: "r1"})
		if err != nil {
			t.Fatal(err)
		}
		inTeam, err := reports.Create(ctx, env, reports.CreateInput{Company: company, User: user, Name: "r2", Project: team})
		if err != nil {
			t.Fatal(err)
		}
		if folderName(t, env, root.Project) != ".reports" || folderName(t, env, inTeam.Project) != "Team/.reports" {
			t.Fatalf("folders %q %q", folderName(t, env, root.Project), folderName(t, env, inTeam.Project))
		}
		// Moving the only root report empties the root folder, which goes.
		to, err := reports.Move(ctx, env, reports.MoveInput{Company: company, User: user, Task: root.ID, ProjectName: "Team"})
		if err != nil || to != inTeam.Project {
			t.Fatalf("move: %v %v", to, err)
		}
		if folderName(t, env, root.Project) != "" {
			t.Fatal("empty folder kept")
		}
		_, err = reports.Move(ctx, env, reports.MoveInput{Company: company, User: user, Task: root.ID})
		domaintest.WantError(t, err, 400, 11)
		// Deleting both empties the Team folder.
		if _, err := reports.Publish(ctx, env, reports.StatusInput{Company: company, User: user, Task: root.ID}); err != nil {
			t.Fatal(err)
		}
		_, err = reports.Delete(ctx, env, reports.DeleteInput{Company: company, User: user, Task: root.ID})
		domaintest.WantError(t, err, 400, 123)
		if _, err := reports.SetArchived(ctx, env, reports.StatusInput{Company: company, User: user, Task: root.ID}, true); err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{root.ID, inTeam.ID} {
			if n, err := reports.Delete(ctx, env, reports.DeleteInput{Company: company, User: user, Task: id}); err != nil || n != 1 {
				t.Fatalf("delete %s: %d %v", id, n, err)
			}
		}
		if folderName(t, env, inTeam.Project) != "" || folderName(t, env, team) != "Team" {
			t.Fatal("Team folder kept, or Team itself dropped")
		}
	})
}

func TestOnlyDraftContentChanges(t *testing.T) {
	domaintest.EachEnv(t, func(t *testing.T, env *domain.Env) {
		r, err := reports.Create(ctx, env, reports.CreateInput{Company: company, User: user, Name: "r1", Tags: []string{"b", "a"}})
		if err != nil {
			t.Fatal(err)
		}
		text := "hello"
		if _, err := reports.Update(ctx, env, reports.UpdateInput{Company: company, User: user, Task: r.ID, Report: &text}); err != nil {
			t.Fatal(err)
		}
		if _, err := reports.Publish(ctx, env, reports.StatusInput{Company: company, User: user, Task: r.ID, Message: "m"}); err != nil {
			t.Fatal(err)
		}
		_, err = reports.Update(ctx, env, reports.UpdateInput{Company: company, User: user, Task: r.ID, Report: &text})
		domaintest.WantError(t, err, 400, 110)
		name := "renamed"
		u, err := reports.Update(ctx, env, reports.UpdateInput{Company: company, User: user, Task: r.ID, Name: &name})
		if err != nil || u.Fields["name"] != "renamed" {
			t.Fatalf("rename: %v %v", u, err)
		}
		tags, err := reports.Tags(ctx, env, company)
		if err != nil || strings.Join(tags, ",") != "a,b" {
			t.Fatalf("tags %v %v", tags, err)
		}
		// Another type of task is not a report; another company's report is unknown.
		other := &store.Task{ID: ids.New(), Company: company, User: user, Name: "train", Type: "training", Status: tasks.Created}
		other.Normalize()
		if err := tasks.Create(ctx, env, company, other, tasks.RefChecks{}); err != nil {
			t.Fatal(err)
		}
		_, err = reports.Update(ctx, env, reports.UpdateInput{Company: company, User: user, Task: other.ID, Name: &name})
		domaintest.WantError(t, err, 400, 150)
		_, err = reports.Update(ctx, env, reports.UpdateInput{Company: "c2", User: user, Task: r.ID, Name: &name})
		domaintest.WantError(t, err, 400, 101)
	})
}
