package mlflow

import (
	"context"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// Aliases: names of a registered model that point at one of its versions.

var versionAlias = regexp.MustCompile(`^[vV]\d+$`)

func checkAlias(alias string) error {
	switch {
	case alias == "":
		return apierr.MLflowInvalidParameter("Missing value for required parameter 'alias'.")
	case len(alias) > MaxAliasLen:
		return apierr.MLflowInvalidParameter("Alias name '%s' had length %d, which exceeded length limit of %d", alias[:50]+"...", len(alias), MaxAliasLen)
	case strings.EqualFold(alias, "latest"):
		return apierr.MLflowInvalidParameter("'%s' alias name (case insensitive) is reserved.", alias)
	case versionAlias.MatchString(alias):
		return apierr.MLflowInvalidParameter("Version alias name '%s' is reserved.", alias)
	case strings.ContainsAny(alias, "/\\") || strings.Contains(alias, ".."):
		return apierr.MLflowInvalidParameter("Invalid alias name: '%s'. Alias names may not contain '/', '\\' or '..'.", alias)
	}
	return nil
}

// SetAlias points alias of a model at version (which must exist).
func SetAlias(ctx context.Context, env *domain.Env, company, name, alias string, version int64) error {
	if err := checkAlias(alias); err != nil {
		return err
	}
	_, err := withModel(ctx, env, company, name, func(q store.Querier, m *store.RegisteredModel) error {
		vs, err := env.DB.ModelVersions(ctx, q, company, name)
		if err != nil {
			return err
		}
		if !slices.ContainsFunc(vs, func(v *store.ModelVersion) bool { return v.Version == version }) {
			return versionNotFound(name, version)
		}
		if m.Aliases == nil {
			m.Aliases = map[string]int64{}
		}
		m.Aliases[alias] = version
		return nil
	})
	return err
}

// DeleteAlias removes alias of a model.
func DeleteAlias(ctx context.Context, env *domain.Env, company, name, alias string) error {
	if alias == "" {
		return apierr.MLflowInvalidParameter("Missing value for required parameter 'alias'.")
	}
	_, err := withModel(ctx, env, company, name, func(_ store.Querier, m *store.RegisteredModel) error {
		delete(m.Aliases, alias)
		return nil
	})
	return err
}

// aliasesOf lists the aliases of m pointing at version.
func aliasesOf(m *store.RegisteredModel, version int64) []string {
	var out []string
	for a, v := range m.Aliases {
		if v == version {
			out = append(out, a)
		}
	}
	sort.Strings(out)
	return out
}

// GetVersionByAlias reads the version alias points at.
func GetVersionByAlias(ctx context.Context, env *domain.Env, company, name, alias string) (*ModelVersion, error) {
	m, err := loadModel(ctx, env, env.DB.Read(), company, name, false)
	if err != nil {
		return nil, err
	}
	version, ok := m.Aliases[alias]
	if !ok {
		return nil, apierr.MLflowNotFound("Registered model alias %s not found.", alias)
	}
	return GetModelVersion(ctx, env, company, name, version)
}
