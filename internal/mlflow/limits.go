package mlflow

// MLflow's limits in one place, each with why it is there. Most are
// MLflow's own (its server refuses the same); the rest bound the work
// one request can make Trove do. docs/mlflow.md's "Limits" table states
// each of them (limits_doc_test.go checks it).

// Names, keys and values.
const (
	// MaxNameLen bounds an experiment's and a registered model's name (MLflow's).
	MaxNameLen = 500
	// MaxTagKeyLen bounds a tag's key (MLflow's).
	MaxTagKeyLen = 250
	// MaxTagValueLen bounds a tag's value (MLflow's).
	MaxTagValueLen = 8000
	// MaxParamValLen bounds a param's value (MLflow's).
	MaxParamValLen = 6000
	// MaxDescriptionLen bounds a registered model's description.
	MaxDescriptionLen = 100_000
	// MaxAliasLen bounds a registered model alias (MLflow's).
	MaxAliasLen = 255
)

// Search pages: the most one page may ask for (MLflow's), and the size of
// a page when max_results is not given.
const (
	MaxExpResults         = 50000
	MaxRunResults         = 50000
	MaxRegistryResults    = 1000
	DefRegistryResults    = 100
	MaxVersionResults     = 200_000
	DefVersionResultsUI   = 10_000 // MLflow's UI asks for this many versions
	MaxLoggedModelResults = 1000
	DefLoggedModelResults = 100
	// DefExpResults is the page of search-experiments without max_results.
	DefExpResults = 1000
)

// Filter and order strings, so that parsing and the query they make stay
// small.
const (
	MaxFilterLen    = 8192
	MaxFilterTerms  = 100
	MaxOrderByTerms = 10
)

// MaxArtifactList bounds the files one artifact list call reads from the
// index.
const MaxArtifactList = 100_000

// Bounds of a GraphQL query, MLflow's (its server's defaults), checked on
// the parsed document before it is validated or run, so that a hostile
// query is refused with MLflow's message before any work.
const (
	GraphQLMaxDepth      = 10      // nested selection sets
	GraphQLMaxSelections = 1000    // fields in the whole document
	GraphQLMaxRootFields = 10      // fields at the top of all operations
	GraphQLMaxAliases    = 10      // aliased fields in one selection set
	GraphQLMaxQueryBytes = 100_000 // the query text
	GraphQLMaxTokens     = 50_000  // lexer tokens, so parsing stays linear and short
)
