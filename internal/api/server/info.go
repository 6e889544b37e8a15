package server

import (
	"context"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/rpc"
)

type infoResponse struct {
	Version    string `json:"version"`
	Build      string `json:"build"`
	Commit     string `json:"commit"`
	APIVersion string `json:"api_version,omitempty"`
	UID        string `json:"uid,omitempty"`
}

// serverUID identifies this server (server.info uid, the usage report).
const serverUID = auth.DefaultCompanyID

// info names the server version; clients of 2.8 to 2.11 get the server's
// uid, newer ones the highest API version instead.
func (s *service) info(ctx context.Context, c *rpc.Call, _ *empty) (*infoResponse, error) {
	r := &infoResponse{Version: auth.ServerVersion}
	switch {
	case c.Version.AtLeast(rpc.Version{Major: 2, Minor: 12}):
		r.APIVersion = rpc.MaxVersion.String()
	case c.Version.AtLeast(rpc.Version{Major: 2, Minor: 8}):
		r.UID = serverUID
	}
	return r, nil
}
