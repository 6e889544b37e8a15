package mlflow

import (
	"fmt"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/trove-ml/trove/internal/mlflow"
)

// graphqlBounds parses query and checks MLflow's bounds on it: depth,
// total selections, root fields and aliases per level. Fragments and
// inline fragments are walked where they are written, not expanded (the
// executor's own limits, set in graphql.go, bound the expansion). It
// returns the document, or the message of the first bound exceeded or
// of the syntax error.
func graphqlBounds(query string) (*ast.QueryDocument, string) {
	if len(query) > mlflow.GraphQLMaxQueryBytes {
		return nil, fmt.Sprintf("The query is %d bytes; at most %d are allowed", len(query), mlflow.GraphQLMaxQueryBytes)
	}
	doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: query}, mlflow.GraphQLMaxTokens)
	if err != nil {
		return nil, err.Error()
	}
	var sets []ast.SelectionSet
	for _, op := range doc.Operations {
		sets = append(sets, op.SelectionSet)
	}
	for _, f := range doc.Fragments {
		sets = append(sets, f.SelectionSet)
	}
	b := boundsWalk{}
	for i, set := range sets {
		// only operations' top fields are root fields
		if msg := b.walk(set, 1, i < len(doc.Operations)); msg != "" {
			return nil, msg
		}
	}
	if b.roots > mlflow.GraphQLMaxRootFields {
		return nil, overLimit(mlflow.GraphQLMaxRootFields, b.roots, "root fields", "MLFLOW_SERVER_GRAPHQL_MAX_ROOT_FIELDS")
	}
	if b.aliases > mlflow.GraphQLMaxAliases {
		return nil, overLimit(mlflow.GraphQLMaxAliases, b.aliases, "aliases", "MLFLOW_SERVER_GRAPHQL_MAX_ALIASES")
	}
	return doc, ""
}

func overLimit(limit, got int, what, setting string) string {
	return fmt.Sprintf("GraphQL queries should have at most %d %s, got %d %s. MLflow's server reads this limit from %s; Trove's is fixed.",
		limit, what, got, what, setting)
}

// boundsWalk counts while it walks selection sets.
type boundsWalk struct {
	roots, aliases, selections int
}

func (b *boundsWalk) walk(set ast.SelectionSet, depth int, root bool) string {
	if depth > mlflow.GraphQLMaxDepth {
		return fmt.Sprintf("Query exceeds maximum depth of %d", mlflow.GraphQLMaxDepth)
	}
	aliases := 0
	for _, sel := range set {
		var sub ast.SelectionSet
		switch s := sel.(type) {
		case *ast.Field:
			b.selections++
			if b.selections > mlflow.GraphQLMaxSelections {
				return fmt.Sprintf("Query exceeds maximum total selections of %d", mlflow.GraphQLMaxSelections)
			}
			if root {
				b.roots++
			}
			if s.Alias != "" && s.Alias != s.Name {
				aliases++
			}
			sub = s.SelectionSet
		case *ast.InlineFragment:
			// counted as a level, so nesting fragments cannot recurse unbounded
			if msg := b.walk(s.SelectionSet, depth+1, root); msg != "" {
				return msg
			}
			continue
		default:
			continue
		}
		if len(sub) > 0 {
			if msg := b.walk(sub, depth+1, false); msg != "" {
				return msg
			}
		}
	}
	b.aliases = max(b.aliases, aliases)
	return ""
}
