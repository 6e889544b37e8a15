package projects

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/projects"
	"github.com/trove-ml/trove/internal/rpc"
)

type deleteRequest struct {
	Project        string `json:"project" required:"true"`
	Force          bool   `json:"force"`
	DeleteContents bool   `json:"delete_contents"`
	// DeleteExternalArtifacts (default true) deletes the files this server
	// stores for deleted contents.
	DeleteExternalArtifacts *bool `json:"delete_external_artifacts"`
}

type deleteResponse struct {
	Deleted            int           `json:"deleted"`
	DisassociatedTasks int           `json:"disassociated_tasks"`
	DeletedModels      int           `json:"deleted_models"`
	DeletedTasks       int           `json:"deleted_tasks"`
	Urls               *api.FileURLs `json:"urls,omitempty"` // seeds: "returned when delete_contents is true"
}

func (s *service) delete(ctx context.Context, c *rpc.Call, req *deleteRequest) (*deleteResponse, error) {
	res, err := projects.DeleteProject(ctx, &s.d.Env, projects.DeleteRequest{Company: c.Company(), Project: req.Project,
		Force: req.Force, DeleteContents: req.DeleteContents, DeleteFiles: api.DeleteFiles(req.DeleteExternalArtifacts)})
	if err != nil {
		return nil, err
	}
	return &deleteResponse{Deleted: res.Deleted, DisassociatedTasks: res.DisassociatedTasks, DeletedModels: res.DeletedModels,
		DeletedTasks: res.DeletedTasks, Urls: api.URLs(res.URLs)}, nil
}

type validateDeleteRequest struct {
	Project string `json:"project" required:"true"`
}

type validateDeleteResponse struct {
	Tasks              int `json:"tasks"`
	NonArchivedTasks   int `json:"non_archived_tasks"`
	Models             int `json:"models"`
	NonArchivedModels  int `json:"non_archived_models"`
	Reports            int `json:"reports"`
	NonArchivedReports int `json:"non_archived_reports"`
	Pipelines          int `json:"pipelines"`
	Datasets           int `json:"datasets"`
}

func (s *service) validateDelete(ctx context.Context, c *rpc.Call, req *validateDeleteRequest) (*validateDeleteResponse, error) {
	cc, err := projects.CountContents(ctx, &s.d.Env, c.Company(), req.Project)
	if err != nil {
		return nil, err
	}
	return &validateDeleteResponse{Tasks: cc.Tasks, NonArchivedTasks: cc.NonArchivedTasks, Models: cc.Models, NonArchivedModels: cc.NonArchivedModels,
		Reports: cc.Reports, NonArchivedReports: cc.NonArchivedReports, Pipelines: cc.Pipelines, Datasets: cc.Datasets}, nil
}
