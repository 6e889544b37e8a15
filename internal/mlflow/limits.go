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
	// SyncLatestRuns is how many runs' latest values one sync transaction
	// copies from their documents (store.SyncLatestMetrics), before a
	// search by metrics and in the background: small, so that a sync holds
	// the store's writer briefly (50 runs of 50 keys: tens of ms).
	SyncLatestRuns = 50
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

// log-batch (MLflow's): the entries of one batch, and the keys of its
// metrics and params.
const (
	MaxBatchMetrics = 1000
	MaxBatchParams  = 100
	MaxBatchTags    = 100
	MaxBatchTotal   = 1000
	MaxMetricKeyLen = 250
	MaxParamKeyLen  = 250
)

// Metric history reads, so that one answer and the points it reads stay
// bounded.
const (
	// MaxHistoryPage is the most points one get-history answer holds.
	MaxHistoryPage = 25000
	// get-history-bulk-interval: the runs it names, the points per run it
	// answers (and without max_results), and the points of one run it
	// looks at.
	MaxBulkRuns    = 100
	MaxBulkResults = 2500
	DefBulkResults = 320
	MaxBulkPoints  = 1_000_000
)

// Experiments, runs, models and artifacts named or touched by one call.
const (
	// MaxExperimentRefs bounds the experiment ids one call names.
	MaxExperimentRefs = 100
	// MaxLinkLen bounds a metric's model_id, dataset_name and
	// dataset_digest.
	MaxLinkLen = 500
	// MaxModelMetricPoints bounds the metric points one logged model
	// read or search looks at.
	MaxModelMetricPoints = 100_000
	// MaxRunModels bounds the models of one log-inputs or outputs call.
	MaxRunModels = 100
	// MaxTaskArtifacts bounds the artifacts noted on one task: past it,
	// files stay MLflow artifacts only (a task document carries its
	// artifacts).
	MaxTaskArtifacts = 1000
	// MaxPromptlabParamSets bounds the entries of each parameter list of a
	// promptlab run.
	MaxPromptlabParamSets = 100
)

// Dataset summaries of the UI (MLflow's 20 experiments and 1,000
// summaries; Trove's: the runs looked at).
const (
	MaxSummaryExperiments = 20
	MaxDatasetSummaries   = 1000
	MaxSummaryRunsRead    = 50_000
)

// Evaluation datasets and their records (Trove's: MLflow has none but
// names), so one call stores and reads a bounded amount.
const (
	MaxEvalDatasetTags      = 100
	MaxEvalDatasetResults   = 1000
	DefEvalDatasetResults   = 1000
	MaxEvalDatasetsSearched = 10_000
	MaxRecordsPerUpsert     = 1000
	MaxRecordBytes          = 1_048_576 // 1 MiB, one record's JSON
	MaxRecordResults        = 1000
)

// Scorers (Trove's: MLflow has none); a definition is text kept as given.
const (
	MaxScorerNameLen       = 256
	MaxSerializedScorerLen = 1_048_576 // 1 MiB
)

// Traces: ids, entries and text of one trace, and what one call links or
// deletes, so a trace document stays small.
const (
	MaxTraceIDLen       = 128
	MaxTraceEntries     = 1000   // tags, and metadata entries
	MaxTraceMetaValue   = 65_536 // 64 KiB
	MaxTracePreview     = 65_536 // 64 KiB
	MaxTraceLinks       = 100    // traces a link-to-run call takes
	MaxTraceRuns        = 100    // runs a trace links to
	MaxTraceDeleteBatch = 10000
)

// Trace searches: the page (and without max_results), the traces read to
// evaluate a filter, and the experiments one search names.
const (
	MaxTraceResults    = 1000
	DefTraceResults    = 100
	MaxTraceScan       = 50000
	MaxTraceExperiment = 100
)

// Spans and assessments of traces, so an export and a trace's answer stay
// bounded.
const (
	// MaxSpansPerCall bounds the spans of one OTLP export.
	MaxSpansPerCall = 10000
	// MaxTraceSpansRead bounds the spans answered from the store.
	MaxTraceSpansRead = 10000
	// MaxTraceDataBytes bounds the traces.json read for a trace's spans.
	MaxTraceDataBytes = 33_554_432 // 32 MiB
	// MaxAssessmentValue bounds a feedback's or expectation's JSON, and a
	// rationale.
	MaxAssessmentValue = 65_536 // 64 KiB
	// MaxAssessmentsRead bounds the assessments answered with a trace.
	MaxAssessmentsRead   = 1000
	MaxAssessmentNameLen = 250
)

// Trace metrics (traces/metrics): the data points of one page (and
// without max_results), the aggregations one call asks, the widest time
// bucket, and the spans and assessments one call reads (of the newest
// MaxTraceScan traces in the time range), so a call's work is bounded.
const (
	MaxTraceMetricResults      = 10000
	DefTraceMetricResults      = 1000 // MLflow's default
	MaxTraceMetricAggregations = 10
	MaxTraceMetricInterval     = 31_622_400 // 366 days, in seconds
	MaxTraceMetricSpans        = 100_000
	MaxTraceMetricAssessments  = 100_000
)
