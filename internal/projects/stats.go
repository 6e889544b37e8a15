package projects

import (
	"bytes"
	"context"
	"encoding/json"
	"sort"
	"time"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

// StatsStates reads stats_for_state (or tasks_state, named by field):
// absent = active, null = both.
func StatsStates(field string, raw json.RawMessage) ([]string, error) {
	if len(raw) == 0 {
		return []string{"active"}, nil
	}
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return []string{"active", "archived"}, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil || (s != "active" && s != "archived") {
		return nil, apierr.Validation(field, "must be active, archived or null")
	}
	return []string{s}, nil
}

// archivedFilter is the row condition of a state list: nil = both.
func archivedFilter(states []string) *bool {
	if len(states) != 1 {
		return nil
	}
	archived := states[0] == "archived"
	return &archived
}

// StatsOptions say which statistics a projects list adds to its items.
type StatsOptions struct {
	// Stats adds stats (per state) and sub_projects.
	Stats bool
	// Own adds own_tasks and own_models.
	Own bool
	// States are "active" and/or "archived".
	States []string
	// WithChildren counts the tasks of subprojects too.
	WithChildren bool
	// Children narrows what is counted to one kind of children; Allowed,
	// when set, are the only subprojects that count (those holding such
	// children, and their ancestors).
	Children ChildrenFilter
	Allowed  []string
	// TaskFilter (include_stats_filter) selects the tasks counted; it
	// takes the place of the children type's own filter.
	TaskFilter map[string]json.RawMessage
}

// StateStats are the task statistics of one state of a project.
type StateStats struct {
	StatusCount       map[string]int `json:"status_count"`
	TotalTasks        int            `json:"total_tasks"`
	TotalRuntime      int64          `json:"total_runtime"`
	CompletedTasks24h int            `json:"completed_tasks_24h"`
	LastTaskRun       *string        `json:"last_task_run"`
	lastRun           time.Time
}

func newStateStats() *StateStats {
	m := map[string]int{}
	for _, s := range taskdom.Statuses {
		m[s] = 0
	}
	return &StateStats{StatusCount: m}
}

// addStats adds the asked statistics to list items. Hidden subprojects
// count only with searchHidden or a children type; datasets are counted
// as projects, everything else as tasks.
func addStats(ctx context.Context, env *domain.Env, company string, items []map[string]any, o StatsOptions, searchHidden bool) error {
	if len(items) == 0 || (!o.Stats && !o.Own) {
		return nil
	}
	db := env.DB
	tree, err := db.LoadProjectTree(ctx, db.Read(), domain.Visible(company)...)
	if err != nil {
		return err
	}
	withHidden := searchHidden || (o.Children.Type != "" && len(o.TaskFilter) == 0)
	children := subprojects(tree, o.Allowed, withHidden)
	scope := map[string][]string{}
	var all []string
	for _, it := range items {
		id := idOf(it)
		ids := []string{id}
		if o.WithChildren {
			ids = append(ids, children(id)...)
		}
		scope[id] = ids
		all = append(all, ids...)
	}
	if o.Children.Type == ChildrenDataset {
		return addDatasetCounts(ctx, env, company, items, o, scope, all, children)
	}
	rs := store.ContentScope{Companies: domain.Visible(company), Projects: all}
	ts, err := o.Children.taskScope(db.D)
	if len(o.TaskFilter) > 0 {
		ts, err = statsFilterScope(db.D, o.TaskFilter)
	}
	if err != nil {
		return err
	}
	if ts != nil {
		rs.SystemTag, rs.Types, rs.Cond, rs.CondArgs = ts.SystemTag, ts.Types, ts.Cond, ts.CondArgs
	}
	rows, err := db.ScopedTaskRows(ctx, rs)
	if err != nil {
		return err
	}
	byProject := map[string][]store.ProjectTaskRow{}
	for _, r := range rows {
		byProject[r.Project] = append(byProject[r.Project], r)
	}
	now := env.Now()
	for _, it := range items {
		id := idOf(it)
		if o.Stats {
			it["stats"] = stateStatsOf(scope[id], byProject, o.States, now)
			it["sub_projects"] = subprojectList(tree, children(id))
		}
		if o.Own {
			nt := 0
			for _, r := range byProject[id] {
				if stateOf(r.Archived, o.States) {
					nt++
				}
			}
			nm := 0
			// Models have no type: a count of tasks of some types (the
			// pipeline and report views) owns none.
			if !filtersType(o) {
				if nm, err = db.CountProjectModels(ctx, company, id, archivedFilter(o.States)); err != nil {
					return err
				}
			}
			it["own_tasks"], it["own_models"] = nt, nm
		}
	}
	return nil
}

// filtersType reports whether the statistics count tasks of some types.
func filtersType(o StatsOptions) bool {
	_, typed := o.TaskFilter["type"]
	return typed || (len(o.TaskFilter) == 0 && o.Children.Type != "")
}

// subprojects returns the function listing the subprojects of a project
// that count: not hidden unless withHidden, and among allowed when set.
func subprojects(tree *store.ProjectTree, allowed []string, withHidden bool) func(id string) []string {
	var ok map[string]bool
	if allowed != nil {
		ok = map[string]bool{}
		for _, id := range allowed {
			ok[id] = true
		}
	}
	return func(id string) []string {
		var out []string
		for _, d := range tree.Descendants(id) {
			if (tree.Hidden[d] && !withHidden) || (ok != nil && !ok[d]) {
				continue
			}
			out = append(out, d)
		}
		return out
	}
}

// subprojectList is sub_projects: {id, name} sorted by name.
func subprojectList(tree *store.ProjectTree, ids []string) []map[string]any {
	subs := []map[string]any{}
	for _, d := range ids {
		subs = append(subs, map[string]any{"id": d, "name": tree.Name[d]})
	}
	sort.Slice(subs, func(a, b int) bool { return subs[a]["name"].(string) < subs[b]["name"].(string) })
	return subs
}

// stateStatsOf sums the task rows of the projects per state.
func stateStatsOf(projects []string, byProject map[string][]store.ProjectTaskRow, states []string, now time.Time) map[string]*StateStats {
	out := map[string]*StateStats{}
	for _, st := range states {
		out[st] = newStateStats()
	}
	for _, pid := range projects {
		for _, r := range byProject[pid] {
			st := "active"
			if r.Archived {
				st = "archived"
			}
			if ss := out[st]; ss != nil {
				ss.add(r, now)
			}
		}
	}
	for _, ss := range out {
		if !ss.lastRun.IsZero() {
			v := jsonx.Time{Time: ss.lastRun}.Format()
			ss.LastTaskRun = &v
		}
	}
	return out
}

func stateOf(archived bool, states []string) bool {
	for _, s := range states {
		if (s == "archived") == archived {
			return true
		}
	}
	return false
}

func (ss *StateStats) add(r store.ProjectTaskRow, now time.Time) {
	ss.StatusCount[r.Status]++
	ss.TotalTasks++
	if !r.Started.IsZero() && !r.Completed.IsZero() && r.Completed.After(r.Started.Time) {
		ss.TotalRuntime += int64(r.Completed.Sub(r.Started.Time) / time.Second)
	}
	if !r.Completed.IsZero() && now.Sub(r.Completed.Time) <= 24*time.Hour &&
		r.Status != taskdom.Queued && r.Status != taskdom.InProgress && r.Status != taskdom.Failed {
		ss.CompletedTasks24h++
	}
	if !r.Started.IsZero() && r.Started.After(ss.lastRun) {
		ss.lastRun = r.Started.Time
	}
}

func idOf(m map[string]any) string {
	id, _ := m["id"].(string)
	return id
}
