package projects

import (
	"context"
	"sort"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// DatasetCount is the datasets statistics of a project: how many dataset
// projects are under it and their tags.
type DatasetCount struct {
	Count int      `json:"count"`
	Tags  []string `json:"tags"`
}

// addDatasetCounts adds the statistics of the datasets view: stats are
// {"datasets": {count, tags}} over the dataset projects whose parent is
// the project (or a counted subproject), own_datasets those directly
// under the project.
func addDatasetCounts(ctx context.Context, env *domain.Env, company string, items []map[string]any, o StatsOptions,
	scope map[string][]string, all []string, children func(string) []string) error {
	db := env.DB
	s := store.ContentScope{Companies: domain.Visible(company), Projects: all, SystemTag: DatasetTag}
	var err error
	if s.Cond, s.CondArgs, err = o.Children.tagCond(db.D); err != nil {
		return err
	}
	datasets, err := db.ScopedProjects(ctx, db.Read(), s)
	if err != nil {
		return err
	}
	byParent := map[string][]*store.Project{}
	for _, p := range datasets {
		byParent[p.Parent] = append(byParent[p.Parent], p)
	}
	tree, err := db.LoadProjectTree(ctx, db.Read(), domain.Visible(company)...)
	if err != nil {
		return err
	}
	for _, it := range items {
		id := idOf(it)
		if o.Stats {
			dc := DatasetCount{Tags: []string{}}
			tags := map[string]bool{}
			for _, pid := range scope[id] {
				for _, p := range byParent[pid] {
					dc.Count++
					for _, t := range p.Tags {
						tags[t] = true
					}
				}
			}
			for t := range tags {
				dc.Tags = append(dc.Tags, t)
			}
			sort.Strings(dc.Tags)
			it["stats"] = map[string]any{"datasets": dc}
			it["sub_projects"] = subprojectList(tree, children(id))
		}
		if o.Own {
			it["own_datasets"] = len(byParent[id])
		}
	}
	return nil
}

// DatasetStats is a project's dataset_stats: the file count and total
// size its latest dataset version recorded in its runtime.
type DatasetStats struct {
	FileCount any `json:"file_count"`
	TotalSize any `json:"total_size"`
}

// addDatasetStats sets dataset_stats on every item: from the latest
// non-archived task of the project with a runtime, else null.
func addDatasetStats(ctx context.Context, env *domain.Env, company string, items []map[string]any) error {
	if len(items) == 0 {
		return nil
	}
	ids := make([]string, len(items))
	for i, it := range items {
		ids[i] = idOf(it)
	}
	runtimes, err := env.DB.LatestTaskRuntimes(ctx, env.DB.Read(),
		store.ContentScope{Companies: domain.Visible(company), Projects: ids, NotArchived: true})
	if err != nil {
		return err
	}
	for _, it := range items {
		rt, ok := runtimes[idOf(it)]
		if !ok {
			it["dataset_stats"] = nil
			continue
		}
		it["dataset_stats"] = DatasetStats{FileCount: orZero(rt["ds_file_count"]), TotalSize: orZero(rt["ds_total_size"])}
	}
	return nil
}

func orZero(v any) any {
	if v == nil {
		return 0
	}
	return v
}
