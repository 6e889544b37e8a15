package mlflow

import (
	"fmt"
	"net/http"
	"runtime/debug"

	"github.com/trove-ml/trove/internal/apierr"
)

// Shapes shared by handlers: the answer of a call that returns one
// entity, the parameters every search and every tag call read, and the
// opening of a call served outside the JSON table.

// answerUnder makes the answer of a call that returns one entity:
// {key: wire(v)}, or the call's error.
func answerUnder[T, W any](key string, wire func(T) W) func(T, error) (any, error) {
	return func(v T, err error) (any, error) {
		if err != nil {
			return nil, err
		}
		return map[string]any{key: wire(v)}, nil
	}
}

// wireAll is list in MLflow's JSON, nil when empty (so that omitempty
// leaves the member out, as MLflow does).
func wireAll[T, W any](list []T, wire func(T) W) []W {
	if len(list) == 0 {
		return nil
	}
	out := make([]W, len(list))
	for i, v := range list {
		out[i] = wire(v)
	}
	return out
}

// maxResults reads a search's max_results: 0 when absent (the search's
// default), else a positive count (capped so it fits an int anywhere).
func (c *call) maxResults() (int, error) {
	n, err := c.int64p("max_results")
	if err != nil || n == nil {
		return 0, err
	}
	if *n < 1 {
		return 0, apierr.MLflowInvalidParameter("Invalid value for request parameter max_results. It must be a positive integer, but got value %d", *n)
	}
	return int(min(*n, int64(1)<<31)), nil
}

// tag reads a set-tag or delete-tag call's key (required) and value.
func (c *call) tag() (key, value string, err error) {
	if key, err = c.required("key"); err != nil {
		return "", "", err
	}
	value, err = c.str("value")
	return key, value, err
}

// preflight sets the CORS and Server headers of a call served outside the
// JSON table, and answers an OPTIONS preflight (true: answered).
func (s *Server) preflight(w http.ResponseWriter, r *http.Request, methods string) bool {
	s.origins.CORS(w, r, methods)
	w.Header().Set("Server", "trove")
	if r.Method == http.MethodOptions {
		w.WriteHeader(http.StatusOK)
		return true
	}
	return false
}

// recoverCall answers a handler's panic as an internal error (its value
// only in the log); deferred by calls served outside the JSON table.
func (s *Server) recoverCall(w http.ResponseWriter, kind, where string) {
	if p := recover(); p != nil {
		s.log.Error("panic", kind, where, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		writeError(w, apierr.Internal(fmt.Errorf("%v", p)))
	}
}
