package mlflow

import (
	"context"

	"github.com/trove-ml/trove/internal/mlflow"
	"github.com/trove-ml/trove/internal/rpc"
)

// The model registry's endpoints (issue 38): registered models, their
// versions, stages, aliases and tags.

var (
	patch = []string{"PATCH"}
	del   = []string{"DELETE"}
)

func (s *Server) registryTable() []endpoint {
	return []endpoint{
		{"registered-models/create", post, rpc.Write, s.createRegisteredModel},
		{"registered-models/get", get, rpc.Read, s.getRegisteredModel},
		{"registered-models/rename", post, rpc.Write, s.renameRegisteredModel},
		{"registered-models/update", patch, rpc.Write, s.updateRegisteredModel},
		{"registered-models/delete", del, rpc.Write, s.deleteRegisteredModel},
		{"registered-models/search", both, rpc.Read, s.searchRegisteredModels},
		{"registered-models/set-tag", post, rpc.Write, s.setRegisteredModelTag},
		{"registered-models/delete-tag", del, rpc.Write, s.deleteRegisteredModelTag},
		{"registered-models/get-latest-versions", both, rpc.Read, s.latestVersions},
		// one path, three calls: MountArtifacts routes them by method
		{"registered-models/alias", post, rpc.Write, s.aliasCall("POST")},
		{"registered-models/alias", del, rpc.Write, s.aliasCall("DELETE")},
		{"registered-models/alias", get, rpc.Read, s.aliasCall("GET")},
		{"model-versions/create", post, rpc.Write, s.createModelVersion},
		{"model-versions/get", get, rpc.Read, s.getModelVersion},
		{"model-versions/update", patch, rpc.Write, s.updateModelVersion},
		{"model-versions/delete", del, rpc.Write, s.deleteModelVersion},
		{"model-versions/search", both, rpc.Read, s.searchModelVersions},
		{"model-versions/transition-stage", post, rpc.Write, s.transitionStage},
		{"model-versions/set-tag", post, rpc.Write, s.setVersionTag},
		{"model-versions/delete-tag", del, rpc.Write, s.deleteVersionTag},
		{"model-versions/get-download-uri", get, rpc.Read, s.downloadURI},
	}
}

// optStr reads an optional string parameter (nil when absent).
func (c *call) optStr(name string) (*string, error) {
	if !c.has(name) {
		return nil, nil
	}
	v, err := c.str(name)
	return &v, err
}

func (s *Server) createRegisteredModel(ctx context.Context, c *call) (any, error) {
	name, err := c.required("name")
	if err != nil {
		return nil, err
	}
	desc, err := c.str("description")
	if err != nil {
		return nil, err
	}
	var tags []kvJSON
	if err := c.list("tags", &tags); err != nil {
		return nil, err
	}
	return modelAnswer(mlflow.CreateRegisteredModel(ctx, s.env, c.id.CompanyID, c.id.UserID, name, desc, tagMap(tags)))
}

func (s *Server) getRegisteredModel(ctx context.Context, c *call) (any, error) {
	name, err := c.required("name")
	if err != nil {
		return nil, err
	}
	return modelAnswer(mlflow.GetRegisteredModel(ctx, s.env, c.id.CompanyID, name))
}

func (s *Server) renameRegisteredModel(ctx context.Context, c *call) (any, error) {
	name, err := c.required("name")
	if err != nil {
		return nil, err
	}
	newName, err := c.required("new_name")
	if err != nil {
		return nil, err
	}
	return modelAnswer(mlflow.RenameRegisteredModel(ctx, s.env, c.id.CompanyID, name, newName))
}

func (s *Server) updateRegisteredModel(ctx context.Context, c *call) (any, error) {
	name, err := c.required("name")
	if err != nil {
		return nil, err
	}
	desc, err := c.optStr("description")
	if err != nil {
		return nil, err
	}
	return modelAnswer(mlflow.UpdateRegisteredModel(ctx, s.env, c.id.CompanyID, name, desc))
}

func (s *Server) deleteRegisteredModel(ctx context.Context, c *call) (any, error) {
	name, err := c.required("name")
	if err != nil {
		return nil, err
	}
	return empty{}, mlflow.DeleteRegisteredModel(ctx, s.env, c.id.CompanyID, name)
}

func registrySearch(c *call) (mlflow.RegistrySearch, error) {
	out := mlflow.RegistrySearch{Company: c.id.CompanyID}
	var err error
	if out.MaxResults, err = c.maxResults(); err != nil {
		return out, err
	}
	if out.PageToken, err = c.str("page_token"); err != nil {
		return out, err
	}
	if out.Filter, err = c.str("filter"); err != nil {
		return out, err
	}
	out.OrderBy, err = c.strs("order_by")
	return out, err
}

func (s *Server) searchRegisteredModels(ctx context.Context, c *call) (any, error) {
	in, err := registrySearch(c)
	if err != nil {
		return nil, err
	}
	list, next, err := mlflow.SearchRegisteredModels(ctx, s.env, in)
	if err != nil {
		return nil, err
	}
	return struct {
		Models        []*registeredModelJSON `json:"registered_models,omitempty"`
		NextPageToken string                 `json:"next_page_token,omitempty"`
	}{wireAll(list, registeredModelWire), next}, nil
}

func (s *Server) modelTag(ctx context.Context, c *call, del bool) (any, error) {
	name, err := c.required("name")
	if err != nil {
		return nil, err
	}
	key, value, err := c.tag()
	if err != nil {
		return nil, err
	}
	return empty{}, mlflow.SetRegisteredModelTag(ctx, s.env, c.id.CompanyID, name, key, value, del)
}

func (s *Server) setRegisteredModelTag(ctx context.Context, c *call) (any, error) {
	return s.modelTag(ctx, c, false)
}

func (s *Server) deleteRegisteredModelTag(ctx context.Context, c *call) (any, error) {
	return s.modelTag(ctx, c, true)
}

func (s *Server) latestVersions(ctx context.Context, c *call) (any, error) {
	name, err := c.required("name")
	if err != nil {
		return nil, err
	}
	stages, err := c.strs("stages")
	if err != nil {
		return nil, err
	}
	list, err := mlflow.LatestVersions(ctx, s.env, c.id.CompanyID, name, stages)
	if err != nil {
		return nil, err
	}
	return struct {
		Versions []*modelVersionJSON `json:"model_versions,omitempty"`
	}{wireAll(list, versionOf)}, nil
}

// alias answers registered-models/alias by method (the table row has
// none: aliasCall dispatches).
func (s *Server) aliasCall(method string) func(ctx context.Context, c *call) (any, error) {
	return func(ctx context.Context, c *call) (any, error) {
		name, err := c.required("name")
		if err != nil {
			return nil, err
		}
		alias, err := c.required("alias")
		if err != nil {
			return nil, err
		}
		switch method {
		case "GET":
			return versionAnswer(mlflow.GetVersionByAlias(ctx, s.env, c.id.CompanyID, name, alias))
		case "DELETE":
			return empty{}, mlflow.DeleteAlias(ctx, s.env, c.id.CompanyID, name, alias)
		}
		v, err := c.version()
		if err != nil {
			return nil, err
		}
		return empty{}, mlflow.SetAlias(ctx, s.env, c.id.CompanyID, name, alias, v)
	}
}
