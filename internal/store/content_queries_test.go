package store_test

import (
	"context"
	"reflect"
	"sort"
	"testing"

	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// The named queries over project contents (projects' stats, task queries,
// merges, tags, frameworks), on both backends.

const co = "acme"

func putModel(t *testing.T, db *store.DB, id, project, framework string, systemTags ...string) {
	t.Helper()
	m := &store.Model{ID: id, Company: co, User: "u1", Name: id, Project: project, Tags: []string{"t-" + id},
		SystemTags: systemTags, Created: jsonx.Now()}
	if framework != "" {
		m.Framework = &framework
	}
	m.Normalize()
	if err := db.Models().Insert(context.Background(), db.Write(), m); err != nil {
		t.Fatal(err)
	}
}

func putProject(t *testing.T, db *store.DB, id string) {
	t.Helper()
	p := &store.Project{ID: id, Company: co, User: "u1", Name: id, Basename: id, Tags: []string{}, SystemTags: []string{}, Path: []string{}}
	if err := db.Projects().Insert(context.Background(), db.Write(), p); err != nil {
		t.Fatal(err)
	}
}

func TestContentQueries(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		putProject(t, db, "p1")
		putModel(t, db, "m1", "p1", "torch")
		putModel(t, db, "m2", "p1", "keras", store.ArchivedTag)
		putModel(t, db, "m3", "", "torch")

		ids, err := db.ActiveIDsInProject(ctx, db.Read(), "models", "p1")
		if err != nil || !reflect.DeepEqual(ids, []string{"m1"}) {
			t.Fatalf("active ids %v, %v", ids, err)
		}
		for _, c := range []struct {
			archived *bool
			want     int
		}{{nil, 2}, {ptr(true), 1}, {ptr(false), 1}} {
			if n, err := db.CountProjectModels(ctx, co, "p1", c.archived); err != nil || n != c.want {
				t.Errorf("count archived=%v: %d, %v", c.archived, n, err)
			}
		}
		var scanned []string
		err = db.ScanDocs(ctx, store.DocScan{Table: "models", Companies: []string{co}, Projects: []string{"p1"}, Archived: ptr(true)},
			func(doc []byte) error { scanned = append(scanned, string(doc)); return nil })
		if err != nil || len(scanned) != 1 {
			t.Fatalf("scan of archived p1 models: %d docs, %v", len(scanned), err)
		}
		n := 0
		err = db.ScanDocs(ctx, store.DocScan{Table: "models", Companies: []string{co}, NoProject: true}, func([]byte) error { n++; return nil })
		if err != nil || n != 1 {
			t.Fatalf("scan without project: %d, %v", n, err)
		}
		if err := db.ScanDocs(ctx, store.DocScan{Table: "projects"}, nil); err == nil {
			t.Fatal("scan of a table that holds no project contents")
		}
		fws, err := db.ModelFrameworks(ctx, []string{co, ""}, nil)
		if err != nil || !reflect.DeepEqual(fws, []string{"keras", "torch"}) {
			t.Fatalf("frameworks %v, %v", fws, err)
		}
		if fws, _ = db.ModelFrameworks(ctx, []string{co}, []string{"nope"}); len(fws) != 0 {
			t.Fatalf("frameworks of an empty project %v", fws)
		}
		tags, err := db.DistinctTags(ctx, store.TagScope{Tables: []string{"models"}, Company: co, Projects: []string{"p1"}}, "tags")
		if err != nil || !reflect.DeepEqual(tags, []string{"t-m1", "t-m2"}) {
			t.Fatalf("tags %v, %v", tags, err)
		}
		users, err := db.ProjectsOfUsers(ctx, co, []string{"u1", "u2"})
		if err != nil || !reflect.DeepEqual(users, []string{"p1"}) {
			t.Fatalf("projects of users %v, %v", users, err)
		}
	})
}

func TestGetEachForUpdateKeepsOrderAndMissing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		putModel(t, db, "a1", "", "")
		putModel(t, db, "b1", "", "")
		err := db.Tx(context.Background(), func(q store.Querier) error {
			found, missing, err := db.Models().GetEachForUpdate(context.Background(), q, []string{"b1", "zz", "a1"}, co)
			if err != nil {
				return err
			}
			if len(found) != 2 || found[0].ID != "b1" || found[1].ID != "a1" || !reflect.DeepEqual(missing, []string{"zz"}) {
				t.Errorf("found %d (%v), missing %v", len(found), found, missing)
			}
			many, err := db.Models().GetMany(context.Background(), q, []string{"a1", "b1", "zz"})
			got := []string{}
			for _, m := range many {
				got = append(got, m.ID)
			}
			sort.Strings(got)
			if !reflect.DeepEqual(got, []string{"a1", "b1"}) {
				t.Errorf("get many %v", got)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}
