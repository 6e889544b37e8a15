package store

import (
	"context"
	"strings"

	"github.com/trove-ml/trove/internal/jsonx"
)

// Project is a stored project document, in its API shape.
type Project struct {
	ID                       string     `json:"id"`
	Company                  string     `json:"company"`
	User                     string     `json:"user"`
	Name                     string     `json:"name"`
	Basename                 string     `json:"basename"`
	Description              string     `json:"description"`
	Created                  jsonx.Time `json:"created"`
	Tags                     []string   `json:"tags"`
	SystemTags               []string   `json:"system_tags"`
	LastUpdate               jsonx.Time `json:"last_update"`
	Featured                 int        `json:"featured"`
	DefaultOutputDestination *string    `json:"default_output_destination,omitempty"`
	Parent                   string     `json:"parent,omitempty"`
	// Path lists the ancestor ids, root first.
	Path          []string `json:"path"`
	CompanyOrigin string   `json:"company_origin,omitempty"`
	LogoURL       string   `json:"logo_url,omitempty"`
	// MLflow is what an experiment made or changed through the MLflow API
	// has beside the project's own fields (mlflow.go).
	MLflow *MLflowExperiment `json:"mlflow,omitempty"`
}

// RecordID implements Record.
func (p *Project) RecordID() string { return p.ID }

// ColumnValues implements Record.
func (p *Project) ColumnValues() []any {
	return []any{p.Company, p.Name, p.Basename, nullable(p.Parent), p.User, p.Created.Millis(), p.LastUpdate.Millis(),
		JSONArray(p.Tags), JSONArray(p.SystemTags)}
}

// Projects is the projects table.
func (db *DB) Projects() *Table[Project, *Project] {
	return &Table[Project, *Project]{DB: db, Name: "projects",
		Cols: []string{"company", "name", "basename", "parent", "user_id", "created", "last_update", "tags", "system_tags"}}
}

// nullable maps "" to SQL NULL.
func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// ProjectByName finds a project by full name among companies.
func (db *DB) ProjectByName(ctx context.Context, q Querier, name string, companies ...string) (*Project, error) {
	list, err := db.Projects().Select(ctx, q, "name = ? AND company IN ("+Placeholders(len(companies))+")",
		append([]any{name}, Args(companies)...)...)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, ErrNotFound
	}
	// Prefer the caller's own over a public one.
	for _, p := range list {
		if p.Company != "" {
			return p, nil
		}
	}
	return list[0], nil
}

// ProjectTree is the id → parent map of the projects of some companies.
type ProjectTree struct {
	Parent   map[string]string
	Name     map[string]string
	Children map[string][]string
	Hidden   map[string]bool
}

// LoadProjectTree loads id, parent and name of every project visible to companies.
func (db *DB) LoadProjectTree(ctx context.Context, q Querier, companies ...string) (*ProjectTree, error) {
	rows, err := q.QueryContext(ctx, "SELECT id, COALESCE(parent, ''), name, CASE WHEN "+SystemTagged(db.D)+" THEN 1 ELSE 0 END FROM projects WHERE company IN ("+Placeholders(len(companies))+")",
		append([]any{"hidden"}, Args(companies)...)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	t := &ProjectTree{Parent: map[string]string{}, Name: map[string]string{}, Children: map[string][]string{}, Hidden: map[string]bool{}}
	for rows.Next() {
		var id, parent, name string
		var hidden int
		if err := rows.Scan(&id, &parent, &name, &hidden); err != nil {
			return nil, err
		}
		t.Hidden[id] = hidden == 1
		t.Parent[id], t.Name[id] = parent, name
		t.Children[parent] = append(t.Children[parent], id)
	}
	return t, rows.Err()
}

// Descendants returns the ids under id at any depth (not id itself).
func (t *ProjectTree) Descendants(id string) []string {
	var out []string
	stack := append([]string{}, t.Children[id]...)
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		out = append(out, n)
		stack = append(stack, t.Children[n]...)
	}
	return out
}

// WithDescendants returns ids plus all their descendants, without duplicates.
func (t *ProjectTree) WithDescendants(ids []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, id := range ids {
		for _, x := range append([]string{id}, t.Descendants(id)...) {
			if !seen[x] {
				seen[x] = true
				out = append(out, x)
			}
		}
	}
	return out
}

// SplitProjectName normalises a full project name into its segments.
func SplitProjectName(name string) []string {
	var segs []string
	for _, s := range strings.Split(name, "/") {
		if s = strings.TrimSpace(s); s != "" {
			segs = append(segs, s)
		}
	}
	return segs
}

// ProjectContents counts the tasks and models in a set of projects, all
// and those without the system tag archived.
type ProjectContents struct {
	Tasks, NonArchivedTasks, Models, NonArchivedModels int
}

// CountProjectContents counts the tasks and models in the projects.
func (db *DB) CountProjectContents(ctx context.Context, q Querier, projects []string) (ProjectContents, error) {
	var cc ProjectContents
	if len(projects) == 0 {
		return cc, nil
	}
	in := Placeholders(len(projects))
	for _, t := range []struct {
		table      string
		all, alive *int
	}{{"tasks", &cc.Tasks, &cc.NonArchivedTasks}, {"models", &cc.Models, &cc.NonArchivedModels}} {
		err := q.QueryRowContext(ctx, "SELECT COUNT(*), COALESCE(SUM(CASE WHEN "+db.D.ArrayHas("system_tags")+" THEN 0 ELSE 1 END), 0) FROM "+
			t.table+" WHERE project IN ("+in+")", append([]any{"archived"}, Args(projects)...)...).Scan(t.all, t.alive)
		if err != nil {
			return cc, err
		}
	}
	return cc, nil
}

// DeleteProjects deletes the project rows and returns how many it deleted.
func (db *DB) DeleteProjects(ctx context.Context, q Querier, ids []string) (int, error) {
	return deleteByID(ctx, q, "projects", ids)
}
