package store_test

import (
	"fmt"
	"math/rand"
	"reflect"
	"slices"
	"sort"
	"testing"

	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// expectedFacets counts the facets of the stored tasks and models, as
// record_facets should hold them: "[entity company project facet value
// archived]" -> records.
func expectedFacets(t *testing.T, db *store.DB) map[string]int {
	t.Helper()
	out := map[string]int{}
	add := func(entity, company, project string, systemTags []string, facet string, values ...string) {
		archived := 0
		if slices.Contains(systemTags, store.ArchivedTag) {
			archived = 1
		}
		for _, v := range values {
			if v != "" || facet == "tags" || facet == "system_tags" || facet == "user" {
				out[fmt.Sprint([]any{entity, company, project, facet, v, archived})]++
			}
		}
	}
	tasks, err := db.Tasks().Select(ctx, db.Read(), "1 = 1")
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range tasks {
		add("tasks", tk.Company, tk.Project, tk.SystemTags, "tags", tk.Tags...)
		add("tasks", tk.Company, tk.Project, tk.SystemTags, "system_tags", tk.SystemTags...)
		add("tasks", tk.Company, tk.Project, tk.SystemTags, "type", tk.Type)
		add("tasks", tk.Company, tk.Project, tk.SystemTags, "parent", tk.Parent)
		add("tasks", tk.Company, tk.Project, tk.SystemTags, "user", tk.User)
	}
	models, err := db.Models().Select(ctx, db.Read(), "1 = 1")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range models {
		add("models", m.Company, m.Project, m.SystemTags, "tags", m.Tags...)
		add("models", m.Company, m.Project, m.SystemTags, "system_tags", m.SystemTags...)
		add("models", m.Company, m.Project, m.SystemTags, "user", m.User)
	}
	return out
}

// storedFacets reads record_facets' rows that some record holds, and
// fails on a count below 0.
func storedFacets(t *testing.T, db *store.DB) map[string]int {
	t.Helper()
	rows, err := db.Read().QueryContext(ctx, "SELECT entity, company, project, facet, value, archived, records FROM record_facets WHERE records <> 0")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var entity, company, project, facet, value string
		var archived, n int
		if err := rows.Scan(&entity, &company, &project, &facet, &value, &archived, &n); err != nil {
			t.Fatal(err)
		}
		if n < 0 {
			t.Fatalf("record_facets: %s %s %s %s %q at %d", entity, company, project, facet, value, n)
		}
		out[fmt.Sprint([]any{entity, company, project, facet, value, archived})] = n
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// randomFacets gives a record tags and system tags out of small pools
// (duplicates and "archived" among them).
func randomFacets(r *rand.Rand) (tags, systemTags []string) {
	tags, systemTags = []string{}, []string{}
	for i := r.Intn(4); i > 0; i-- {
		tags = append(tags, fmt.Sprintf("tag%d", r.Intn(3)))
	}
	for i := r.Intn(3); i > 0; i-- {
		systemTags = append(systemTags, []string{store.ArchivedTag, "hidden", "pipeline"}[r.Intn(3)])
	}
	return tags, systemTags
}

// record_facets follows every way tasks and models are written: inserts,
// updates of tags, system tags (archiving), type, parent and project,
// bulk moves, merges, a project's disassociation, multi-row rewrites
// where only some rows change facets, and deletes, several per
// transaction.
func TestRecordFacetsFollowWrites(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		r := rand.New(rand.NewSource(11))
		projects := []string{"", "pA", "pB"}
		companies := []string{"c1", "c2", ""}
		types := []string{"training", "testing", "inference"}
		tasks := map[string]*store.Task{}
		models := map[string]*store.Model{}
		for step := 0; step < 150; step++ {
			var taskIDs, modelIDs []string
			for id := range tasks {
				taskIDs = append(taskIDs, id)
			}
			for id := range models {
				modelIDs = append(modelIDs, id)
			}
			sort.Strings(taskIDs)
			sort.Strings(modelIDs)
			var op string
			mustTx(t, db, func(q store.Querier) error {
				for n := 1 + r.Intn(3); n > 0; n-- {
					switch k := r.Intn(14); {
					case k < 3 || len(taskIDs) == 0:
						op += " insert task"
						tk := newTask(fmt.Sprintf("t%03d-%d", step, n), companies[r.Intn(len(companies))], "n")
						tk.Project, tk.Type = projects[r.Intn(len(projects))], types[r.Intn(len(types))]
						tk.Tags, tk.SystemTags = randomFacets(r)
						if len(taskIDs) > 0 && r.Intn(2) == 0 {
							tk.Parent = taskIDs[r.Intn(len(taskIDs))]
						}
						tasks[tk.ID] = tk
						taskIDs = append(taskIDs, tk.ID)
						if err := db.Tasks().Insert(ctx, q, tk); err != nil {
							return err
						}
					case k < 6:
						op += " update task"
						tk := tasks[taskIDs[r.Intn(len(taskIDs))]]
						switch r.Intn(5) {
						case 0:
							tk.Tags, tk.SystemTags = randomFacets(r)
						case 1:
							tk.Type = types[r.Intn(len(types))]
						case 2:
							tk.Parent = taskIDs[r.Intn(len(taskIDs))]
						case 3:
							tk.Project = projects[r.Intn(len(projects))]
						default:
							tk.Name += "x" // no facet changes
						}
						if err := db.Tasks().Update(ctx, q, tk); err != nil {
							return err
						}
					case k < 7:
						op += " bulk move"
						dst := projects[1+r.Intn(2)]
						var moved []string
						for _, id := range taskIDs[:min(4, len(taskIDs))] {
							tasks[id].Project = dst
							moved = append(moved, id)
						}
						if err := db.SetProject(ctx, q, "tasks", moved, dst); err != nil {
							return err
						}
					case k < 8:
						op += " disassociate"
						p := projects[1+r.Intn(2)]
						for _, tk := range tasks {
							if tk.Project == p {
								tk.Project = ""
							}
						}
						for _, m := range models {
							if m.Project == p {
								m.Project = ""
							}
						}
						for _, table := range []string{"tasks", "models"} {
							if _, err := db.DisassociateProject(ctx, q, table, []string{p}); err != nil {
								return err
							}
						}
					case k < 9:
						op += " delete tasks"
						var gone []string
						for _, id := range taskIDs[:min(1+r.Intn(3), len(taskIDs))] {
							gone = append(gone, id)
							delete(tasks, id)
						}
						taskIDs = taskIDs[len(gone):]
						if _, err := db.DeleteTasks(ctx, q, gone); err != nil {
							return err
						}
					case k < 11 || len(modelIDs) == 0:
						op += " insert or update model"
						m := &store.Model{ID: fmt.Sprintf("m%03d-%d", step, n), Company: companies[r.Intn(len(companies))], User: "u1",
							Name: "m", Created: jsonx.Now()}
						update := len(modelIDs) > 0 && r.Intn(2) == 0
						if update {
							m = models[modelIDs[r.Intn(len(modelIDs))]]
						}
						m.Project = projects[r.Intn(len(projects))]
						m.Tags, m.SystemTags = randomFacets(r)
						m.Normalize()
						models[m.ID] = m
						if update {
							if err := db.Models().Update(ctx, q, m); err != nil {
								return err
							}
						} else {
							modelIDs = append(modelIDs, m.ID)
							if err := db.Models().Insert(ctx, q, m); err != nil {
								return err
							}
						}
					case k < 12:
						op += " merge"
						src, dst := projects[1+r.Intn(2)], projects[r.Intn(3)]
						if src == dst {
							dst = ""
						}
						scope := companies[:1+r.Intn(len(companies))]
						for _, tk := range tasks {
							if tk.Project == src && slices.Contains(scope, tk.Company) && !slices.Contains(tk.SystemTags, store.ArchivedTag) {
								tk.Project = dst
							}
						}
						for _, m := range models {
							if m.Project == src && slices.Contains(scope, m.Company) && !slices.Contains(m.SystemTags, store.ArchivedTag) {
								m.Project = dst
							}
						}
						for _, table := range []string{"tasks", "models"} {
							if _, err := db.MoveActiveContents(ctx, q, table, scope, src, dst); err != nil {
								return err
							}
						}
					case k < 13:
						// one statement rewriting several tasks (the events
						// writer's), some changing facets and some not
						op += " rewrite tasks"
						var recs []*store.EncodedRecord
						for _, id := range taskIDs[:min(2+r.Intn(4), len(taskIDs))] {
							tk := tasks[id]
							if r.Intn(2) == 0 {
								tk.Tags, tk.SystemTags = randomFacets(r)
							} else {
								tk.Name += "y"
							}
							e, err := db.Tasks().Encode(tk)
							if err != nil {
								return err
							}
							recs = append(recs, e)
						}
						if _, err := db.Tasks().WriteEncodedVersions(ctx, q, recs); err != nil {
							return err
						}
					default:
						op += " delete model"
						id := modelIDs[0]
						modelIDs = modelIDs[1:]
						delete(models, id)
						if _, err := db.DeleteModels(ctx, q, []string{id}); err != nil {
							return err
						}
					}
				}
				return nil
			})
			if got, want := storedFacets(t, db), expectedFacets(t, db); !reflect.DeepEqual(got, want) {
				t.Fatalf("step %d (%s): record_facets holds\n%v\nthe records give\n%v", step, op, got, want)
			}
		}
	})
}

// The reads select by entity, company, project (an empty one: no project) and
// archived state, and give each value once, sorted.
func TestRecordFacetReads(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		mk := func(id, company, project, typ, parent string, tags []string, archived bool) *store.Task {
			tk := newTask(id, company, "n")
			tk.Project, tk.Type, tk.Parent, tk.Tags = project, typ, parent, tags
			if archived {
				tk.SystemTags = []string{store.ArchivedTag}
			}
			return tk
		}
		insertTasks(t, db, mk("a", "c1", "p1", "training", "", []string{"x", "y"}, false),
			mk("b", "c1", "p2", "testing", "a", []string{"y", "z"}, true),
			mk("c", "c1", "", "inference", "a", []string{"w"}, false),
			mk("d", "c2", "p1", "monitor", "c", []string{"v"}, false))
		yes, no := true, false
		cases := []struct {
			scope store.FacetScope
			facet string
			want  []string
		}{
			{store.FacetScope{Entity: "tasks", Companies: []string{"c1"}}, "tags", []string{"w", "x", "y", "z"}},
			{store.FacetScope{Entity: "tasks", Companies: []string{"c1"}, Projects: []string{"p1"}}, "tags", []string{"x", "y"}},
			{store.FacetScope{Entity: "tasks", Companies: []string{"c1"}, NoProject: true}, "tags", []string{"w"}},
			{store.FacetScope{Entity: "tasks", Companies: []string{"c1", "c2"}}, "type", []string{"inference", "monitor", "testing", "training"}},
			{store.FacetScope{Entity: "tasks", Companies: []string{"c1"}, Archived: &no}, "parent", []string{"a"}},
			{store.FacetScope{Entity: "tasks", Companies: []string{"c1"}, Archived: &yes}, "parent", []string{"a"}},
			{store.FacetScope{Entity: "tasks", Companies: []string{"c1"}, Archived: &yes}, "system_tags", []string{store.ArchivedTag}},
			{store.FacetScope{Entity: "tasks", Companies: []string{"c3"}}, "tags", []string{}},
			{store.FacetScope{Entity: "models", Companies: []string{"c1"}}, "tags", []string{}},
		}
		for _, c := range cases {
			got, err := db.FacetValues(ctx, db.Read(), c.scope, c.facet)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("%+v %s: got %v, want %v", c.scope, c.facet, got, c.want)
			}
		}
		// A delete leaves a row at 0, which reads skip.
		mustTx(t, db, func(q store.Querier) error { _, err := db.DeleteTasks(ctx, q, []string{"d"}); return err })
		got, err := db.FacetValues(ctx, db.Read(), store.FacetScope{Entity: "tasks", Companies: []string{"c2"}}, "type")
		if err != nil || len(got) != 0 {
			t.Fatalf("after the delete: %v %v", got, err)
		}
	})
}
