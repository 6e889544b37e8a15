package mlflow

import (
	"net/http"

	"github.com/trove-ml/trove/internal/apierr"
)

// MLflowVersion is the MLflow release whose tracking API Trove speaks
// (the client and REST suite it is tested with); GET /version answers it
// as text, as MLflow's server answers its own version.
const MLflowVersion = "3.4.0"

// serveVersion answers GET /version. It needs no credentials, like
// MLflow's (and Trove's /healthz): it tells only the protocol's version.
func (s *Server) serveVersion(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Server", "trove")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		e := apierr.MLflowBadRequest("Method %s is not allowed for %s (allowed: GET, HEAD)", r.Method, r.URL.Path)
		e.Code = 405
		writeError(w, e)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodGet {
		_, _ = w.Write([]byte(MLflowVersion))
	}
}
