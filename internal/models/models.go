// Package models holds the rules of models: the records of what training
// produces, their metadata, publishing (with the creating task), moving
// and sharing. Functions take a *domain.Env and return domain results and
// apierr errors; deletion lives in delete.go.
package models

import (
	"context"
	"errors"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

// Actor is who calls: the company and the user.
type Actor struct {
	Company, User string
}

// LoadWritable loads a model of company for writing. Public models and
// other companies' models are 400/201: as in the reference, writes look
// in the caller's company only, so public models are writable by none.
func LoadWritable(ctx context.Context, env *domain.Env, q store.Querier, company, id string) (*store.Model, error) {
	m, err := env.DB.Models().GetForUpdate(ctx, q, id, company)
	if err != nil {
		return nil, domain.NotFound(err, apierr.InvalidModelID(id))
	}
	m.Normalize()
	return m, nil
}

// loadAllWritable loads company models for writing; any id that is not
// one fails with 400/201 naming the missing ids.
func loadAllWritable(ctx context.Context, env *domain.Env, q store.Querier, company string, ids []string) ([]*store.Model, error) {
	var recs []*store.Model
	var missing []string
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		m, err := LoadWritable(ctx, env, q, company, id)
		if apierr.As(err) != nil {
			missing = append(missing, id)
			continue
		}
		if err != nil {
			return nil, err
		}
		recs = append(recs, m)
	}
	if len(missing) > 0 {
		return nil, apierr.InvalidModelID(missing...)
	}
	return recs, nil
}

// writeEach loads company models for writing, applies change to each and
// writes them, in one transaction; unknown ids fail the call before
// anything changes. It returns the number of models written.
func writeEach(ctx context.Context, env *domain.Env, company string, ids []string, change func(m *store.Model)) (int, error) {
	n := 0
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		var err error
		n, err = writeEachIn(ctx, env, q, company, ids, change)
		return err
	})
	return n, err
}

// writeEachIn is writeEach inside the transaction q.
func writeEachIn(ctx context.Context, env *domain.Env, q store.Querier, company string, ids []string, change func(m *store.Model)) (int, error) {
	recs, err := loadAllWritable(ctx, env, q, company, ids)
	if err != nil {
		return 0, err
	}
	for _, m := range recs {
		change(m)
		if err := env.DB.Models().Update(ctx, q, m); err != nil {
			return 0, err
		}
	}
	return len(recs), nil
}

// checkTask refuses a task the caller may not write (400/101, public 403/21).
func checkTask(ctx context.Context, env *domain.Env, q store.Querier, company, id string) error {
	_, err := taskdom.LoadWritable(ctx, env, q, company, id)
	return err
}

// checkProject refuses a project id that is not a project of companies.
func checkProject(ctx context.Context, env *domain.Env, q store.Querier, id string, companies ...string) error {
	if _, err := env.DB.Projects().Get(ctx, q, id, companies...); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return apierr.ValidationMsg("Invalid project ids: project=%s", id)
		}
		return err
	}
	return nil
}

// checkParent refuses a parent id that is not a model the caller can read.
func checkParent(ctx context.Context, env *domain.Env, q store.Querier, company, id string) error {
	if _, err := env.DB.Models().Get(ctx, q, id, domain.Visible(company)...); err != nil {
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

// touch records a change by user on m at now; data changes also move
// last_update.
func touch(m *store.Model, user string, now jsonx.Time, dataChanged bool) {
	m.LastChange, m.LastChangedBy = now, user
	if dataChanged {
		m.LastUpdate = now
	}
}
