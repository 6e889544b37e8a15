package mlflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	graphql "github.com/graph-gophers/graphql-go"
	gqlerrors "github.com/graph-gophers/graphql-go/errors"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/httpx"
	"github.com/trove-ml/trove/internal/rpc"

	"github.com/trove-ml/trove/internal/mlflow"
)

// GraphQLPaths are where MLflow's GraphQL endpoint answers.
var GraphQLPaths = []string{"/graphql", "/ajax-api/graphql"}

// graphqlAccess is the access of each top-level field. Every field reads:
// MLflow's two "mutations" are searches, which change nothing (as REST's
// POST searches are rpc.Read). A field that changes data would be
// rpc.Write here, and so refused to guests and to cross-site cookies.
// TestGraphQLAccessTable checks every Query and Mutation field is listed.
var graphqlAccess = map[string]rpc.Access{
	"test":                               rpc.Read,
	"testMutation":                       rpc.Read,
	"mlflowGetExperiment":                rpc.Read,
	"mlflowGetRun":                       rpc.Read,
	"mlflowGetMetricHistoryBulkInterval": rpc.Read,
	"mlflowListArtifacts":                rpc.Read,
	"mlflowSearchModelVersions":          rpc.Read,
	"mlflowSearchRuns":                   rpc.Read,
	"mlflowSearchDatasets":               rpc.Read,
	"__schema":                           rpc.Read,
	"__type":                             rpc.Read,
	"__typename":                         rpc.Read,
}

// newGraphQLSchema binds the schema to its resolvers; the executor's own
// limits bound what fragments expand to, past graphqlBounds.
func (s *Server) newGraphQLSchema() *graphql.Schema {
	return graphql.MustParseSchema(graphqlSchema, &gqlRoot{},
		graphql.UseFieldResolvers(),
		graphql.MaxDepth(mlflow.GraphQLMaxDepth+1),
		graphql.MaxSelections(mlflow.GraphQLMaxSelections),
		graphql.MaxQueryLength(mlflow.GraphQLMaxQueryBytes),
		graphql.OverlapValidationLimit(mlflow.GraphQLMaxSelections*10),
		graphql.MaxParallelism(4),
		graphql.Logger(panicLogger{s}),
		graphql.PanicHandler(panicLogger{s}))
}

// panicLogger logs a resolver's panic and answers it as "Internal
// error" (the library's default answer would show the panic's value).
type panicLogger struct{ s *Server }

func (l panicLogger) LogPanic(_ context.Context, v any) {
	l.s.log.Error("panic", "mlflow", "graphql", "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
}

func (panicLogger) MakePanicError(context.Context, any) *gqlerrors.QueryError {
	return &gqlerrors.QueryError{Message: "Internal error"}
}

// gqlParams is a GraphQL request.
type gqlParams struct {
	Query         string         `json:"query"`
	OperationName string         `json:"operationName"`
	Variables     map[string]any `json:"variables"`
}

// gqlAnswer is MLflow's answer: data, and errors as a list of messages
// (null when none).
type gqlAnswer struct {
	Data   json.RawMessage `json:"data"`
	Errors []string        `json:"errors"`
}

// serveGraphQL answers POST (JSON body) and GET (query string) /graphql.
func (s *Server) serveGraphQL(w http.ResponseWriter, r *http.Request) {
	if s.preflight(w, r, "GET, POST, OPTIONS") {
		return
	}
	defer s.recoverCall(w, "mlflow", "graphql")
	if r.Method != http.MethodGet && r.Method != http.MethodPost {
		e := apierr.MLflowBadRequest("Method %s is not allowed for %s (allowed: GET, POST)", r.Method, r.URL.Path)
		e.Code = 405
		writeError(w, e)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.timeout)
	defer cancel()
	start, status := time.Now(), 200
	defer func() {
		s.log.Debug("call", "mlflow", "graphql", "status", status, "duration_ms", float64(time.Since(start).Microseconds())/1000)
	}()
	ans, err := s.graphQL(ctx, w, r)
	if err != nil {
		ae := s.apiError(ctx, "graphql", err)
		status = ae.Code
		writeError(w, ae)
		return
	}
	if len(ans.Data) == 0 {
		ans.Data = json.RawMessage("null")
	}
	writeJSON(w, ans)
}

func (s *Server) graphQL(ctx context.Context, w http.ResponseWriter, r *http.Request) (*gqlAnswer, error) {
	id, err := s.auth.Authenticate(ctx, r)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(rpc.Read.Roles, id.Role) {
		return nil, apierr.RoleNotAllowed(id.Role, rpc.Read.Roles)
	}
	p, err := s.graphQLParams(w, r)
	if err != nil {
		return nil, err
	}
	doc, msg := graphqlBounds(p.Query)
	if msg != "" {
		return &gqlAnswer{Errors: []string{msg}}, nil
	}
	if err := s.graphQLAccess(r, id, doc, p.OperationName); err != nil {
		return nil, err
	}
	res := s.gql.Exec(context.WithValue(ctx, gqlKey{}, &gqlRequest{s: s, id: id}), p.Query, p.OperationName, p.Variables)
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return nil, ctx.Err() // 503, as a REST call past its deadline
	}
	ans := &gqlAnswer{Data: res.Data}
	for _, e := range res.Errors {
		ans.Errors = append(ans.Errors, e.Message)
	}
	return ans, nil
}

// graphQLParams reads the request: a JSON object body (a list, a batch,
// is refused) or the query string's query, operationName and variables.
func (s *Server) graphQLParams(w http.ResponseWriter, r *http.Request) (*gqlParams, error) {
	p := &gqlParams{}
	if r.Method == http.MethodGet {
		q := r.URL.Query()
		p.Query, p.OperationName = q.Get("query"), q.Get("operationName")
		if v := q.Get("variables"); v != "" {
			if err := json.Unmarshal([]byte(v), &p.Variables); err != nil {
				return nil, apierr.MLflowInvalidParameter("Invalid value for parameter 'variables': expected a JSON object")
			}
		}
	} else {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.maxBody))
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				return nil, apierr.MLflowInvalidParameter("The request body is larger than the limit of %d bytes", s.maxBody)
			}
			return nil, apierr.MLflowBadRequest("Failed reading the request body")
		}
		if t := strings.TrimSpace(string(body)); strings.HasPrefix(t, "[") {
			return nil, apierr.MLflowBadRequest("Batched GraphQL requests are not supported: send one query per request")
		}
		if err := json.Unmarshal(body, p); err != nil {
			return nil, apierr.MLflowBadRequest("The request body is not a GraphQL request (a JSON object with query, operationName and variables): %s", shortErr(err))
		}
	}
	if strings.TrimSpace(p.Query) == "" {
		return nil, missing("query")
	}
	return p, nil
}

// graphQLAccess checks the caller's role against each top-level field of
// the operation that will run (fields the schema lacks are left to
// validation, which refuses them).
func (s *Server) graphQLAccess(r *http.Request, id *auth.Identity, doc *ast.QueryDocument, opName string) error {
	var op *ast.OperationDefinition
	if opName == "" && len(doc.Operations) == 1 {
		op = doc.Operations[0]
	} else {
		op = doc.Operations.ForName(opName)
	}
	if op == nil {
		return nil // the executor answers the missing operation
	}
	seen := map[string]bool{}
	var check func(set ast.SelectionSet) error
	check = func(set ast.SelectionSet) error {
		for _, sel := range set {
			switch f := sel.(type) {
			case *ast.Field:
				acc, ok := graphqlAccess[f.Name]
				if !ok {
					continue
				}
				if !slices.Contains(acc.Roles, id.Role) {
					return apierr.RoleNotAllowed(id.Role, acc.Roles)
				}
				if acc.Changes && httpx.CookieOnly(r) {
					if why := s.origins.CheckCookieChange(r); why != "" {
						return apierr.CrossSiteRefused(why)
					}
				}
			case *ast.InlineFragment:
				if err := check(f.SelectionSet); err != nil {
					return err
				}
			case *ast.FragmentSpread:
				if fr := doc.Fragments.ForName(f.Name); fr != nil && !seen[f.Name] {
					seen[f.Name] = true
					if err := check(fr.SelectionSet); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	return check(op.SelectionSet)
}
