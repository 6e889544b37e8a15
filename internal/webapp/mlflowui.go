package webapp

import (
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/klauspost/compress/gzhttp"
)

// MLflowUIPrefix is where the MLflow UI is served on the web address. The
// UI asks for its files ("static-files/...") and its API ("ajax-api/...",
// "get-artifact", "graphql", ...) relative to its page, so under a prefix
// it stays on this origin and the session cookie goes with every call.
const MLflowUIPrefix = "/mlflow/"

// MLflowUICSP is the policy of the MLflow UI's page and files. Its scripts
// are the build's own files (no inline script), but its plotly.js compiles
// the WebGL charts' draw calls with Function() (regl), hence 'unsafe-eval':
// without it the compare page's parallel coordinates are refused. Styles
// are set inline by its component library; images include the data: and
// blob: URLs it makes for artifacts it previews; its telemetry worker is a
// file of the build. Fetches stay on this origin.
const MLflowUICSP = "default-src 'self'; script-src 'self' 'unsafe-eval'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; media-src 'self' blob:; " +
	"worker-src 'self' blob:; frame-src 'self' blob:; object-src 'none'; base-uri 'self'; form-action 'self'; " +
	"frame-ancestors 'self'"

// mlflowAPIPaths are the paths under the prefix that go to the API
// handler, the prefix removed: MLflow's REST API as the UI calls it, and
// its artifact downloads. Anything else under the prefix is a UI file.
var mlflowAPIPaths = []string{"ajax-api/", "api/2.0/mlflow/", "api/2.0/mlflow-artifacts/", "graphql",
	"get-artifact", "model-versions/get-artifact"}

// mlflowHashed matches the build's fingerprinted files
// ("static/js/main.00d66947.js", "static/media/x.4b0d5f1e.svg"), kept by
// browsers for a year since their content never changes under the name.
var mlflowHashed = regexp.MustCompile(`\.[0-9a-f]{8,}\.[a-z0-9]+$`)

// CheckMLflowUIDir tells whether dir holds the MLflow UI's build, with an
// error saying where to find one.
func CheckMLflowUIDir(dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("--mlflow-ui-dir %s: no such directory", dir)
		}
		return fmt.Errorf("--mlflow-ui-dir %s: %w", dir, err)
	}
	if !st.IsDir() {
		return fmt.Errorf("--mlflow-ui-dir %s: not a directory", dir)
	}
	idx, err := os.Stat(filepath.Join(dir, "index.html"))
	if err != nil || idx.IsDir() {
		return fmt.Errorf("--mlflow-ui-dir %s: no index.html there; pass the MLflow UI's build, mlflow/server/js/build in an installed mlflow package (python -c 'import mlflow, os; print(os.path.dirname(mlflow.__file__))')", dir)
	}
	return nil
}

// mlflowUI serves the build in dir under MLflowUIPrefix and hands its API
// calls to api. signedIn tells whether a request carries a valid session:
// without one, the UI's page sends the browser to the login page first,
// since the MLflow UI has no login of its own.
func mlflowUI(dir string, api http.Handler, signedIn func(*http.Request) bool) (http.Handler, error) {
	if err := CheckMLflowUIDir(dir); err != nil {
		return nil, err
	}
	files := gzhttp.GzipHandler(&mlflowFiles{root: os.DirFS(dir)})
	apiAtRoot := http.StripPrefix(strings.TrimSuffix(MLflowUIPrefix, "/"), api)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rest := strings.TrimPrefix(r.URL.Path, MLflowUIPrefix)
		for _, p := range mlflowAPIPaths {
			if strings.HasPrefix(rest, p) {
				apiAtRoot.ServeHTTP(w, r)
				return
			}
		}
		if (rest == "" || rest == "index.html") && signedIn != nil && !signedIn(r) {
			http.Redirect(w, r, "/login?next="+url.QueryEscape(MLflowUIPrefix), http.StatusFound)
			return
		}
		securityHeaders(files, MLflowUICSP).ServeHTTP(w, r)
	}), nil
}

// mlflowFiles answers the UI's page and its files: "" and index.html are
// the page, static-files/<p> is file p of the build (the names the build
// uses, as MLflow's own server maps them). Nothing else is served.
type mlflowFiles struct {
	root fs.FS
}

func (m *mlflowFiles) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	rest := strings.TrimPrefix(r.URL.Path, MLflowUIPrefix)
	name := ""
	switch {
	case rest == "" || rest == "index.html":
		name = "index.html"
	case strings.HasPrefix(rest, "static-files/"):
		name = strings.TrimPrefix(rest, "static-files/")
	}
	s := &staticFiles{root: m.root, hashed: mlflowHashed}
	if name == "" || !s.serveFile(w, r, name) {
		http.NotFound(w, r)
	}
}
