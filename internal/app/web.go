package app

import (
	"net/http"

	"github.com/trove-ml/trove/internal/rpc"

	"github.com/trove-ml/trove/internal/ui"
	"github.com/trove-ml/trove/internal/webapp"
)

// newWebHandler builds the web address's handler: Trove's own UI
// (internal/ui, embedded), or the ClearML web app build named by
// --webapp-dir. Either way the API and the file server are served under
// /api/ and /files/ of the same origin, so the session cookie is shared.
func (a *App) newWebHandler() (http.Handler, error) {
	var files http.Handler
	if a.FilesHandler != nil && a.Cfg.FilesAddr != "" {
		files = a.FilesHandler
	}
	o := webapp.Options{
		Dir: a.Cfg.WebappDir, API: a.Handler, Files: files,
		Servers: webapp.Servers{APIAddr: a.Cfg.APIAddr, FilesAddr: a.Cfg.FilesAddr, PublicHost: a.Cfg.PublicHostName(),
			PublicScheme: a.Cfg.PublicScheme()},
		MLflowUIDir: a.Cfg.MLflowUIDir, SignedIn: a.signedIn,
	}
	if a.Cfg.WebappDir == "" {
		o.Assets = ui.Assets()
	}
	return webapp.New(o)
}

// signedIn tells whether r carries credentials Trove accepts (the
// session cookie, for a browser).
func (a *App) signedIn(r *http.Request) bool {
	_, err := rpc.RequestAuth{Credentials: a.Deps.Auth}.Authenticate(r.Context(), r)
	return err == nil
}
