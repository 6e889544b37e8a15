package store_test

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"testing"

	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// checkCountTables compares every count table with a recount of the
// records, and checks that no pause of the triggers outlived its move.
func checkCountTables(t *testing.T, db *store.DB, step string) {
	t.Helper()
	checkNameTables(t, db, step)
	if got, want := storedFacets(t, db), expectedFacets(t, db); !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: record_facets holds\n%v\nthe records give\n%v", step, got, want)
	}
	var paused int
	if err := db.Read().QueryRowContext(ctx, "SELECT count(*) FROM upkeep_pauses").Scan(&paused); err != nil || paused != 0 {
		t.Fatalf("%s: %d pauses left (%v)", step, paused, err)
	}
}

// mergeFixture stores tasks and models over projects pA, pB and none, of
// companies c1, c2 and "" (public), some archived, with names and facets.
func mergeFixture(t *testing.T, db *store.DB) {
	t.Helper()
	companies := []string{"c1", "c1", "", "c2"}
	projects := []string{"pA", "pA", "pB", ""}
	var tasks []*store.Task
	for i := 0; i < 24; i++ {
		tk := newTask(fmt.Sprintf("t%02d", i), companies[i%4], "n")
		tk.Project, tk.User = projects[i%3], fmt.Sprintf("u%d", i%5)
		tk.Tags = []string{fmt.Sprintf("tag%d", i%3)}
		if i%5 == 0 {
			tk.SystemTags = []string{store.ArchivedTag}
		}
		tk.Hyperparams = map[string]map[string]*store.ParamItem{"Args": {
			"lr":                    {Section: "Args", Name: "lr", Value: fmt.Sprint(i % 4)},
			fmt.Sprintf("p%d", i%3): {Section: "Args", Name: fmt.Sprintf("p%d", i%3), Value: "x"}}}
		tk.LastMetrics = map[string]map[string]*store.MetricSummary{"hm": {fmt.Sprintf("hv%d", i%2): {Metric: "m", Variant: fmt.Sprintf("v%d", i%2)}}}
		tasks = append(tasks, tk)
	}
	insertTasks(t, db, tasks...)
	mustTx(t, db, func(q store.Querier) error {
		for i := 0; i < 9; i++ {
			m := &store.Model{ID: fmt.Sprintf("m%02d", i), Company: companies[i%4], User: fmt.Sprintf("u%d", i%2), Name: "m",
				Project: projects[i%3], Tags: []string{fmt.Sprintf("mt%d", i%2)}, Created: jsonx.Now()}
			if i%4 == 1 {
				m.SystemTags = []string{store.ArchivedTag}
			}
			m.Normalize()
			if err := db.Models().Insert(ctx, q, m); err != nil {
				return err
			}
		}
		return nil
	})
}

// projectOf reads where each record of table is, as "id:project" (the
// column and the document must agree).
func projectOf(t *testing.T, db *store.DB, table string) []string {
	t.Helper()
	var out []string
	for _, r := range records(t, db, table) {
		var col *string
		if err := db.Read().QueryRowContext(ctx, "SELECT project FROM "+table+" WHERE id = ?", r.id).Scan(&col); err != nil {
			t.Fatal(err)
		}
		if col == nil {
			col = new(string)
		}
		if *col != r.project {
			t.Fatalf("%s %s: column project %q, document project %q", table, r.id, *col, r.project)
		}
		out = append(out, r.id+":"+r.project)
	}
	sort.Strings(out)
	return out
}

// record is what the tests compare of a task or model.
type record struct {
	id, company, project, user string
	archived                   bool
}

func records(t *testing.T, db *store.DB, table string) []record {
	t.Helper()
	var out []record
	if table == "tasks" {
		all, err := db.Tasks().Select(ctx, db.Read(), "1 = 1")
		if err != nil {
			t.Fatal(err)
		}
		for _, tk := range all {
			out = append(out, record{tk.ID, tk.Company, tk.Project, tk.User, slices.Contains(tk.SystemTags, store.ArchivedTag)})
		}
		return out
	}
	all, err := db.Models().Select(ctx, db.Read(), "1 = 1")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range all {
		out = append(out, record{m.ID, m.Company, m.Project, m.User, slices.Contains(m.SystemTags, store.ArchivedTag)})
	}
	return out
}

// MoveActiveContents moves exactly the active records of the companies in
// the project, and leaves every count table as a recount gives it.
func TestMoveActiveContents(t *testing.T) {
	cases := []struct {
		name      string
		table     string
		companies []string
		src, dst  string
	}{
		{"tasks to another project", "tasks", []string{"c1", ""}, "pA", "pB"},
		{"tasks to no project", "tasks", []string{"c1", ""}, "pA", ""},
		{"tasks of one company", "tasks", []string{"c2"}, "pA", "pB"},
		{"tasks of an empty project", "tasks", []string{"c1", ""}, "pC", "pB"},
		{"tasks into a project that holds some", "tasks", []string{"c1", ""}, "pB", "pA"},
		{"models to another project", "models", []string{"c1", ""}, "pA", "pB"},
		{"models to no project", "models", []string{"c1", "", "c2"}, "pB", ""},
	}
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				mustTx(t, db, func(q store.Querier) error {
					for _, s := range []string{"DELETE FROM tasks", "DELETE FROM models"} {
						if _, err := q.ExecContext(ctx, s); err != nil {
							return err
						}
					}
					return nil
				})
				mergeFixture(t, db)
				before := projectOf(t, db, c.table)
				want := 0
				for _, r := range records(t, db, c.table) {
					if r.project == c.src && slices.Contains(c.companies, r.company) && !r.archived {
						want++
					}
				}
				if want == 0 && c.src != "pC" {
					t.Fatal("the fixture has nothing to move")
				}
				var n int
				mustTx(t, db, func(q store.Querier) (err error) {
					n, err = db.MoveActiveContents(ctx, q, c.table, c.companies, c.src, c.dst)
					return err
				})
				if n != want {
					t.Errorf("moved %d, want %d", n, want)
				}
				changed := 0
				after := projectOf(t, db, c.table)
				for i := range before {
					if before[i] != after[i] {
						changed++
						if after[i] != before[i][:len(before[i])-len(c.src)]+c.dst {
							t.Errorf("%s became %s", before[i], after[i])
						}
					}
				}
				if changed != n {
					t.Errorf("%d records changed project, %d reported", changed, n)
				}
				checkCountTables(t, db, "after the move")
				// The triggers count the next writes again.
				mustTx(t, db, func(q store.Querier) error {
					if err := db.SetProject(ctx, q, c.table, []string{"t01", "m00"}, "pD"); err != nil {
						return err
					}
					_, err := db.DisassociateProject(ctx, q, c.table, []string{"pB"})
					return err
				})
				checkCountTables(t, db, "after later writes")
			})
		}
	})
}

// A move rolled back leaves neither the rows nor the counts nor a pause.
func TestMoveActiveContentsRollsBack(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		mergeFixture(t, db)
		before := projectOf(t, db, "tasks")
		err := db.Tx(ctx, func(q store.Querier) error {
			if _, err := db.MoveActiveContents(ctx, q, "tasks", []string{"c1", ""}, "pA", "pB"); err != nil {
				return err
			}
			return fmt.Errorf("abandoned")
		})
		if err == nil || err.Error() != "abandoned" {
			t.Fatalf("transaction: %v", err)
		}
		if after := projectOf(t, db, "tasks"); !reflect.DeepEqual(after, before) {
			t.Fatalf("rows moved by a rolled-back move: %v", after)
		}
		checkCountTables(t, db, "after the rollback")
		if _, err := db.MoveActiveContents(ctx, db.Write(), "projects", []string{"c1"}, "pA", "pB"); err == nil {
			t.Fatal("a move of a table that holds no project contents")
		}
	})
}

// The owners of a project's records are read from the "user" facet.
func TestRecordOwners(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		mergeFixture(t, db)
		cases := []struct {
			entity    string
			companies []string
			projects  []string
		}{
			{"tasks", []string{"c1"}, nil},
			{"tasks", []string{"c1", ""}, []string{"pB"}},
			{"tasks", []string{"c2"}, []string{"pA", "pB"}},
			{"tasks", []string{"c1"}, []string{}},
			{"tasks", []string{"c3"}, nil},
			{"models", []string{"c1", ""}, nil},
			{"models", []string{"c2"}, []string{"pB"}},
		}
		check := func(step string) {
			t.Helper()
			for _, c := range cases {
				want := []string{}
				for _, r := range records(t, db, c.entity) {
					if slices.Contains(c.companies, r.company) && (c.projects == nil || slices.Contains(c.projects, r.project)) &&
						!slices.Contains(want, r.user) {
						want = append(want, r.user)
					}
				}
				sort.Strings(want)
				got, err := db.RecordOwners(ctx, c.entity, c.companies, c.projects)
				if err != nil || !reflect.DeepEqual(got, want) {
					t.Errorf("%s: %s %v %v: %v, %v; want %v", step, c.entity, c.companies, c.projects, got, err, want)
				}
			}
		}
		check("stored")
		// A deleted task's owner goes when no other record of the scope has it.
		mustTx(t, db, func(q store.Querier) error {
			_, err := db.DeleteTasks(ctx, q, []string{"t02", "t14"})
			return err
		})
		check("after deletes")
		checkCountTables(t, db, "after deletes")
	})
}
