// Package reports holds the rules of reports: tasks of type report whose
// markdown (report) embeds charts of other tasks and models. A report
// lives in a hidden ".reports" project under the project it belongs to
// (or at the root), created with its first report and dropped with its
// last. Only a draft (created) report's content may change; its name,
// tags and comment may change after publishing too.
package reports

import (
	"context"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/projects"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/tasks"
)

// TaskType is the task type of reports.
const TaskType = "report"

// systemTags are the system tags every report carries.
var systemTags = []string{tasks.TagHidden, projects.ReportsTag}

// load loads a report of the company for writing: unknown ids are
// 400/101, tasks of other types 400/150.
func load(ctx context.Context, env *domain.Env, q store.Querier, company, id string) (*store.Task, error) {
	t, err := tasks.LoadWritable(ctx, env, q, company, id)
	if err != nil {
		return nil, err
	}
	if t.Type != TaskType {
		return nil, apierr.NotAReport(id)
	}
	return t, nil
}

// folderFor finds or creates the reports folder of a target project: by
// id (which must be writable), "" for the root.
func folderFor(ctx context.Context, env *domain.Env, q store.Querier, company, user, projectID string) (*store.Project, error) {
	name := ""
	if projectID != "" {
		p, err := projects.LoadWritable(ctx, env, q, company, projectID)
		if err != nil {
			return nil, err
		}
		name = p.Name
	}
	return projects.EnsureReportsFolder(ctx, env, q, company, user, name)
}

// CreateInput is a new report.
type CreateInput struct {
	Company, User string
	Name          string
	Tags          []string
	Comment       *string
	Report        *string
	ReportAssets  []string
	// Project is the project the report belongs to ("" = none); the
	// report goes into its ".reports" folder.
	Project string
}

// Created is the new report and the folder it went into.
type Created struct {
	ID, Project string
}

// Create adds a draft report in the reports folder of its project.
func Create(ctx context.Context, env *domain.Env, in CreateInput) (*Created, error) {
	name := strings.TrimSpace(in.Name)
	if name == "" {
		return nil, apierr.Validation("name", "must not be empty")
	}
	var out *Created
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		folder, err := folderFor(ctx, env, q, in.Company, in.User, in.Project)
		if err != nil {
			return err
		}
		now := env.Time()
		t := &store.Task{ID: ids.New(), Company: in.Company, User: in.User, Name: name, Type: TaskType,
			Status: tasks.Created, Project: folder.ID, Comment: in.Comment, Report: in.Report, ReportAssets: in.ReportAssets,
			Tags: domain.SortedTags(in.Tags), SystemTags: domain.SortedTags(systemTags),
			Created: now, LastUpdate: now, LastChange: now, LastChangedBy: in.User}
		t.StatusChanged = &now
		t.Normalize()
		if err := tasks.Insert(ctx, env, q, in.Company, t, tasks.RefChecks{}); err != nil {
			return err
		}
		out = &Created{ID: t.ID, Project: folder.ID}
		return nil
	})
	return out, err
}
