package app

import (
	"fmt"
	"html"
	"net/http"

	"github.com/trove-ml/trove/internal/webapp"
)

// newWebHandler builds the web address's handler: the ClearML web app
// build named by --webapp-dir (internal/webapp), else a page linking the
// API, so the address clearml.conf names as web_server is alive.
func (a *App) newWebHandler() (http.Handler, error) {
	if a.Cfg.WebappDir == "" {
		return a.plainPage(), nil
	}
	var files http.Handler
	if a.FilesHandler != nil && a.Cfg.FilesAddr != "" {
		files = a.FilesHandler
	}
	return webapp.New(webapp.Options{
		Dir: a.Cfg.WebappDir, API: a.Handler, Files: files,
		Servers: webapp.Servers{APIAddr: a.Cfg.APIAddr, FilesAddr: a.Cfg.FilesAddr, PublicHost: a.Cfg.PublicHost},
	})
}

// plainPage answers "/" with a page linking the API.
func (a *App) plainPage() http.Handler {
	api := "http://" + publicAddr(a.Cfg.APIAddr, a.Cfg.PublicHost)
	page := fmt.Sprintf(`<!doctype html>
<html><head><meta charset="utf-8"><title>Trove</title></head>
<body>
<h1>Trove</h1>
<p>The web app is not built into this Trove yet.</p>
<p>The ClearML API is served at <a href="%[1]s/debug.ping">%[1]s</a>;
point the SDK and clearml-agent at it with clearml.conf.</p>
</body></html>
`, html.EscapeString(api))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(page))
	})
}
