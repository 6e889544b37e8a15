package app

import (
	"github.com/trove-ml/trove/internal/config"
	"github.com/trove-ml/trove/internal/httpx"
)

// AllowedOrigins is the origin policy of the API and file ports: the web
// address's own origin (http and https, on the public host) and
// cors_origins; the request's own origin (scheme and Host) is allowed
// always.
func AllowedOrigins(cfg config.Config) (*httpx.Origins, error) {
	var list []string
	if cfg.WebAddr != "" {
		web := publicAddr(cfg.WebAddr, cfg.PublicHostName())
		list = append(list, "http://"+web, "https://"+web)
	}
	return httpx.NewOrigins(append(list, cfg.CORSOrigins...))
}
