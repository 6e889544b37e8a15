package projects_test

import (
	"context"
	"testing"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/domain/domaintest"
	"github.com/trove-ml/trove/internal/projects"
	"github.com/trove-ml/trove/internal/store"
)

const company, user = "acme", "u1"

func create(t *testing.T, env *domain.Env, name string) string {
	t.Helper()
	id, err := projects.Create(context.Background(), env, projects.CreateInput{Company: company, User: user, Name: name})
	if err != nil {
		t.Fatalf("create %s: %v", name, err)
	}
	return id
}

func TestCreateMakesAncestorsAndRefusesTakenNames(t *testing.T) {
	domaintest.EachEnv(t, func(t *testing.T, env *domain.Env) {
		ctx := context.Background()
		id := create(t, env, " alpha / beta ")
		p, err := projects.Get(ctx, env, company, id)
		if err != nil {
			t.Fatal(err)
		}
		if p.Name != "alpha/beta" || p.Basename != "beta" || len(p.Path) != 1 || p.Parent != p.Path[0] {
			t.Fatalf("project %+v", p)
		}
		parent, err := projects.Get(ctx, env, company, p.Parent)
		if err != nil || parent.Name != "alpha" {
			t.Fatalf("parent %+v, %v", parent, err)
		}
		_, err = projects.Create(ctx, env, projects.CreateInput{Company: company, User: user, Name: "alpha/beta"})
		domaintest.WantError(t, err, 400, 801)
		_, err = projects.Create(ctx, env, projects.CreateInput{Company: company, User: user, Name: "//"})
		domaintest.WantError(t, err, 400, 407)
	})
}

func TestMoveRenamesTheSubtree(t *testing.T) {
	domaintest.EachEnv(t, func(t *testing.T, env *domain.Env) {
		ctx := context.Background()
		leaf := create(t, env, "top/mid/leaf")
		mid, err := projects.Get(ctx, env, company, mustParent(t, env, leaf))
		if err != nil {
			t.Fatal(err)
		}
		dest := "other"
		n, err := projects.Move(ctx, env, company, user, mid.ID, &dest)
		if err != nil || n != 2 {
			t.Fatalf("moved %d, %v", n, err)
		}
		p, _ := projects.Get(ctx, env, company, leaf)
		if p.Name != "other/mid/leaf" || len(p.Path) != 2 {
			t.Fatalf("leaf after move %+v", p)
		}
		_, err = projects.Move(ctx, env, company, user, mid.ID, &dest)
		domaintest.WantError(t, err, 400, 410)
	})
}

func mustParent(t *testing.T, env *domain.Env, id string) string {
	t.Helper()
	p, err := projects.Get(context.Background(), env, company, id)
	if err != nil {
		t.Fatal(err)
	}
	return p.Parent
}

func TestSetPublicRoundTrip(t *testing.T) {
	domaintest.EachEnv(t, func(t *testing.T, env *domain.Env) {
		ctx := context.Background()
		id := create(t, env, "shared")
		if n, err := projects.SetPublic(ctx, env, company, []string{id}, true); err != nil || n != 1 {
			t.Fatalf("make public: %d, %v", n, err)
		}
		p, _ := projects.Get(ctx, env, company, id)
		if p.Company != "" || p.CompanyOrigin != company {
			t.Fatalf("public project %+v", p)
		}
		// Already public, and another company never owned it.
		_, err := projects.SetPublic(ctx, env, company, []string{id}, true)
		domaintest.WantError(t, err, 400, 401)
		_, err = projects.SetPublic(ctx, env, "other", []string{id}, false)
		domaintest.WantError(t, err, 400, 401)
		if n, err := projects.SetPublic(ctx, env, company, []string{id}, false); err != nil || n != 1 {
			t.Fatalf("make private: %d, %v", n, err)
		}
		p, _ = projects.Get(ctx, env, company, id)
		if p.Company != company || p.CompanyOrigin != "" {
			t.Fatalf("private project %+v", p)
		}
	})
}

// A store failure is a server error, not "invalid project id" (the old
// projects copy of setPublic answered 400 for it).
func TestSetPublicKeepsStoreFailuresServerErrors(t *testing.T) {
	domaintest.EachEnv(t, func(t *testing.T, env *domain.Env) {
		id := create(t, env, "doomed")
		env.DB.Close()
		_, err := projects.SetPublic(context.Background(), env, company, []string{id}, true)
		if err == nil {
			t.Fatal("no error from a closed store")
		}
		if ae := apierr.As(err); ae != nil && ae.Code < 500 {
			t.Fatalf("store failure answered as %d/%d: %v", ae.Code, ae.Subcode, err)
		}
	})
}

func TestMergeMovesActiveContentsAndChildren(t *testing.T) {
	domaintest.EachEnv(t, func(t *testing.T, env *domain.Env) {
		ctx := context.Background()
		child := create(t, env, "src/child")
		src := mustParent(t, env, child)
		dst := create(t, env, "dst")
		for id, sys := range map[string][]string{"live": {}, "old": {store.ArchivedTag}} {
			m := &store.Model{ID: id, Company: company, User: user, Name: id, Project: src, SystemTags: sys}
			m.Normalize()
			if err := env.DB.Models().Insert(ctx, env.DB.Write(), m); err != nil {
				t.Fatal(err)
			}
		}
		res, err := projects.Merge(ctx, env, company, src, dst)
		if err != nil || res.Entities != 1 || res.Projects != 1 {
			t.Fatalf("merge %+v, %v", res, err)
		}
		if p, _ := projects.Get(ctx, env, company, child); p.Name != "dst/child" || p.Parent != dst {
			t.Fatalf("child after merge %+v", p)
		}
		live, _ := env.DB.Models().Get(ctx, env.DB.Read(), "live")
		if live.Project != dst {
			t.Fatalf("active model stayed in %q", live.Project)
		}
		_, err = projects.Get(ctx, env, company, src)
		domaintest.WantError(t, err, 400, 401)
		_, err = projects.Merge(ctx, env, company, dst, child)
		domaintest.WantError(t, err, 400, 412)
	})
}
