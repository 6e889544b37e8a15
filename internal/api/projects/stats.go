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
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
)

// TaskStatuses is the full task status set, in the order stats list them.
var TaskStatuses = []string{"created", "queued", "in_progress", "stopped", "publishing", "published", "closed", "failed", "completed", "unknown"}

// statsStates reads stats_for_state: absent = active, null = both.
func statsStates(raw json.RawMessage) ([]string, error) {
	if len(raw) == 0 {
		return []string{"active"}, nil
	}
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return []string{"active", "archived"}, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil || (s != "active" && s != "archived") {
		return nil, apierr.Validation("stats_for_state", "must be active, archived or null")
	}
	return []string{s}, nil
}

type stateStats struct {
	StatusCount       map[string]int `json:"status_count"`
	TotalTasks        int            `json:"total_tasks"`
	TotalRuntime      int64          `json:"total_runtime"`
	CompletedTasks24h int            `json:"completed_tasks_24h"`
	LastTaskRun       *string        `json:"last_task_run"`
	lastRun           time.Time
}

func newStateStats() *stateStats {
	m := map[string]int{}
	for _, s := range TaskStatuses {
		m[s] = 0
	}
	return &stateStats{StatusCount: m}
}

// taskRow is what stats need of one task.
type taskRow struct {
	project, status    string
	archived           bool
	started, completed jsonx.Time
}

func (s *service) addStats(ctx context.Context, c *rpc.Call, items []map[string]any, states []string, stats, own, withChildren, searchHidden bool) error {
	if len(items) == 0 {
		return nil
	}
	db := s.d.DB
	tree, err := db.LoadProjectTree(ctx, db.Read(), domain.Visible(c.Company())...)
	if err != nil {
		return err
	}
	scope := map[string][]string{}
	var all []string
	for _, it := range items {
		id := idOf(it)
		ids := []string{id}
		if withChildren {
			ids = tree.WithDescendants(ids)
		}
		scope[id] = ids
		all = append(all, ids...)
	}
	rows, err := s.loadTaskRows(ctx, c.Company(), all)
	if err != nil {
		return err
	}
	byProject := map[string][]taskRow{}
	for _, r := range rows {
		byProject[r.project] = append(byProject[r.project], r)
	}
	now := s.d.Now()
	for _, it := range items {
		id := idOf(it)
		if stats {
			out := map[string]*stateStats{}
			for _, st := range states {
				out[st] = newStateStats()
			}
			for _, pid := range scope[id] {
				for _, r := range byProject[pid] {
					st := "active"
					if r.archived {
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
			it["stats"] = out
			subs := []map[string]any{}
			for _, d := range tree.Descendants(id) {
				if tree.Hidden[d] && !searchHidden {
					continue
				}
				subs = append(subs, map[string]any{"id": d, "name": tree.Name[d]})
			}
			sort.Slice(subs, func(a, b int) bool { return subs[a]["name"].(string) < subs[b]["name"].(string) })
			it["sub_projects"] = subs
		}
		if own {
			nt := 0
			for _, r := range byProject[id] {
				if stateOf(r.archived, states) {
					nt++
				}
			}
			nm, err := s.countOwnModels(ctx, c.Company(), id, states)
			if err != nil {
				return err
			}
			it["own_tasks"], it["own_models"] = nt, nm
		}
	}
	return nil
}

func stateOf(archived bool, states []string) bool {
	for _, s := range states {
		if (s == "archived") == archived {
			return true
		}
	}
	return false
}

func (ss *stateStats) add(r taskRow, now time.Time) {
	ss.StatusCount[r.status]++
	ss.TotalTasks++
	if !r.started.IsZero() && !r.completed.IsZero() && r.completed.After(r.started.Time) {
		ss.TotalRuntime += int64(r.completed.Sub(r.started.Time) / time.Second)
	}
	if !r.completed.IsZero() && now.Sub(r.completed.Time) <= 24*time.Hour &&
		r.status != "queued" && r.status != "in_progress" && r.status != "failed" {
		ss.CompletedTasks24h++
	}
	if !r.started.IsZero() && r.started.After(ss.lastRun) {
		ss.lastRun = r.started.Time
	}
}

func (s *service) loadTaskRows(ctx context.Context, company string, projects []string) ([]taskRow, error) {
	if len(projects) == 0 {
		return nil, nil
	}
	d := s.d.DB.D
	q := "SELECT project, status, CASE WHEN " + d.ArrayHas("system_tags") + " THEN 1 ELSE 0 END, " +
		"COALESCE(" + d.JSONText("doc") + ", ''), COALESCE(" + d.JSONText("doc") + ", '') FROM tasks WHERE company IN (?, '') AND project IN (" +
		store.Placeholders(len(projects)) + ")"
	args := append([]any{"archived", d.JSONPathArg([]string{"started"}), d.JSONPathArg([]string{"completed"}), company}, store.Args(projects)...)
	rows, err := s.d.DB.Read().QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []taskRow
	for rows.Next() {
		var r taskRow
		var archived int
		var started, completed string
		if err := rows.Scan(&r.project, &r.status, &archived, &started, &completed); err != nil {
			return nil, err
		}
		r.archived = archived == 1
		r.started, _ = jsonx.ParseTime(started)
		r.completed, _ = jsonx.ParseTime(completed)
		out = append(out, r)
	}
	return out, rows.Err()
}

func (s *service) countOwnModels(ctx context.Context, company, project string, states []string) (int, error) {
	cond := ""
	if len(states) == 1 {
		cond = " AND "
		if states[0] == "active" {
			cond += "NOT "
		}
		cond += s.d.DB.D.ArrayHas("system_tags")
	}
	args := []any{company, project}
	if cond != "" {
		args = append(args, "archived")
	}
	var n int
	err := s.d.DB.Read().QueryRowContext(ctx, "SELECT COUNT(*) FROM models WHERE company IN (?, '') AND project = ?"+cond, args...).Scan(&n)
	return n, err
}

func idOf(m map[string]any) string {
	id, _ := m["id"].(string)
	return id
}
