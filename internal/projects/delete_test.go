package projects_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/projects"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

var ctx = context.Background()

type removed struct{ urls []string }

func (r *removed) RemoveStoredFiles(_ context.Context, _ string, urls []string) {
	r.urls = append(r.urls, urls...)
}

// fixture stores project p (child pc) of company c1 with a task holding
// an artifact in p, an archived model in pc and a task outside.
func fixture(t *testing.T, d *domain.Env) {
	t.Helper()
	now := d.Time()
	uri := "file:///a/out.bin"
	err := d.DB.Tx(ctx, func(q store.Querier) error {
		for _, p := range []*store.Project{{ID: "p", Name: "p"}, {ID: "pc", Name: "p/c", Parent: "p"}} {
			p.Company, p.User, p.Basename, p.Created, p.LastUpdate = "c1", "u1", p.Name, now, now
			p.Tags, p.SystemTags, p.Path = []string{}, []string{}, []string{}
			if err := d.DB.Projects().Insert(ctx, q, p); err != nil {
				return err
			}
		}
		for _, tk := range []*store.Task{{ID: "in", Project: "p"}, {ID: "out"}} {
			tk.Company, tk.User, tk.Name, tk.Type, tk.Status, tk.Created, tk.LastUpdate, tk.LastChange = "c1", "u1", tk.ID, "training", "created", now, now, now
			tk.Normalize()
			tk.Execution.Artifacts = []*store.Artifact{{Key: "o", Type: "t", URI: &uri}}
			if err := d.DB.Tasks().Insert(ctx, q, tk); err != nil {
				return err
			}
		}
		return d.DB.Models().Insert(ctx, q, &store.Model{ID: "m", Company: "c1", User: "u1", Name: "m", Project: "pc", URI: "file:///m.pt",
			SystemTags: []string{"archived"}, Created: now, LastUpdate: now, LastChange: now})
	})
	if err != nil {
		t.Fatal(err)
	}
}

func exists[S any, P interface {
	*S
	store.Record
}](t *testing.T, table *store.Table[S, P], id string) bool {
	_, err := table.Get(ctx, table.DB.Read(), id)
	return err == nil
}

// TestDeleteProject: contents block without force; with delete_contents
// the project tree goes with its tasks and models and their files after
// the commit; without it the contents only leave the projects.
func TestDeleteProject(t *testing.T) {
	storetest.Run(t, true, func(t *testing.T, backend string) {
		for _, contents := range []bool{true, false} {
			db := storetest.Open(t, backend)
			files := &removed{}
			d := &domain.Env{DB: db, Now: func() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }, Files: files}
			fixture(t, d)
			r := projects.DeleteRequest{Company: "c1", Project: "p", DeleteContents: contents, DeleteFiles: true}
			if _, err := projects.DeleteProject(ctx, d, r); !apierr.Is(err, 400, 402) {
				t.Fatalf("delete of a project with a task: %v", err)
			}
			r.Force = true
			res, err := projects.DeleteProject(ctx, d, r)
			if err != nil {
				t.Fatal(err)
			}
			if res.Deleted != 2 || exists(t, db.Projects(), "pc") || !exists(t, db.Tasks(), "out") {
				t.Fatalf("deleted %+v", res)
			}
			if contents {
				if res.DeletedTasks != 1 || res.DeletedModels != 1 || exists(t, db.Tasks(), "in") || exists(t, db.Models(), "m") {
					t.Fatalf("contents: %+v", res)
				}
				slices.Sort(files.urls)
				if !slices.Equal(files.urls, []string{"file:///a/out.bin", "file:///m.pt"}) {
					t.Fatalf("removed files %v", files.urls)
				}
			} else {
				tk, err := db.Tasks().Get(ctx, db.Read(), "in")
				if err != nil || tk.Project != "" || res.DisassociatedTasks != 1 || res.URLs != nil || len(files.urls) != 0 {
					t.Fatalf("disassociated: %+v %v %+v", tk, err, res)
				}
			}
		}
	})
}
