package projects

import (
	"context"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// Contents is what a project holds with its subprojects, as
// projects.validate_delete counts it: tasks (reports apart) and models of
// the regular projects, and the pipelines with live controllers and the
// non-empty datasets among the subprojects.
type Contents struct {
	store.ProjectContents
	Reports, NonArchivedReports int
	Pipelines, Datasets         int
}

// countContents counts the contents of the projects ids.
func countContents(ctx context.Context, d *domain.Env, q store.Querier, company string, ids []string) (*Contents, error) {
	list, err := d.DB.Projects().GetMany(ctx, q, ids)
	if err != nil {
		return nil, err
	}
	var pipelines, datasets, regular []string
	for _, p := range list {
		switch {
		case domain.HasTag(p.SystemTags, PipelineTag) && p.Basename != PipelinesFolder:
			pipelines = append(pipelines, p.ID)
		case domain.HasTag(p.SystemTags, DatasetTag) && p.Basename != DatasetsFolder:
			datasets = append(datasets, p.ID)
		default:
			regular = append(regular, p.ID)
		}
	}
	c := &Contents{}
	companies := domain.Visible(company)
	count := func(s store.ContentScope) (map[string]int, error) {
		if len(s.Projects) == 0 {
			// nil Projects would mean every project.
			return nil, nil
		}
		s.Companies = companies
		return d.DB.CountTasksByProject(ctx, q, s)
	}
	live, err := count(store.ContentScope{Projects: pipelines, Types: []string{typeController}, NotArchived: true})
	if err != nil {
		return nil, err
	}
	c.Pipelines = len(live)
	filled, err := count(store.ContentScope{Projects: datasets, NotArchived: true})
	if err != nil {
		return nil, err
	}
	c.Datasets = len(filled)
	if c.ProjectContents, err = d.DB.CountProjectContents(ctx, q, regular); err != nil {
		return nil, err
	}
	reports, err := count(store.ContentScope{Projects: regular, SystemTag: ReportsTag})
	if err != nil {
		return nil, err
	}
	active, err := count(store.ContentScope{Projects: regular, SystemTag: ReportsTag, NotArchived: true})
	if err != nil {
		return nil, err
	}
	c.Reports, c.NonArchivedReports = sum(reports), sum(active)
	c.Tasks -= c.Reports
	c.NonArchivedTasks -= c.NonArchivedReports
	return c, nil
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
