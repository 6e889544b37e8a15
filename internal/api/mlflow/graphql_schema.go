package mlflow

// graphqlSchema is the GraphQL schema MLflow's UI and clients query at
// /graphql: the same type and field names as MLflow's server, so its
// queries run unchanged. Every field reads; the two "mutations" are
// MLflow's searches, which change nothing (graphqlAccess in graphql.go).
// 64-bit numbers are LongString: written as strings, as MLflow does, so
// JavaScript does not round them. Scalars of the answer types are
// non-null, and so are their lists: MLflow answers a protobuf field's
// default ("", 0, false, []) for an unset one, never null; only a metric's value (null when NaN)
// and apiError (never set) are null.
const graphqlSchema = `
schema { query: Query mutation: Mutation }

"Names the UI component that sent the query; ignored."
directive @component(name: String!) on QUERY | MUTATION

scalar LongString

enum MlflowRunStatus { RUNNING SCHEDULED FINISHED FAILED KILLED }
enum MlflowViewType { ACTIVE_ONLY DELETED_ONLY ALL }
enum MlflowModelVersionStatus { PENDING_REGISTRATION FAILED_REGISTRATION READY }

type ErrorDetail { field: String message: String }
type ApiError { code: String message: String helpUrl: String traceId: String errorDetails: [ErrorDetail] }

type Test { output: String }
type TestMutation { output: String }

type MlflowExperimentTag { key: String! value: String! }
type MlflowExperiment {
	experimentId: String!
	name: String!
	artifactLocation: String!
	lifecycleStage: String!
	lastUpdateTime: LongString!
	creationTime: LongString!
	tags: [MlflowExperimentTag!]!
	effectiveTraceArchivalRetention: String
	workspace: String
}
type MlflowGetExperimentResponse { experiment: MlflowExperiment apiError: ApiError }

type MlflowMetricExtension {
	key: String!
	value: Float
	timestamp: LongString!
	step: LongString!
	datasetName: String!
	datasetDigest: String!
	modelId: String!
	runId: String!
}
type MlflowParam { key: String! value: String! }
type MlflowRunTag { key: String! value: String! }
type MlflowRunData { metrics: [MlflowMetricExtension!]! params: [MlflowParam!]! tags: [MlflowRunTag!]! }
type MlflowRunInfo {
	runId: String!
	runUuid: String!
	runName: String!
	experimentId: String!
	userId: String!
	status: MlflowRunStatus!
	startTime: LongString!
	endTime: LongString!
	artifactUri: String!
	lifecycleStage: String!
}
type MlflowDataset { name: String! digest: String! sourceType: String! source: String! schema: String! profile: String! }
type MlflowInputTag { key: String! value: String! }
type MlflowDatasetInput { tags: [MlflowInputTag!]! dataset: MlflowDataset }
type MlflowModelInput { modelId: String! }
type MlflowRunInputs { datasetInputs: [MlflowDatasetInput!]! modelInputs: [MlflowModelInput!]! }
type MlflowModelOutput { modelId: String! step: LongString! }
type MlflowRunOutputs { modelOutputs: [MlflowModelOutput!]! }
type MlflowRunExtension {
	info: MlflowRunInfo
	data: MlflowRunData
	inputs: MlflowRunInputs
	outputs: MlflowRunOutputs
	experiment: MlflowExperiment
	modelVersions: [MlflowModelVersion!]!
}
type MlflowGetRunResponse { run: MlflowRunExtension apiError: ApiError }
type MlflowSearchRunsResponse { runs: [MlflowRunExtension!]! nextPageToken: String! apiError: ApiError }

type MlflowMetricWithRunId { key: String! value: Float timestamp: LongString! step: LongString! runId: String! }
type MlflowGetMetricHistoryBulkIntervalResponse { metrics: [MlflowMetricWithRunId!]! apiError: ApiError }

type MlflowFileInfo { path: String! isDir: Boolean! fileSize: LongString! }
type MlflowListArtifactsResponse { rootUri: String! files: [MlflowFileInfo!]! nextPageToken: String! apiError: ApiError }

type MlflowModelVersionTag { key: String! value: String! }
type MlflowModelVersion {
	name: String!
	version: String!
	creationTimestamp: LongString!
	lastUpdatedTimestamp: LongString!
	userId: String!
	currentStage: String!
	description: String!
	source: String!
	runId: String!
	status: MlflowModelVersionStatus!
	statusMessage: String!
	tags: [MlflowModelVersionTag!]!
	runLink: String!
	aliases: [String]!
	modelId: String!
}
type MlflowSearchModelVersionsResponse { modelVersions: [MlflowModelVersion!]! nextPageToken: String! apiError: ApiError }

type MlflowDatasetSummary { experimentId: String! name: String! digest: String! context: String! }
type MlflowSearchDatasetsResponse { datasetSummaries: [MlflowDatasetSummary!]! apiError: ApiError }

input MlflowGetExperimentInput { experimentId: String }
input MlflowGetRunInput { runId: String runUuid: String }
input MlflowGetMetricHistoryBulkIntervalInput { runIds: [String] metricKey: String startStep: Int endStep: Int maxResults: Int }
input MlflowListArtifactsInput { runId: String runUuid: String path: String pageToken: String }
input MlflowSearchModelVersionsInput { filter: String maxResults: LongString orderBy: [String] pageToken: String }
input MlflowSearchRunsInput {
	experimentIds: [String]
	filter: String
	runViewType: MlflowViewType
	maxResults: Int
	orderBy: [String]
	pageToken: String
}
input MlflowSearchDatasetsInput { experimentIds: [String] }

type Query {
	test(inputString: String): Test
	mlflowGetExperiment(input: MlflowGetExperimentInput): MlflowGetExperimentResponse
	mlflowGetRun(input: MlflowGetRunInput): MlflowGetRunResponse
	mlflowGetMetricHistoryBulkInterval(input: MlflowGetMetricHistoryBulkIntervalInput): MlflowGetMetricHistoryBulkIntervalResponse
	mlflowListArtifacts(input: MlflowListArtifactsInput): MlflowListArtifactsResponse
	mlflowSearchModelVersions(input: MlflowSearchModelVersionsInput): MlflowSearchModelVersionsResponse
	mlflowSearchRuns(input: MlflowSearchRunsInput): MlflowSearchRunsResponse
}

type Mutation {
	testMutation(inputString: String): TestMutation
	mlflowSearchRuns(input: MlflowSearchRunsInput): MlflowSearchRunsResponse
	mlflowSearchDatasets(input: MlflowSearchDatasetsInput): MlflowSearchDatasetsResponse
}
`
