// Package webapp serves a build of the ClearML web app on Trove's web
// address: its static files, index.html for the app's client-side routes,
// a generated configuration.json pointing the app at Trove, and the API and
// file server under /api/ and /files/ of the same origin (as the
// reference's webserver proxies them), so the app's calls and its session
// cookie stay on one origin.
package webapp

import (
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/klauspost/compress/gzhttp"
)

// Options describe the build and what the app is pointed at.
type Options struct {
	// Dir is the build's folder: the one holding index.html (for an
	// Angular build, build/browser).
	Dir string
	// Assets, when set, is served instead of Dir: Trove's own UI, embedded
	// in the binary (internal/ui). It needs no configuration.json.
	Assets fs.FS
	// API is the API port's handler, served under /api/.
	API http.Handler
	// Files is the file server's handler, served under /files/; nil when
	// Trove runs without a file server.
	Files http.Handler
	// Servers gives the public URLs written into configuration.json.
	Servers Servers
	// MLflowUIDir, when set, is the MLflow UI's build, served under
	// MLflowUIPrefix with its API calls handed to API (mlflowui.go).
	MLflowUIDir string
	// SignedIn tells whether a request carries a valid session (the
	// MLflow UI's page sends others to the login page); nil: not checked.
	SignedIn func(*http.Request) bool
}

// CheckDir tells whether dir holds a web app build, with an error saying
// what to pass instead. trove serve calls it before anything starts.
func CheckDir(dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("--webapp-dir %s: no such directory", dir)
		}
		return fmt.Errorf("--webapp-dir %s: %w", dir, err)
	}
	if !st.IsDir() {
		return fmt.Errorf("--webapp-dir %s: not a directory", dir)
	}
	idx, err := os.Stat(filepath.Join(dir, "index.html"))
	if err != nil || idx.IsDir() {
		return fmt.Errorf("--webapp-dir %s: no index.html there; pass the folder of a ClearML web app build that holds index.html (build/browser of a source build, or /usr/share/nginx/html copied from the webserver image)", dir)
	}
	return nil
}

// New returns the web address's handler for the build in o.Dir, or for
// o.Assets when set.
func New(o Options) (http.Handler, error) {
	if o.API == nil {
		return nil, errors.New("webapp: no API handler")
	}
	mux := http.NewServeMux()
	mux.Handle("/api/", http.StripPrefix("/api", o.API))
	if o.Files != nil {
		mux.Handle("/files/", http.StripPrefix("/files", o.Files))
		// The SDK posts uploads to its files_server URL as written; given
		// this origin's /files it would meet the mux's redirect to /files/
		// and resend a body it has already streamed.
		mux.Handle("/files", atRoot(o.Files))
	}
	if o.MLflowUIDir != "" {
		ui, err := mlflowUI(o.MLflowUIDir, o.API, o.SignedIn)
		if err != nil {
			return nil, err
		}
		mux.Handle(MLflowUIPrefix, ui)
	}
	root := o.Assets
	local := map[string]any{}
	if root == nil {
		if err := CheckDir(o.Dir); err != nil {
			return nil, err
		}
		var err error
		if local, err = loadLocalConfig(o.Dir); err != nil {
			return nil, err
		}
		root = os.DirFS(o.Dir)
	}
	// Trove's own UI reads it too: fileBaseUrl tells which stored URLs
	// are the file server's, to fetch them under /files/ of this origin.
	csp := WebappCSP
	if o.Assets != nil {
		csp = OwnUICSP
	}
	mux.Handle("/"+configFile, securityHeaders(configHandler(local, o.Servers), csp))
	mux.Handle("/", securityHeaders(gzhttp.GzipHandler(&staticFiles{root: root}), csp))
	return mux, nil
}

// isRoute tells whether a missing path is one of the app's client-side
// routes (answered with index.html) rather than a missing file (404): the
// app fetches optional files such as version.json and credentials.json
// and must see them missing, not get HTML.
func isRoute(p string) bool {
	last := p[strings.LastIndex(p, "/")+1:]
	return !strings.Contains(last, ".")
}

// atRoot serves h as if the request named "/".
func atRoot(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r2 := r.Clone(r.Context())
		r2.URL.Path, r2.URL.RawPath = "/", ""
		h.ServeHTTP(w, r2)
	})
}
