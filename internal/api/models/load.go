package models

import (
	"context"
	"errors"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

// loadWritable loads a model of the caller's company for writing. Public
// models and other companies' models are 400/201: as in the reference,
// writes look in the caller's company only, so public models are
// writable by none.
func (s *service) loadWritable(ctx context.Context, q store.Querier, company, id string) (*store.Model, error) {
	m, err := s.d.DB.Models().GetForUpdate(ctx, q, id, company)
	if err != nil {
		return nil, domain.NotFound(err, apierr.InvalidModelID(id))
	}
	m.Normalize()
	return m, nil
}

// checkTask refuses a task the caller may not write (400/101, public 403/21).
func (s *service) checkTask(ctx context.Context, q store.Querier, company, id string) error {
	_, err := taskdom.LoadWritable(ctx, &s.d.Env, q, company, id)
	return err
}

// checkProject refuses a project id that is not a project of company.
func (s *service) checkProject(ctx context.Context, q store.Querier, id string, companies ...string) error {
	if _, err := s.d.DB.Projects().Get(ctx, q, id, companies...); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return apierr.ValidationMsg("Invalid project ids: project=%s", id)
		}
		return err
	}
	return nil
}

// checkParent refuses a parent id that is not a model the caller can read.
func (s *service) checkParent(ctx context.Context, q store.Querier, company, id string) error {
	if _, err := s.d.DB.Models().Get(ctx, q, id, domain.Visible(company)...); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return apierr.ValidationMsg("Invalid model ids: parent=%s", id)
		}
		return err
	}
	return nil
}

// cleanName strips a model name; a name is never empty.
func cleanName(name string) (string, error) {
	n := strings.TrimSpace(name)
	if n == "" {
		return "", apierr.Validation("name", "must not be empty")
	}
	return n, nil
}

// touch records a change by user on m; data changes also move last_update.
func (s *service) touch(m *store.Model, user string, dataChanged bool) {
	now := s.d.Time()
	m.LastChange, m.LastChangedBy = now, user
	if dataChanged {
		m.LastUpdate = now
	}
}
