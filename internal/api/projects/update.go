package projects

import (
	"context"
	"errors"
	"strings"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
)

type updateRequest struct {
	Project                  string    `json:"project" required:"true"`
	Name                     *string   `json:"name"`
	Description              *string   `json:"description"`
	Tags                     *[]string `json:"tags"`
	SystemTags               *[]string `json:"system_tags"`
	DefaultOutputDestination *string   `json:"default_output_destination"`
}

func (r *updateRequest) Validate() error {
	if r.Tags != nil {
		if err := api.ValidateTags("tags", *r.Tags); err != nil {
			return err
		}
	}
	if r.SystemTags != nil {
		return api.ValidateTags("system_tags", *r.SystemTags)
	}
	return nil
}

func (s *service) update(ctx context.Context, c *rpc.Call, req *updateRequest) (*api.UpdateResult, error) {
	fields := map[string]any{}
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		p, err := s.loadWritable(ctx, q, c, req.Project)
		if err != nil {
			return err
		}
		if req.Name != nil {
			segs, err := normaliseName(*req.Name)
			if err != nil {
				return err
			}
			newName := strings.Join(segs, "/")
			oldSegs := store.SplitProjectName(p.Name)
			if strings.Join(segs[:len(segs)-1], "/") != strings.Join(oldSegs[:len(oldSegs)-1], "/") {
				return apierr.ProjectPathChange()
			}
			if newName != p.Name {
				if err := s.rename(ctx, q, c, p, newName); err != nil {
					return err
				}
				fields["name"], fields["basename"] = p.Name, p.Basename
			}
		}
		if req.Description != nil {
			p.Description = *req.Description
			fields["description"] = p.Description
		}
		if req.Tags != nil {
			p.Tags = domain.SortedTags(*req.Tags)
			fields["tags"] = p.Tags
		}
		if req.SystemTags != nil {
			p.SystemTags = domain.SortedTags(*req.SystemTags)
			fields["system_tags"] = p.SystemTags
		}
		if req.DefaultOutputDestination != nil {
			p.DefaultOutputDestination = req.DefaultOutputDestination
			fields["default_output_destination"] = *p.DefaultOutputDestination
		}
		p.LastUpdate = s.d.Time()
		fields["last_update"] = p.LastUpdate
		return s.d.DB.Projects().Update(ctx, q, p)
	})
	if err != nil {
		return nil, err
	}
	return &api.UpdateResult{Updated: 1, Fields: fields}, nil
}

// rename gives p a new full name and renames its descendants to follow.
func (s *service) rename(ctx context.Context, q store.Querier, c *rpc.Call, p *store.Project, newName string) error {
	if _, err := s.d.DB.ProjectByName(ctx, q, newName, c.Company()); err == nil {
		return apierr.NotUnique("Project with the same name already exists: name=%s", newName)
	} else if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	oldName := p.Name
	segs := store.SplitProjectName(newName)
	p.Name, p.Basename = newName, segs[len(segs)-1]
	desc, err := s.descendants(ctx, q, c, p.ID)
	if err != nil {
		return err
	}
	for _, d := range desc {
		d.Name = newName + strings.TrimPrefix(d.Name, oldName)
		if err := s.d.DB.Projects().Update(ctx, q, d); err != nil {
			return uniqueErr(err, d.Name)
		}
	}
	return nil
}

func uniqueErr(err error, name string) error {
	if errors.Is(err, store.ErrDuplicate) {
		return apierr.NotUnique("Project with the same name already exists: name=%s", name)
	}
	return err
}

type moveRequest struct {
	Project     string  `json:"project" required:"true"`
	NewLocation *string `json:"new_location"`
}

type moveResponse struct {
	Moved int `json:"moved"`
}

func (s *service) move(ctx context.Context, c *rpc.Call, req *moveRequest) (*moveResponse, error) {
	var moved int
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		p, err := s.loadWritable(ctx, q, c, req.Project)
		if err != nil {
			return err
		}
		loc := ""
		if req.NewLocation != nil {
			loc = strings.Join(store.SplitProjectName(*req.NewLocation), "/")
		}
		oldSegs := store.SplitProjectName(p.Name)
		if loc == strings.Join(oldSegs[:len(oldSegs)-1], "/") {
			return apierr.ProjectSameLocation()
		}
		if loc == p.Name || strings.HasPrefix(loc, p.Name+"/") {
			return apierr.ProjectUnderItself()
		}
		var parent *store.Project
		if loc != "" {
			if parent, err = EnsureByName(ctx, s.d, q, c.Company(), c.User(), loc); err != nil {
				return err
			}
		}
		moved, err = s.reparent(ctx, q, c, p, parent)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &moveResponse{Moved: moved}, nil
}

// reparent moves p (and its subtree) under parent (nil = top level). It
// returns the number of projects moved.
func (s *service) reparent(ctx context.Context, q store.Querier, c *rpc.Call, p *store.Project, parent *store.Project) (int, error) {
	desc, err := s.descendants(ctx, q, c, p.ID)
	if err != nil {
		return 0, err
	}
	oldName, oldPath := p.Name, p.Path
	newPath := []string{}
	newName := p.Basename
	if parent != nil {
		newPath = append(append(newPath, parent.Path...), parent.ID)
		newName = parent.Name + "/" + p.Basename
	}
	deepest := 0
	for _, d := range desc {
		deepest = max(deepest, len(d.Path)-len(oldPath))
	}
	if len(newPath)+deepest+1 > MaxDepth {
		return 0, apierr.ProjectDepth(MaxDepth)
	}
	p.Name, p.Path, p.Parent = newName, newPath, ""
	if parent != nil {
		p.Parent = parent.ID
	}
	p.LastUpdate = s.d.Time()
	if err := s.d.DB.Projects().Update(ctx, q, p); err != nil {
		return 0, uniqueErr(err, p.Name)
	}
	for _, d := range desc {
		d.Name = newName + strings.TrimPrefix(d.Name, oldName)
		d.Path = append(append([]string{}, newPath...), d.Path[len(oldPath):]...)
		if err := s.d.DB.Projects().Update(ctx, q, d); err != nil {
			return 0, uniqueErr(err, d.Name)
		}
	}
	return 1 + len(desc), nil
}

type mergeRequest struct {
	Project            string `json:"project" required:"true"`
	DestinationProject string `json:"destination_project"`
}

type mergeResponse struct {
	MovedEntities int `json:"moved_entities"`
	MovedProjects int `json:"moved_projects"`
}

func (s *service) merge(ctx context.Context, c *rpc.Call, req *mergeRequest) (*mergeResponse, error) {
	if req.Project == req.DestinationProject {
		return nil, apierr.ProjectSameLocation()
	}
	resp := &mergeResponse{}
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		src, err := s.loadWritable(ctx, q, c, req.Project)
		if err != nil {
			return err
		}
		var dst *store.Project
		if req.DestinationProject != "" {
			if dst, err = s.loadWritable(ctx, q, c, req.DestinationProject); err != nil {
				return err
			}
			for _, a := range dst.Path {
				if a == src.ID {
					return apierr.ProjectMergeIntoChild()
				}
			}
		}
		dstID := ""
		if dst != nil {
			dstID = dst.ID
		}
		// The source's own non-archived tasks and models move.
		for _, table := range []string{"tasks", "models"} {
			ids, err := store.IDs(ctx, q, "SELECT id FROM "+table+" WHERE project = ? AND NOT "+s.d.DB.D.ArrayHas("system_tags"), src.ID, "archived")
			if err != nil {
				return err
			}
			if err := s.d.DB.SetProject(ctx, q, table, ids, dstID); err != nil {
				return err
			}
			resp.MovedEntities += len(ids)
		}
		children, err := s.d.DB.Projects().Select(ctx, q, "parent = ?", src.ID)
		if err != nil {
			return err
		}
		for _, ch := range children {
			if _, err := s.reparent(ctx, q, c, ch, dst); err != nil {
				return err
			}
		}
		resp.MovedProjects = len(children)
		_, err = s.d.DB.Projects().Delete(ctx, q, src.ID)
		return err
	})
	if err != nil {
		return nil, err
	}
	return resp, nil
}

// descendants loads every project under id in the caller's company.
func (s *service) descendants(ctx context.Context, q store.Querier, c *rpc.Call, id string) ([]*store.Project, error) {
	tree, err := s.d.DB.LoadProjectTree(ctx, q, c.Company())
	if err != nil {
		return nil, err
	}
	ids := tree.Descendants(id)
	if len(ids) == 0 {
		return nil, nil
	}
	return s.d.DB.Projects().Select(ctx, q, "id IN ("+store.Placeholders(len(ids))+")", store.Args(ids)...)
}
