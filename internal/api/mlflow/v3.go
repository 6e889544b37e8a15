package mlflow

import (
	"context"

	"github.com/trove-ml/trove/internal/rpc"
)

// Prefixes3 are the paths of MLflow's 3.0 API. Their rows sit in the one
// table under "3.0/<path>"; any other path under them is MLflow's
// ENDPOINT_NOT_FOUND (not the ClearML API's answer), so MLflow's client
// and UI read a missing 3.0 feature as missing.
var Prefixes3 = []string{"/api/3.0/mlflow/", "/ajax-api/3.0/mlflow/"}

// v3Key is the table key of 3.0 path p.
const v3Key = "3.0/"

func (s *Server) v3Table() []endpoint {
	return []endpoint{
		{v3Key + "server-info", get, rpc.Read, s.serverInfo},
	}
}

// serverInfo tells MLflow's client and UI (both ask it first, since
// 3.x) what this server offers: no workspaces, no multipart or presigned
// artifact transfers (the client then sends files whole through the
// artifact proxy), no trace archival, no AI gateway. store_type is null:
// Trove is neither of MLflow's own stores.
func (s *Server) serverInfo(context.Context, *call) (any, error) {
	return map[string]any{
		"store_type":                          nil,
		"workspaces_enabled":                  false,
		"trace_archival_enabled":              false,
		"multipart_uploads_enabled":           false,
		"multipart_downloads_enabled":         false,
		"presigned_upload_run_id_supported":   false,
		"presigned_upload_model_id_supported": false,
		"features_enabled":                    map[string]any{"gateway": false},
	}, nil
}
