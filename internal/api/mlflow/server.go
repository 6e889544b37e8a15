// Package mlflow is MLflow's tracking REST API on Trove's API address
// (issue 38): /api/2.0/mlflow/... and /ajax-api/2.0/mlflow/..., one
// endpoint table, MLflow's request and answer shapes and its error
// envelope. The rules are internal/mlflow's; roles and credentials are
// the ClearML API's (internal/rpc, docs/security.md).
package mlflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	graphql "github.com/graph-gophers/graphql-go"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/events"
	"github.com/trove-ml/trove/internal/files"
	"github.com/trove-ml/trove/internal/httpx"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
)

// Prefixes are the path prefixes the MLflow API answers under; rows of
// the 3.0 ones start with "3.0/" (router.go).
var Prefixes = []string{"/api/2.0/mlflow/", "/ajax-api/2.0/mlflow/"}

// prefixes3 are MLflow 3's prefixes.
var prefixes3 = []string{"/api/3.0/mlflow/", "/ajax-api/3.0/mlflow/"}

// DefaultTimeout bounds a call when the server is given none.
const DefaultTimeout = 60 * time.Second

// Server is the MLflow API's handler.
type Server struct {
	env     *domain.Env
	auth    rpc.Authenticator
	origins *httpx.Origins
	log     *slog.Logger
	maxBody int64
	timeout time.Duration
	ing     *events.Ingester
	routes  router
	// files stores artifacts (artifacts.go); nil: no artifact proxy.
	files *files.Service
	// filesURL is the file server's public URL (task artifacts name it)
	filesURL string
	// gql runs GraphQL queries (graphql.go).
	gql *graphql.Schema
}

// endpoint is one row of the table.
type endpoint struct {
	Path    string
	Methods []string
	Access  rpc.Access
	Handle  func(ctx context.Context, c *call) (any, error)
}

// call is one request: the caller and its parameters (the JSON body's
// members, or the query string's values as JSON strings, a repeated key
// as a list).
type call struct {
	id     *auth.Identity
	params map[string]json.RawMessage
}

// New builds the server. maxBody bounds request bodies (bytes), timeout
// a call (0: DefaultTimeout).
func New(env *domain.Env, authn rpc.Authenticator, origins *httpx.Origins, log *slog.Logger, maxBody int64, timeout time.Duration) *Server {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	s := &Server{env: env, auth: authn, origins: origins, log: log, maxBody: maxBody, timeout: timeout,
		ing: &events.Ingester{DB: env.DB, Now: env.Now}}
	for _, e := range slices.Concat(s.table(), s.artifactTable(), s.registryTable(), s.loggedModelTable(),
		s.datasetTable(), s.scorerTable(), s.promptlabTable(), s.traceTable(), s.v3Table()) {
		if len(e.Access.Roles) == 0 {
			panic("mlflow endpoint without access: " + e.Path)
		}
		ep := e
		s.routes.add(&ep)
	}
	s.gql = s.newGraphQLSchema()
	return s
}

// WithIngester makes log-batch write through ing, the events service's,
// so that both APIs' batches share group-commit transactions.
func (s *Server) WithIngester(ing *events.Ingester) *Server {
	if ing != nil {
		s.ing = ing
	}
	return s
}

// Mount answers the MLflow paths and hands every other request to next.
func (s *Server) Mount(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, p := range Prefixes {
			if rest, ok := strings.CutPrefix(r.URL.Path, p); ok {
				if strings.HasPrefix(rest, v3) {
					rest = "" // a 3.0 row is not reachable under 2.0
				}
				s.serve(w, r, rest)
				return
			}
		}
		for _, p := range prefixes3 {
			if strings.HasPrefix(r.URL.Path, p) {
				s.serve(w, r, v3+strings.TrimPrefix(r.URL.Path, p))
				return
			}
		}
		if slices.Contains(GraphQLPaths, r.URL.Path) {
			s.serveGraphQL(w, r)
			return
		}
		if r.URL.Path == "/version" {
			s.serveVersion(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Paths names the table's rows (router.rowNames; tests check each has
// a test).
func (s *Server) Paths() []string {
	var out []string
	for p := range s.routes.rowNames() {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request, path string) {
	if s.preflight(w, r, "GET, POST, PATCH, DELETE, OPTIONS") {
		return
	}
	start := time.Now()
	status := 200
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("panic", "mlflow", path, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			status = 500
			writeError(w, apierr.Internal(fmt.Errorf("%v", p)))
		}
		s.log.Debug("call", "mlflow", path, "status", status, "duration_ms", float64(time.Since(start).Microseconds())/1000)
	}()
	ep, vars, known := s.routes.match(path, r.Method)
	if !known {
		status = 404
		writeError(w, apierr.MLflowEndpointNotFound(r.Method, r.URL.Path))
		return
	}
	if ep == nil {
		status = 405
		e := apierr.MLflowBadRequest("Method %s is not allowed for %s", r.Method, r.URL.Path)
		e.Code = 405
		writeError(w, e)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.timeout)
	defer cancel()
	out, err := s.run(ctx, ep, vars, w, r)
	if err != nil {
		ae := s.apiError(ctx, path, err)
		status = ae.Code
		writeError(w, ae)
		return
	}
	body, err := json.Marshal(out)
	if err != nil {
		status = 500
		writeError(w, apierr.Internal(err))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(200)
	_, _ = w.Write(body)
}

// apiError is err as an API error: a store fault is 503, a call past
// its deadline 503, anything not already an API error 500 (logged).
func (s *Server) apiError(ctx context.Context, path string, err error) *apierr.Error {
	if ae := apierr.As(err); ae != nil {
		return ae
	}
	if f := store.FaultOf(err); f != "" {
		return apierr.StoreUnavailable(string(f), err)
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		ae := apierr.MLflowBadRequest("The call took longer than %s and was stopped", s.timeout)
		ae.Code = 503
		return ae
	}
	s.log.Error("mlflow call failed", "path", path, "error", err.Error())
	return apierr.Internal(err)
}

// run authenticates, checks the endpoint's access, reads the parameters
// and calls the handler.
func (s *Server) run(ctx context.Context, ep *endpoint, vars map[string]string, w http.ResponseWriter, r *http.Request) (any, error) {
	id, err := s.auth.Authenticate(ctx, r)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(ep.Access.Roles, id.Role) {
		return nil, apierr.RoleNotAllowed(id.Role, ep.Access.Roles)
	}
	if ep.Access.Changes && httpx.CookieOnly(r) {
		if why := s.origins.CheckCookieChange(r); why != "" {
			return nil, apierr.CrossSiteRefused(why)
		}
	}
	c := &call{id: id, params: map[string]json.RawMessage{}}
	if r.Method == http.MethodGet || r.Method == http.MethodDelete {
		for k, vs := range r.URL.Query() {
			if len(vs) == 1 {
				c.params[k], _ = json.Marshal(vs[0])
			} else {
				c.params[k], _ = json.Marshal(vs)
			}
		}
	}
	// MLflow's client sends a DELETE's parameters as a JSON body
	if r.Method != http.MethodGet && (r.Method != http.MethodDelete || r.ContentLength != 0) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.maxBody))
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				return nil, apierr.MLflowInvalidParameter("The request body is larger than the limit of %d bytes", s.maxBody)
			}
			return nil, apierr.MLflowBadRequest("Failed reading the request body")
		}
		if len(strings.TrimSpace(string(body))) > 0 {
			if err := bodyParams(body, c.params); err != nil {
				return nil, err
			}
		}
	}
	// the path's own values win over members of the same name
	for k, v := range vars {
		c.params[k], _ = json.Marshal(v)
	}
	return ep.Handle(ctx, c)
}

// bodyParams splits a JSON object body into its members (raw values; the
// last of a repeated name wins), without encoding/json's reflection.
func bodyParams(body []byte, params map[string]json.RawMessage) error {
	err := jsonx.WalkObject(body, func(key []byte, escaped bool, val []byte) error {
		k, ok := jsonx.MemberName(key, escaped)
		if !ok {
			return jsonx.ErrSyntax
		}
		params[k] = val
		return nil
	})
	if err == nil {
		return nil
	}
	// encoding/json names what is wrong
	var probe map[string]json.RawMessage
	if jerr := json.Unmarshal(body, &probe); jerr != nil {
		err = jerr
	}
	return apierr.MLflowBadRequest("The request body is not a JSON object: %s", shortErr(err))
}

func shortErr(err error) string {
	s := err.Error()
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}

// errorBody is MLflow's error envelope.
type errorBody struct {
	ErrorCode string `json:"error_code"`
	Message   string `json:"message"`
}

// writeError writes e in MLflow's envelope with its HTTP status.
func writeError(w http.ResponseWriter, e *apierr.Error) {
	code := e.Code
	if code < 400 || code > 599 {
		code = 500
	}
	msg := e.Message()
	if code == 500 {
		msg = "Internal error"
	}
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", fmt.Sprint(e.RetryAfter))
	}
	body, _ := json.Marshal(errorBody{ErrorCode: apierr.MLflowCode(e), Message: msg})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_, _ = w.Write(body)
}
