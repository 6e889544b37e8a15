package mlflow

import (
	"context"
	"errors"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// MLflow's model registry (issue 38): registered models and their
// numbered versions, with stages, aliases and tags, per company. They are
// registry records of their own (store: mlflow_registered_models,
// mlflow_model_versions); a version names what it was made from (a run,
// a logged model, which is a Trove model, and the source URI).

// Stages of a model version.
const (
	StageNone       = "None"
	StageStaging    = "Staging"
	StageProduction = "Production"
	StageArchived   = "Archived"
)

// VersionReady is the status of every version (registration is
// synchronous here).
const VersionReady = "READY"

// Bounds of the registry.
const (
	MaxRegistryResults  = 1000
	MaxVersionResults   = 200_000
	MaxDescriptionLen   = 100_000
	MaxAliasLen         = 255
	DefRegistryResults  = 100
	DefVersionResultsUI = 10_000
)

// CanonicalStage is the stage named by s (any case), or an error.
func CanonicalStage(s string) (string, error) {
	for _, st := range []string{StageNone, StageStaging, StageProduction, StageArchived} {
		if strings.EqualFold(s, st) {
			return st, nil
		}
	}
	return "", apierr.MLflowInvalidParameter("Invalid Model Version stage: %s. Value must be one of None, Staging, Production, Archived.", s)
}

// RegisteredModel is a registered model as MLflow answers it.
type RegisteredModel struct {
	*store.RegisteredModel
	// Latest is the newest version of each stage.
	Latest []*store.ModelVersion
}

// ModelVersion is a version with the aliases that point at it.
type ModelVersion struct {
	*store.ModelVersion
	Aliases []string
}

func checkModelName(name string) error {
	if strings.TrimSpace(name) == "" {
		return apierr.MLflowInvalidParameter("Registered model name cannot be empty.")
	}
	if len(name) > MaxNameLen {
		return apierr.MLflowInvalidParameter("Registered model name '%s' had length %d, which exceeded length limit of %d", name[:50]+"...", len(name), MaxNameLen)
	}
	return nil
}

func modelNotFound(name string) error {
	return apierr.MLflowNotFound("Registered Model with name=%s not found", name)
}

func versionNotFound(name string, version int64) error {
	return apierr.MLflowNotFound("Model Version (name=%s, version=%d) not found", name, version)
}

// ParseVersion reads a version number.
func ParseVersion(s string) (int64, error) {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || v < 1 {
		return 0, apierr.MLflowInvalidParameter("Parameter 'version' must be an integer, got '%s'.", s)
	}
	return v, nil
}

// loadModel reads a registered model in q (locked on PostgreSQL when
// lock).
func loadModel(ctx context.Context, env *domain.Env, q store.Querier, company, name string, lock bool) (*store.RegisteredModel, error) {
	if err := checkModelName(name); err != nil {
		return nil, err
	}
	m, err := env.DB.GetRegisteredModel(ctx, q, company, name, lock)
	if errors.Is(err, store.ErrNotFound) {
		return nil, modelNotFound(name)
	}
	return m, err
}

// withModel runs edit on a registered model in a transaction and saves
// it under its (possibly new) name.
func withModel(ctx context.Context, env *domain.Env, company, name string, edit func(q store.Querier, m *store.RegisteredModel) error) (*store.RegisteredModel, error) {
	var out *store.RegisteredModel
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		m, err := loadModel(ctx, env, q, company, name, true)
		if err != nil {
			return err
		}
		if err := edit(q, m); err != nil {
			return err
		}
		m.LastUpdate = env.Time().Millis()
		if err := env.DB.UpdateRegisteredModel(ctx, q, company, name, m); err != nil {
			if errors.Is(err, store.ErrDuplicate) {
				return apierr.MLflowAlreadyExists("Registered Model (name=%s) already exists.", m.Name)
			}
			return err
		}
		out = m
		return nil
	})
	return out, err
}

// CreateRegisteredModel registers a new model name.
func CreateRegisteredModel(ctx context.Context, env *domain.Env, company, user, name, description string, tags map[string]string) (*RegisteredModel, error) {
	if err := checkModelName(name); err != nil {
		return nil, err
	}
	for k, v := range tags {
		if err := CheckTag(k, v); err != nil {
			return nil, err
		}
	}
	if len(description) > MaxDescriptionLen {
		return nil, apierr.MLflowInvalidParameter("Description had length %d, which exceeded length limit of %d", len(description), MaxDescriptionLen)
	}
	now := env.Time().Millis()
	m := &store.RegisteredModel{Name: name, Created: now, LastUpdate: now, User: user, Description: description, Tags: copyTags(tags), NextVersion: 1}
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		return env.DB.InsertRegisteredModel(ctx, q, company, m)
	})
	if errors.Is(err, store.ErrDuplicate) {
		return nil, apierr.MLflowAlreadyExists("Registered Model (name=%s) already exists.", name)
	}
	if err != nil {
		return nil, err
	}
	return &RegisteredModel{RegisteredModel: m}, nil
}

// latest is the newest version of each stage among vs, in stage order.
func latest(vs []*store.ModelVersion, stages []string) []*store.ModelVersion {
	best := map[string]*store.ModelVersion{}
	for _, v := range vs {
		if b := best[v.Stage]; b == nil || v.Version > b.Version {
			best[v.Stage] = v
		}
	}
	if len(stages) == 0 {
		stages = []string{StageNone, StageStaging, StageProduction, StageArchived}
	}
	var out []*store.ModelVersion
	for _, st := range stages {
		if v := best[st]; v != nil {
			out = append(out, v)
		}
	}
	return out
}

// GetRegisteredModel reads a registered model with its latest versions.
func GetRegisteredModel(ctx context.Context, env *domain.Env, company, name string) (*RegisteredModel, error) {
	q := env.DB.Read()
	m, err := loadModel(ctx, env, q, company, name, false)
	if err != nil {
		return nil, err
	}
	vs, err := env.DB.ModelVersions(ctx, q, company, name)
	if err != nil {
		return nil, err
	}
	return &RegisteredModel{RegisteredModel: m, Latest: latest(vs, nil)}, nil
}

// RenameRegisteredModel renames a model and its versions.
func RenameRegisteredModel(ctx context.Context, env *domain.Env, company, name, newName string) (*RegisteredModel, error) {
	if err := checkModelName(newName); err != nil {
		return nil, err
	}
	m, err := withModel(ctx, env, company, name, func(q store.Querier, m *store.RegisteredModel) error {
		if newName == name {
			return nil
		}
		if _, err := env.DB.GetRegisteredModel(ctx, q, company, newName, false); err == nil {
			return apierr.MLflowAlreadyExists("Registered Model (name=%s) already exists.", newName)
		} else if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		m.Name = newName
		return env.DB.RenameModelVersions(ctx, q, company, name, newName)
	})
	if err != nil {
		return nil, err
	}
	return GetRegisteredModel(ctx, env, company, m.Name)
}

// UpdateRegisteredModel changes a model's description.
func UpdateRegisteredModel(ctx context.Context, env *domain.Env, company, name string, description *string) (*RegisteredModel, error) {
	if description != nil && len(*description) > MaxDescriptionLen {
		return nil, apierr.MLflowInvalidParameter("Description had length %d, which exceeded length limit of %d", len(*description), MaxDescriptionLen)
	}
	if _, err := withModel(ctx, env, company, name, func(_ store.Querier, m *store.RegisteredModel) error {
		if description != nil {
			m.Description = *description
		}
		return nil
	}); err != nil {
		return nil, err
	}
	return GetRegisteredModel(ctx, env, company, name)
}

// DeleteRegisteredModel removes a model and all its versions.
func DeleteRegisteredModel(ctx context.Context, env *domain.Env, company, name string) error {
	return env.DB.Tx(ctx, func(q store.Querier) error {
		if _, err := loadModel(ctx, env, q, company, name, true); err != nil {
			return err
		}
		return env.DB.DeleteRegisteredModel(ctx, q, company, name)
	})
}

// SetRegisteredModelTag sets (or with del removes) a model's tag.
func SetRegisteredModelTag(ctx context.Context, env *domain.Env, company, name, key, value string, del bool) error {
	if err := CheckTag(key, value); err != nil {
		return err
	}
	_, err := withModel(ctx, env, company, name, func(_ store.Querier, m *store.RegisteredModel) error {
		if del {
			delete(m.Tags, key)
			return nil
		}
		if m.Tags == nil {
			m.Tags = map[string]string{}
		}
		m.Tags[key] = value
		return nil
	})
	return err
}

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

// VersionCreate is a create-model-version request.
type VersionCreate struct {
	Company, User, Name, Source, RunID, RunLink, Description, ModelID string
	Tags                                                              map[string]string
}

// CreateModelVersion adds the next version of a registered model.
func CreateModelVersion(ctx context.Context, env *domain.Env, in VersionCreate) (*ModelVersion, error) {
	if in.Source == "" {
		return nil, apierr.MLflowInvalidParameter("Missing value for required parameter 'source'.")
	}
	if err := CheckSource(in.Source); err != nil {
		return nil, err
	}
	for k, v := range in.Tags {
		if err := CheckTag(k, v); err != nil {
			return nil, err
		}
	}
	var out *store.ModelVersion
	_, err := withModel(ctx, env, in.Company, in.Name, func(q store.Querier, m *store.RegisteredModel) error {
		if in.RunID != "" {
			if _, err := loadTask(ctx, env, q, in.Company, in.RunID, false); err != nil {
				return err
			}
		}
		now := env.Time().Millis()
		if m.NextVersion < 1 {
			m.NextVersion = 1
		}
		v := &store.ModelVersion{Name: m.Name, Version: m.NextVersion, Created: now, LastUpdate: now, User: in.User,
			Description: in.Description, Source: in.Source, RunID: in.RunID, RunLink: in.RunLink, ModelID: in.ModelID,
			Stage: StageNone, Status: VersionReady, Tags: copyTags(in.Tags)}
		m.NextVersion++
		out = v
		if in.ModelID != "" {
			if err := noteVersion(ctx, env, q, in.Company, in.ModelID, v.Name, v.Version); err != nil {
				return err
			}
		}
		return env.DB.PutModelVersion(ctx, q, in.Company, v)
	})
	if err != nil {
		return nil, err
	}
	return &ModelVersion{ModelVersion: out}, nil
}

// loadVersion reads version of a model with the model.
func loadVersion(ctx context.Context, env *domain.Env, q store.Querier, company, name string, version int64, lock bool) (*store.RegisteredModel, *store.ModelVersion, error) {
	m, err := loadModel(ctx, env, q, company, name, lock)
	if err != nil {
		return nil, nil, err
	}
	vs, err := env.DB.ModelVersions(ctx, q, company, name)
	if err != nil {
		return nil, nil, err
	}
	for _, v := range vs {
		if v.Version == version {
			return m, v, nil
		}
	}
	return nil, nil, versionNotFound(name, version)
}

// GetModelVersion reads one version.
func GetModelVersion(ctx context.Context, env *domain.Env, company, name string, version int64) (*ModelVersion, error) {
	m, v, err := loadVersion(ctx, env, env.DB.Read(), company, name, version, false)
	if err != nil {
		return nil, err
	}
	return &ModelVersion{ModelVersion: v, Aliases: aliasesOf(m, version)}, nil
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

// editVersion changes one version in a transaction.
func editVersion(ctx context.Context, env *domain.Env, company, name string, version int64, edit func(q store.Querier, m *store.RegisteredModel, v *store.ModelVersion) error) (*ModelVersion, error) {
	var out *ModelVersion
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		m, v, err := loadVersion(ctx, env, q, company, name, version, true)
		if err != nil {
			return err
		}
		if err := edit(q, m, v); err != nil {
			return err
		}
		now := env.Time().Millis()
		v.LastUpdate, m.LastUpdate = now, now
		if err := env.DB.PutModelVersion(ctx, q, company, v); err != nil {
			return err
		}
		out = &ModelVersion{ModelVersion: v, Aliases: aliasesOf(m, version)}
		return env.DB.UpdateRegisteredModel(ctx, q, company, name, m)
	})
	return out, err
}

// UpdateModelVersion changes a version's description.
func UpdateModelVersion(ctx context.Context, env *domain.Env, company, name string, version int64, description *string) (*ModelVersion, error) {
	return editVersion(ctx, env, company, name, version, func(_ store.Querier, _ *store.RegisteredModel, v *store.ModelVersion) error {
		if description != nil {
			v.Description = *description
		}
		return nil
	})
}

// TransitionStage moves a version to stage; archiveExisting archives the
// other versions in that stage (Staging and Production only).
func TransitionStage(ctx context.Context, env *domain.Env, company, name string, version int64, stage string, archiveExisting bool) (*ModelVersion, error) {
	st, err := CanonicalStage(stage)
	if err != nil {
		return nil, err
	}
	return editVersion(ctx, env, company, name, version, func(q store.Querier, _ *store.RegisteredModel, v *store.ModelVersion) error {
		v.Stage = st
		if !archiveExisting || (st != StageStaging && st != StageProduction) {
			return nil
		}
		vs, err := env.DB.ModelVersions(ctx, q, company, name)
		if err != nil {
			return err
		}
		for _, o := range vs {
			if o.Version != version && o.Stage == st {
				o.Stage, o.LastUpdate = StageArchived, env.Time().Millis()
				if err := env.DB.PutModelVersion(ctx, q, company, o); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// SetVersionTag sets (or with del removes) a version's tag.
func SetVersionTag(ctx context.Context, env *domain.Env, company, name string, version int64, key, value string, del bool) error {
	if err := CheckTag(key, value); err != nil {
		return err
	}
	_, err := editVersion(ctx, env, company, name, version, func(_ store.Querier, _ *store.RegisteredModel, v *store.ModelVersion) error {
		if del {
			delete(v.Tags, key)
			return nil
		}
		if v.Tags == nil {
			v.Tags = map[string]string{}
		}
		v.Tags[key] = value
		return nil
	})
	return err
}

// DeleteModelVersion removes a version and the aliases pointing at it.
func DeleteModelVersion(ctx context.Context, env *domain.Env, company, name string, version int64) error {
	return env.DB.Tx(ctx, func(q store.Querier) error {
		m, _, err := loadVersion(ctx, env, q, company, name, version, true)
		if err != nil {
			return err
		}
		for a, v := range m.Aliases {
			if v == version {
				delete(m.Aliases, a)
			}
		}
		m.LastUpdate = env.Time().Millis()
		if err := env.DB.UpdateRegisteredModel(ctx, q, company, name, m); err != nil {
			return err
		}
		return env.DB.DeleteModelVersion(ctx, q, company, name, version)
	})
}

// LatestVersions is the newest version of each of stages (all stages
// when none are given).
func LatestVersions(ctx context.Context, env *domain.Env, company, name string, stages []string) ([]*ModelVersion, error) {
	q := env.DB.Read()
	m, err := loadModel(ctx, env, q, company, name, false)
	if err != nil {
		return nil, err
	}
	var canon []string
	for _, s := range stages {
		st, err := CanonicalStage(s)
		if err != nil {
			return nil, err
		}
		canon = append(canon, st)
	}
	vs, err := env.DB.ModelVersions(ctx, q, company, name)
	if err != nil {
		return nil, err
	}
	var out []*ModelVersion
	for _, v := range latest(vs, canon) {
		out = append(out, &ModelVersion{ModelVersion: v, Aliases: aliasesOf(m, v.Version)})
	}
	return out, nil
}

// RegistrySearch is a search of registered models or versions.
type RegistrySearch struct {
	Company    string
	Filter     string
	OrderBy    []string
	MaxResults int
	PageToken  string
}

var modelAttrs = entityAttrs{"name": false}
var modelOrderAttrs = map[string]bool{"name": true, "timestamp": true, "creation_timestamp": true, "last_updated_timestamp": true}
var versionAttrs = entityAttrs{"name": false, "run_id": false, "source_path": false, "version_number": true, "current_stage": false}
var versionOrderAttrs = map[string]bool{"name": true, "version_number": true, "timestamp": true, "creation_timestamp": true, "last_updated_timestamp": true}

// page cuts a sorted list at a page token and a size.
func page[T any](list []T, tok string, n int) ([]T, string, error) {
	offset, err := ParsePageToken(tok)
	if err != nil {
		return nil, "", err
	}
	if offset >= len(list) {
		return nil, "", nil
	}
	list = list[offset:]
	if len(list) > n {
		return list[:n], PageToken(offset + n), nil
	}
	return list, "", nil
}

func orderValue(key string, name string, version, created, updated int64) (string, int64) {
	switch key {
	case "name":
		return name, 0
	case "version_number":
		return "", version
	case "last_updated_timestamp":
		return "", updated
	}
	return "", created
}

// SearchRegisteredModels lists registered models matching a filter.
func SearchRegisteredModels(ctx context.Context, env *domain.Env, s RegistrySearch) ([]*RegisteredModel, string, error) {
	if s.MaxResults == 0 {
		s.MaxResults = DefRegistryResults
	}
	if s.MaxResults > MaxRegistryResults {
		return nil, "", apierr.MLflowInvalidParameter("Invalid value for request parameter max_results. It must be at most %d, but got value %d", MaxRegistryResults, s.MaxResults)
	}
	clauses, err := parseEntityFilter(s.Filter, modelAttrs)
	if err != nil {
		return nil, "", err
	}
	order, err := parseEntityOrder(s.OrderBy, modelOrderAttrs)
	if err != nil {
		return nil, "", err
	}
	all, err := env.DB.RegisteredModels(ctx, s.Company)
	if err != nil {
		return nil, "", err
	}
	var hits []*store.RegisteredModel
	for _, m := range all {
		ok := true
		for _, c := range clauses {
			if c.Kind == KindTag {
				v, present := m.Tags[c.Key]
				ok = ok && matchString(c, v, present)
			} else {
				ok = ok && matchString(c, m.Name, true)
			}
		}
		if ok {
			hits = append(hits, m)
		}
	}
	order = append(order, entityOrder{Key: "name"})
	sort.SliceStable(hits, func(i, j int) bool {
		for _, o := range order {
			as, an := orderValue(o.Key, hits[i].Name, 0, hits[i].Created, hits[i].LastUpdate)
			bs, bn := orderValue(o.Key, hits[j].Name, 0, hits[j].Created, hits[j].LastUpdate)
			if as != bs {
				return (as < bs) != o.Desc
			}
			if an != bn {
				return (an < bn) != o.Desc
			}
		}
		return false
	})
	pg, next, err := page(hits, s.PageToken, s.MaxResults)
	if err != nil {
		return nil, "", err
	}
	var out []*RegisteredModel
	for _, m := range pg {
		vs, err := env.DB.ModelVersions(ctx, env.DB.Read(), s.Company, m.Name)
		if err != nil {
			return nil, "", err
		}
		out = append(out, &RegisteredModel{RegisteredModel: m, Latest: latest(vs, nil)})
	}
	return out, next, nil
}

// SearchModelVersions lists versions matching a filter.
func SearchModelVersions(ctx context.Context, env *domain.Env, s RegistrySearch) ([]*ModelVersion, string, error) {
	if s.MaxResults == 0 {
		s.MaxResults = DefVersionResultsUI
	}
	if s.MaxResults > MaxVersionResults {
		return nil, "", apierr.MLflowInvalidParameter("Invalid value for request parameter max_results. It must be at most %d, but got value %d", MaxVersionResults, s.MaxResults)
	}
	clauses, err := parseEntityFilter(s.Filter, versionAttrs)
	if err != nil {
		return nil, "", err
	}
	order, err := parseEntityOrder(s.OrderBy, versionOrderAttrs)
	if err != nil {
		return nil, "", err
	}
	q := env.DB.Read()
	all, err := env.DB.ModelVersions(ctx, q, s.Company, "")
	if err != nil {
		return nil, "", err
	}
	var hits []*store.ModelVersion
	for _, v := range all {
		ok := true
		for _, c := range clauses {
			switch {
			case c.Kind == KindTag:
				val, present := v.Tags[c.Key]
				ok = ok && matchString(c, val, present)
			case c.Key == "name":
				ok = ok && matchString(c, v.Name, true)
			case c.Key == "run_id":
				ok = ok && matchString(c, v.RunID, true)
			case c.Key == "source_path":
				ok = ok && matchString(c, v.Source, true)
			case c.Key == "current_stage":
				ok = ok && matchString(c, v.Stage, true)
			case c.Key == "version_number":
				ok = ok && matchNumber(c, float64(v.Version))
			}
		}
		if ok {
			hits = append(hits, v)
		}
	}
	order = append(order, entityOrder{Key: "name"}, entityOrder{Key: "version_number", Desc: true})
	sort.SliceStable(hits, func(i, j int) bool {
		for _, o := range order {
			as, an := orderValue(o.Key, hits[i].Name, hits[i].Version, hits[i].Created, hits[i].LastUpdate)
			bs, bn := orderValue(o.Key, hits[j].Name, hits[j].Version, hits[j].Created, hits[j].LastUpdate)
			if as != bs {
				return (as < bs) != o.Desc
			}
			if an != bn {
				return (an < bn) != o.Desc
			}
		}
		return false
	})
	pg, next, err := page(hits, s.PageToken, s.MaxResults)
	if err != nil {
		return nil, "", err
	}
	models := map[string]*store.RegisteredModel{}
	var out []*ModelVersion
	for _, v := range pg {
		m := models[v.Name]
		if m == nil {
			if m, err = env.DB.GetRegisteredModel(ctx, q, s.Company, v.Name, false); err != nil {
				return nil, "", err
			}
			models[v.Name] = m
		}
		out = append(out, &ModelVersion{ModelVersion: v, Aliases: aliasesOf(m, v.Version)})
	}
	return out, next, nil
}

// DownloadURI is where a version's files are: its source.
func DownloadURI(ctx context.Context, env *domain.Env, company, name string, version int64) (string, error) {
	v, err := GetModelVersion(ctx, env, company, name, version)
	if err != nil {
		return "", err
	}
	return v.Source, nil
}

var uriScheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)

// CheckSource checks a model version's source: a URI (runs:/, models:/,
// mlflow-artifacts:, s3://, ...), never a local path of the server, and
// whose path, percent-decoded, climbs with no ".." and holds no NUL.
func CheckSource(src string) error {
	scheme := strings.ToLower(strings.TrimSuffix(uriScheme.FindString(src), ":"))
	if scheme == "" || scheme == "file" || len(scheme) == 1 {
		return apierr.MLflowInvalidParameter("Invalid model version source: '%s'. A local path (or file: URI) cannot be a model version source on this server; use the run's or the logged model's URI (runs:/, models:/, mlflow-artifacts:/).", src)
	}
	decoded := src
	for i := 0; i < 5; i++ {
		next, err := url.PathUnescape(decoded)
		if err != nil || next == decoded {
			break
		}
		decoded = next
	}
	bad := strings.ContainsRune(decoded, 0)
	for _, seg := range strings.FieldsFunc(decoded, func(r rune) bool { return r == '/' || r == '\\' }) {
		if seg == ".." {
			bad = true
		}
	}
	if bad {
		return apierr.MLflowInvalidParameter("Invalid model version source: '%s'. If supplying a source as an http, https, local file path, ftp, objectstore, or mlflow-artifacts uri, an absolute path must be provided without relative path references present. Please provide an absolute path.", src)
	}
	return nil
}
