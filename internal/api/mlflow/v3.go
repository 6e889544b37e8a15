package mlflow

import (
	"context"

	"github.com/trove-ml/trove/internal/rpc"
)

// v3Table holds MLflow's 3.0 rows of this package (router.go: their
// paths start with "3.0/").
func (s *Server) v3Table() []endpoint {
	return []endpoint{
		{v3 + "server-info", get, rpc.Read, s.serverInfo},
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
