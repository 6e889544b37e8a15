package server

import (
	"context"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/settings"
	"github.com/trove-ml/trove/internal/usage"
)

type statsOptionRequest struct {
	// Enabled, when given, sets the option; absent reads it.
	Enabled *bool `json:"enabled"`
}

type statsOptionResponse struct {
	Supported      bool        `json:"supported"`
	Enabled        bool        `json:"enabled"`
	EnabledTime    *jsonx.Time `json:"enabled_time,omitempty"`
	EnabledVersion string      `json:"enabled_version,omitempty"`
	EnabledUser    string      `json:"enabled_user,omitempty"`
	CurrentVersion string      `json:"current_version"`
}

// reportStatsOption reads or sets the company's usage-statistics opt-in.
// The answer is recorded; Trove itself sends no statistics anywhere.
func (s *service) reportStatsOption(ctx context.Context, c *rpc.Call, req *statsOptionRequest) (*statsOptionResponse, error) {
	o, err := settings.ReportStatsOption(ctx, &s.d.Env, c.Company(), c.User(), auth.ServerVersion, req.Enabled)
	if err != nil {
		return nil, err
	}
	return &statsOptionResponse{Supported: true, Enabled: o.Enabled, EnabledTime: o.EnabledTime,
		EnabledVersion: o.EnabledVersion, EnabledUser: o.EnabledUser, CurrentVersion: auth.ServerVersion}, nil
}

type statsRequest struct {
	// Interval is accepted for compatibility; the report covers fixed
	// windows.
	Interval *int64 `json:"interval"`
}

func (s *service) getStats(ctx context.Context, c *rpc.Call, _ *statsRequest) (*usage.Report, error) {
	return usage.Build(ctx, &s.d.Env, c.Company(), auth.ServerVersion, serverUID)
}

type configRequest struct {
	// Path selects a section by dotted names ("files.s3").
	Path string `json:"path"`
}

// config answers the server's configuration without its secrets, or one
// section of it.
func (s *service) config(ctx context.Context, c *rpc.Call, req *configRequest) (*map[string]any, error) {
	section := s.d.PublicConfig
	if req.Path != "" {
		for _, name := range strings.Split(req.Path, ".") {
			sub, ok := section[name].(map[string]any)
			if !ok {
				return nil, apierr.Validation("path", "no configuration section %q", req.Path)
			}
			section = sub
		}
	}
	if section == nil {
		section = map[string]any{}
	}
	return &section, nil
}
