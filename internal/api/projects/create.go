package projects

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
)

// MaxDepth is the deepest project path allowed.
const MaxDepth = 10

type createRequest struct {
	Name                     string   `json:"name" required:"true"`
	Description              string   `json:"description"`
	Tags                     []string `json:"tags"`
	SystemTags               []string `json:"system_tags"`
	DefaultOutputDestination *string  `json:"default_output_destination"`
}

func (r *createRequest) Validate() error {
	if err := api.ValidateTags("tags", r.Tags); err != nil {
		return err
	}
	return api.ValidateTags("system_tags", r.SystemTags)
}

type createResponse struct {
	ID string `json:"id"`
}

func (s *service) create(ctx context.Context, c *rpc.Call, req *createRequest) (*createResponse, error) {
	segs, err := normaliseName(req.Name)
	if err != nil {
		return nil, err
	}
	var id string
	err = s.d.DB.Tx(ctx, func(q store.Querier) error {
		full := strings.Join(segs, "/")
		if _, err := s.d.DB.ProjectByName(ctx, q, full, c.Company()); err == nil {
			return apierr.NotUnique("Project with the same name already exists: name=%s", full)
		} else if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if _, err := s.d.DB.ProjectByName(ctx, q, full, ""); err == nil {
			return apierr.PublicProjectExists(full)
		}
		parent, err := EnsurePath(ctx, s.d, q, c.Company(), c.User(), segs[:len(segs)-1])
		if err != nil {
			return err
		}
		p := s.newProject(c, segs, parent)
		p.Description = req.Description
		p.Tags, p.SystemTags = domain.SortedTags(req.Tags), domain.SortedTags(req.SystemTags)
		p.DefaultOutputDestination = req.DefaultOutputDestination
		if err := s.d.DB.Projects().Insert(ctx, q, p); err != nil {
			if errors.Is(err, store.ErrDuplicate) {
				return apierr.NotUnique("Project with the same name already exists: name=%s", full)
			}
			return err
		}
		id = p.ID
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &createResponse{ID: id}, nil
}

func (s *service) newProject(c *rpc.Call, segs []string, parent *store.Project) *store.Project {
	now := s.d.Time()
	p := &store.Project{ID: ids.New(), Company: c.Company(), User: c.User(), Name: strings.Join(segs, "/"),
		Basename: segs[len(segs)-1], Created: now, LastUpdate: now, Featured: 9999, Tags: []string{}, SystemTags: []string{}, Path: []string{}}
	if parent != nil {
		p.Parent = parent.ID
		p.Path = append(append([]string{}, parent.Path...), parent.ID)
	}
	return p
}

// normaliseName splits a full project name, dropping empty segments and
// refusing names without segments, too deep, or too short.
func normaliseName(name string) ([]string, error) {
	segs := store.SplitProjectName(name)
	if len(segs) == 0 {
		return nil, apierr.InvalidProjectName(name)
	}
	if len(segs) > MaxDepth {
		return nil, apierr.ProjectDepth(MaxDepth)
	}
	if full := strings.Join(segs, "/"); len([]rune(full)) < 3 {
		return nil, apierr.DataValidation("project name must be at least 3 characters: name=%s", full)
	}
	return segs, nil
}

// EnsurePath returns the project with the given path segments in the
// company, creating it and any missing ancestors. Empty segs return nil
// (the root). Parents' last_update is bumped.
func EnsurePath(ctx context.Context, d *api.Deps, q store.Querier, company, user string, segs []string) (*store.Project, error) {
	var parent *store.Project
	now := d.Time()
	for i := range segs {
		full := strings.Join(segs[:i+1], "/")
		p, err := d.DB.ProjectByName(ctx, q, full, company)
		if errors.Is(err, store.ErrNotFound) {
			p = &store.Project{ID: ids.New(), Company: company, User: user, Name: full, Basename: segs[i],
				Created: now, LastUpdate: now, Featured: 9999, Tags: []string{}, SystemTags: []string{}, Path: []string{}}
			if parent != nil {
				p.Parent = parent.ID
				p.Path = append(append([]string{}, parent.Path...), parent.ID)
			}
			if err := d.DB.Projects().Insert(ctx, q, p); err != nil {
				return nil, fmt.Errorf("create project %s: %w", full, err)
			}
		} else if err != nil {
			return nil, err
		} else {
			p.LastUpdate = now
			if err := d.DB.Projects().Update(ctx, q, p); err != nil {
				return nil, err
			}
		}
		parent = p
	}
	return parent, nil
}

// EnsureByName finds or creates the project with a full name, for
// operations that take a project_name (tasks.clone, tasks.move, models.move).
func EnsureByName(ctx context.Context, d *api.Deps, q store.Querier, company, user, name string) (*store.Project, error) {
	segs, err := normaliseName(name)
	if err != nil {
		return nil, err
	}
	return EnsurePath(ctx, d, q, company, user, segs)
}
