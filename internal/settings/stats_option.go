// Package settings keeps the per-company settings the web app edits: the
// usage-statistics opt-in and the storage credentials.
package settings

import (
	"context"
	"errors"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// ReportStatsOption sets the company's usage-statistics opt-in when
// enabled is given (see SetStatsOption), else reads it (see StatsOption).
func ReportStatsOption(ctx context.Context, env *domain.Env, company, user, version string, enabled *bool) (*store.StatsOption, error) {
	if enabled != nil {
		return SetStatsOption(ctx, env, company, user, version, *enabled)
	}
	return StatsOption(ctx, env, company)
}

// StatsOption reads the company's usage-statistics opt-in; a company that
// never answered has not opted in.
func StatsOption(ctx context.Context, env *domain.Env, company string) (*store.StatsOption, error) {
	o, err := env.DB.StatsOptions().Get(ctx, env.DB.Read(), company)
	if errors.Is(err, store.ErrNotFound) {
		return &store.StatsOption{Company: company}, nil
	}
	return o, err
}

// SetStatsOption records the company's answer, who gave it, when, and on
// which server version.
func SetStatsOption(ctx context.Context, env *domain.Env, company, user, version string, enabled bool) (*store.StatsOption, error) {
	now := env.Time()
	o := &store.StatsOption{Company: company, Enabled: enabled, EnabledTime: &now, EnabledVersion: version, EnabledUser: user}
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		return env.DB.StatsOptions().Upsert(ctx, q, o)
	})
	if err != nil {
		return nil, err
	}
	return o, nil
}
