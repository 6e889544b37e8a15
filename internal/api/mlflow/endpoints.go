package mlflow

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/mlflow"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
)

var (
	get  = []string{"GET"}
	post = []string{"POST"}
	both = []string{"GET", "POST"}
)

// Read endpoints sent as POST (searches) change nothing: rpc.Read.
func (s *Server) table() []endpoint {
	return []endpoint{
		{"experiments/create", post, rpc.Write, s.createExperiment},
		{"experiments/get", get, rpc.Read, s.getExperiment},
		{"experiments/get-by-name", get, rpc.Read, s.getExperimentByName},
		{"experiments/search", both, rpc.Read, s.searchExperiments},
		{"experiments/update", post, rpc.Write, s.updateExperiment},
		{"experiments/delete", post, rpc.Write, s.deleteExperiment},
		{"experiments/restore", post, rpc.Write, s.restoreExperiment},
		{"experiments/set-experiment-tag", post, rpc.Write, s.setExperimentTag},
		{"experiments/delete-experiment-tag", post, rpc.Write, s.deleteExperimentTag},
		{"runs/create", post, rpc.Write, s.createRun},
		{"runs/get", get, rpc.Read, s.getRun},
		{"runs/update", post, rpc.Write, s.updateRun},
		{"runs/delete", post, rpc.Write, s.deleteRun},
		{"runs/restore", post, rpc.Write, s.restoreRun},
		{"runs/search", both, rpc.Read, s.searchRuns},
		{"runs/log-metric", post, rpc.Write, s.logMetric},
		{"runs/log-parameter", post, rpc.Write, s.logParam},
		{"runs/set-tag", post, rpc.Write, s.setTag},
		{"runs/delete-tag", post, rpc.Write, s.deleteTag},
		{"runs/log-batch", post, rpc.Write, s.logBatch},
		{"runs/log-inputs", post, rpc.Write, s.logInputs},
		{"metrics/get-history", get, rpc.Read, s.metricHistory},
		{"metrics/get-history-bulk", get, rpc.Read, s.metricHistoryBulkList},
		{"metrics/get-history-bulk-interval", get, rpc.Read, s.metricHistoryBulk},
	}
}

type empty struct{}

func (s *Server) createExperiment(ctx context.Context, c *call) (any, error) {
	name, err := c.required("name")
	if err != nil {
		return nil, err
	}
	loc, err := c.str("artifact_location")
	if err != nil {
		return nil, err
	}
	var tags []kvJSON
	if err := c.list("tags", &tags); err != nil {
		return nil, err
	}
	id, err := mlflow.CreateExperiment(ctx, s.env, c.id.CompanyID, c.id.UserID, name, loc, tagMap(tags))
	if err != nil {
		return nil, err
	}
	return map[string]string{"experiment_id": id}, nil
}

func tagMap(kvs []kvJSON) map[string]string {
	if len(kvs) == 0 {
		return nil
	}
	m := make(map[string]string, len(kvs))
	for _, kv := range kvs {
		m[kv.Key] = kv.Value
	}
	return m
}

func (s *Server) getExperiment(ctx context.Context, c *call) (any, error) {
	id, err := c.required("experiment_id")
	if err != nil {
		return nil, err
	}
	return answerUnder("experiment", experimentWire)(mlflow.GetExperiment(ctx, s.env, c.id.CompanyID, id))
}

func (s *Server) getExperimentByName(ctx context.Context, c *call) (any, error) {
	name, err := c.required("experiment_name")
	if err != nil {
		return nil, err
	}
	return answerUnder("experiment", experimentWire)(mlflow.GetExperimentByName(ctx, s.env, c.id.CompanyID, name))
}

// paging reads max_results, page_token and view_type.
func paging(c *call) (int, string, int, error) {
	n, err := c.int64p("max_results")
	if err != nil {
		return 0, "", 0, err
	}
	maxResults := 0
	if n != nil {
		if *n < 1 {
			return 0, "", 0, apierr.MLflowInvalidParameter("Invalid value %d for parameter 'max_results' supplied. It must be a positive integer", *n)
		}
		maxResults = int(min(*n, int64(1)<<31))
	}
	tok, err := c.str("page_token")
	if err != nil {
		return 0, "", 0, err
	}
	vt := ""
	v, ok := c.params["view_type"]
	if rv, rok := c.params["run_view_type"]; rok {
		v, ok = rv, true
	}
	if ok {
		vt = string(v)
		var str string
		if json.Unmarshal(v, &str) == nil {
			vt = str
		}
	}
	view, err := mlflow.ParseViewType(vt)
	return maxResults, tok, view, err
}

func (s *Server) searchExperiments(ctx context.Context, c *call) (any, error) {
	maxResults, tok, view, err := paging(c)
	if err != nil {
		return nil, err
	}
	filter, err := c.str("filter")
	if err != nil {
		return nil, err
	}
	order, err := c.strs("order_by")
	if err != nil {
		return nil, err
	}
	list, next, err := mlflow.SearchExperiments(ctx, s.env, mlflow.ExperimentSearch{Company: c.id.CompanyID, Filter: filter,
		OrderBy: order, MaxResults: maxResults, PageToken: tok, ViewType: view})
	if err != nil {
		return nil, err
	}
	return struct {
		Experiments   []*experimentJSON `json:"experiments,omitempty"`
		NextPageToken string            `json:"next_page_token,omitempty"`
	}{wireAll(list, experimentWire), next}, nil
}

func (s *Server) updateExperiment(ctx context.Context, c *call) (any, error) {
	id, err := c.required("experiment_id")
	if err != nil {
		return nil, err
	}
	name, err := c.str("new_name")
	if err != nil {
		return nil, err
	}
	if name == "" {
		return empty{}, nil
	}
	return empty{}, mlflow.RenameExperiment(ctx, s.env, c.id.CompanyID, c.id.UserID, id, name)
}

func (s *Server) deleteExperiment(ctx context.Context, c *call) (any, error) {
	return s.experimentLifecycle(ctx, c, true)
}

func (s *Server) restoreExperiment(ctx context.Context, c *call) (any, error) {
	return s.experimentLifecycle(ctx, c, false)
}

func (s *Server) experimentLifecycle(ctx context.Context, c *call, deleted bool) (any, error) {
	id, err := c.required("experiment_id")
	if err != nil {
		return nil, err
	}
	return empty{}, mlflow.SetExperimentLifecycle(ctx, s.env, c.id.CompanyID, c.id.UserID, id, deleted)
}

func (s *Server) setExperimentTag(ctx context.Context, c *call) (any, error) {
	id, err := c.required("experiment_id")
	if err != nil {
		return nil, err
	}
	key, value, err := c.tag()
	if err != nil {
		return nil, err
	}
	return empty{}, mlflow.SetExperimentTag(ctx, s.env, c.id.CompanyID, c.id.UserID, id, key, value, false)
}

func (s *Server) deleteExperimentTag(ctx context.Context, c *call) (any, error) {
	id, err := c.required("experiment_id")
	if err != nil {
		return nil, err
	}
	key, err := c.required("key")
	if err != nil {
		return nil, err
	}
	return empty{}, mlflow.SetExperimentTag(ctx, s.env, c.id.CompanyID, c.id.UserID, id, key, "", true)
}

func (s *Server) createRun(ctx context.Context, c *call) (any, error) {
	in := mlflow.RunCreate{Company: c.id.CompanyID, User: c.id.UserID}
	var err error
	if in.ExperimentID, err = c.str("experiment_id"); err != nil {
		return nil, err
	}
	if in.RunName, err = c.str("run_name"); err != nil {
		return nil, err
	}
	if in.UserID, err = c.str("user_id"); err != nil {
		return nil, err
	}
	if in.StartTime, err = c.int64p("start_time"); err != nil {
		return nil, err
	}
	var tags []kvJSON
	if err := c.list("tags", &tags); err != nil {
		return nil, err
	}
	in.Tags = tagMap(tags)
	return answerUnder("run", runWire)(mlflow.CreateRun(ctx, s.env, in))
}

// runID reads run_id, or the older run_uuid.
func runID(c *call) (string, error) {
	id, err := c.str("run_id")
	if err != nil || id != "" {
		return id, err
	}
	id, err = c.str("run_uuid")
	if err == nil && id == "" {
		err = missing("run_id")
	}
	return id, err
}

func (s *Server) getRun(ctx context.Context, c *call) (any, error) {
	id, err := runID(c)
	if err != nil {
		return nil, err
	}
	return answerUnder("run", runWire)(mlflow.GetRun(ctx, s.env, c.id.CompanyID, id))
}

func (s *Server) updateRun(ctx context.Context, c *call) (any, error) {
	id, err := runID(c)
	if err != nil {
		return nil, err
	}
	in := mlflow.RunUpdate{Company: c.id.CompanyID, User: c.id.UserID, RunID: id}
	if c.has("status") {
		st, err := c.str("status")
		if err != nil {
			return nil, err
		}
		in.Status = &st
	}
	if c.has("run_name") {
		n, err := c.str("run_name")
		if err != nil {
			return nil, err
		}
		in.RunName = &n
	}
	if in.EndTime, err = c.int64p("end_time"); err != nil {
		return nil, err
	}
	r, err := mlflow.UpdateRun(ctx, s.env, in)
	if err != nil {
		return nil, err
	}
	return map[string]any{"run_info": runWire(r).Info}, nil
}

func (s *Server) deleteRun(ctx context.Context, c *call) (any, error) {
	return s.runLifecycle(ctx, c, true)
}

func (s *Server) restoreRun(ctx context.Context, c *call) (any, error) {
	return s.runLifecycle(ctx, c, false)
}

func (s *Server) runLifecycle(ctx context.Context, c *call, deleted bool) (any, error) {
	id, err := c.required("run_id")
	if err != nil {
		return nil, err
	}
	return empty{}, mlflow.SetRunLifecycle(ctx, s.env, c.id.CompanyID, c.id.UserID, id, deleted)
}

func (s *Server) searchRuns(ctx context.Context, c *call) (any, error) {
	maxResults, tok, view, err := paging(c)
	if err != nil {
		return nil, err
	}
	exps, err := c.strs("experiment_ids")
	if err != nil {
		return nil, err
	}
	filter, err := c.str("filter")
	if err != nil {
		return nil, err
	}
	order, err := c.strs("order_by")
	if err != nil {
		return nil, err
	}
	runs, next, err := mlflow.SearchRuns(ctx, s.env, mlflow.RunSearch{Company: c.id.CompanyID, ExperimentIDs: exps,
		Filter: filter, OrderBy: order, MaxResults: maxResults, PageToken: tok, ViewType: view})
	if err != nil {
		return nil, err
	}
	return struct {
		Runs          []*runJSON `json:"runs,omitempty"`
		NextPageToken string     `json:"next_page_token,omitempty"`
	}{wireAll(runs, runWire), next}, nil
}

// metricIn is a metric of a request.
type metricIn struct {
	Key       string          `json:"key"`
	Value     json.RawMessage `json:"value"`
	Timestamp json.RawMessage `json:"timestamp"`
	Step      json.RawMessage `json:"step"`
	// the logged model and dataset the point names (MLflow 3)
	ModelID       string `json:"model_id"`
	DatasetName   string `json:"dataset_name"`
	DatasetDigest string `json:"dataset_digest"`
}

// metricsIn reads log-batch's metrics member by member.
func metricsIn(c *call) ([]metricIn, error) {
	var ms []metricIn
	n, err := c.objects("metrics", func(i int, key, val []byte) error {
		for len(ms) <= i {
			ms = append(ms, metricIn{})
		}
		m := &ms[i]
		var str *string
		switch string(key) {
		case "key":
			str = &m.Key
		case "model_id":
			str = &m.ModelID
		case "dataset_name":
			str = &m.DatasetName
		case "dataset_digest":
			str = &m.DatasetDigest
		case "value":
			m.Value = val
		case "timestamp":
			m.Timestamp = val
		case "step":
			m.Step = val
		}
		if str != nil {
			s, ok := rawString(val)
			if !ok {
				return badType("metrics", "a list of objects", c.params["metrics"])
			}
			*str = s
		}
		return nil
	})
	for len(ms) < n {
		ms = append(ms, metricIn{}) // null elements
	}
	return ms, err
}

func (m *metricIn) decode(i int) (mlflow.Metric, error) {
	// read member by member: no map a point (a batch holds 1,000)
	v, ok, err := rawNumber("value", m.Value)
	if err != nil {
		return mlflow.Metric{}, err
	}
	if !ok {
		return mlflow.Metric{}, missing("metrics[" + strconv.Itoa(i) + "].value")
	}
	ts, err := rawInt64("timestamp", m.Timestamp)
	if err != nil {
		return mlflow.Metric{}, err
	}
	if ts == nil {
		return mlflow.Metric{}, missing("metrics[" + strconv.Itoa(i) + "].timestamp")
	}
	step, err := rawInt64("step", m.Step)
	if err != nil {
		return mlflow.Metric{}, err
	}
	out := mlflow.Metric{Key: m.Key, Value: v, Timestamp: *ts,
		MetricLinks: store.MetricLinks{ModelID: m.ModelID, DatasetName: m.DatasetName, DatasetDigest: m.DatasetDigest}}
	if step != nil {
		out.Step = *step
	}
	return out, nil
}

// logged writes a batch: its points, the run's document and its latest
// values, in one transaction (mlflow.LogBatch).
func (s *Server) logged(ctx context.Context, b mlflow.Batch) (any, error) {
	if err := mlflow.LogBatch(ctx, s.env, s.ing, b); err != nil {
		return nil, err
	}
	return empty{}, nil
}

func (s *Server) logMetric(ctx context.Context, c *call) (any, error) {
	id, err := runID(c)
	if err != nil {
		return nil, err
	}
	key, err := c.required("key")
	if err != nil {
		return nil, err
	}
	m := metricIn{Key: key, Value: c.params["value"], Timestamp: c.params["timestamp"], Step: c.params["step"]}
	for name, dst := range map[string]*string{"model_id": &m.ModelID, "dataset_name": &m.DatasetName, "dataset_digest": &m.DatasetDigest} {
		if *dst, err = c.str(name); err != nil {
			return nil, err
		}
	}
	pt, err := m.decode(0)
	if err != nil {
		return nil, err
	}
	return s.logged(ctx, mlflow.Batch{Company: c.id.CompanyID, User: c.id.UserID, RunID: id, Metrics: []mlflow.Metric{pt}})
}

func (s *Server) logParam(ctx context.Context, c *call) (any, error) {
	id, err := runID(c)
	if err != nil {
		return nil, err
	}
	key, value, err := c.tag()
	if err != nil {
		return nil, err
	}
	return s.logged(ctx, mlflow.Batch{Company: c.id.CompanyID, User: c.id.UserID, RunID: id, Params: []mlflow.KV{{Key: key, Value: value}}})
}

func (s *Server) setTag(ctx context.Context, c *call) (any, error) {
	id, err := runID(c)
	if err != nil {
		return nil, err
	}
	key, value, err := c.tag()
	if err != nil {
		return nil, err
	}
	return s.logged(ctx, mlflow.Batch{Company: c.id.CompanyID, User: c.id.UserID, RunID: id, Tags: []mlflow.KV{{Key: key, Value: value}}})
}

func (s *Server) deleteTag(ctx context.Context, c *call) (any, error) {
	id, err := c.required("run_id")
	if err != nil {
		return nil, err
	}
	key, err := c.required("key")
	if err != nil {
		return nil, err
	}
	return empty{}, mlflow.DeleteTag(ctx, s.env, c.id.CompanyID, c.id.UserID, id, key)
}

func (s *Server) logBatch(ctx context.Context, c *call) (any, error) {
	id, err := c.required("run_id")
	if err != nil {
		return nil, err
	}
	ms, err := metricsIn(c)
	if err != nil {
		return nil, err
	}
	var ps, ts []kvJSON
	if err := c.list("params", &ps); err != nil {
		return nil, err
	}
	if err := c.list("tags", &ts); err != nil {
		return nil, err
	}
	if len(ms) > mlflow.MaxBatchMetrics {
		// refused before decoding the points one by one
		return nil, mlflow.CheckBatch(&mlflow.Batch{Metrics: make([]mlflow.Metric, len(ms))})
	}
	b := mlflow.Batch{Company: c.id.CompanyID, User: c.id.UserID, RunID: id}
	for i := range ms {
		m, err := ms[i].decode(i)
		if err != nil {
			return nil, err
		}
		b.Metrics = append(b.Metrics, m)
	}
	for _, p := range ps {
		b.Params = append(b.Params, mlflow.KV{Key: p.Key, Value: p.Value})
	}
	for _, t := range ts {
		b.Tags = append(b.Tags, mlflow.KV{Key: t.Key, Value: t.Value})
	}
	return s.logged(ctx, b)
}

func (s *Server) logInputs(ctx context.Context, c *call) (any, error) {
	id, err := c.required("run_id")
	if err != nil {
		return nil, err
	}
	var ins []datasetInputJSON
	if err := c.list("datasets", &ins); err != nil {
		return nil, err
	}
	var models []modelInputJSON
	if err := c.list("models", &models); err != nil {
		return nil, err
	}
	modelIDs := make([]string, len(models))
	for i, m := range models {
		if m.ModelID == "" {
			return nil, missing("models[" + strconv.Itoa(i) + "].model_id")
		}
		modelIDs[i] = m.ModelID
	}
	if len(ins) > mlflow.MaxBatchTags {
		return nil, apierr.MLflowInvalidParameter("A log-inputs request can contain at most %d datasets. Got %d.", mlflow.MaxBatchTags, len(ins))
	}
	var list []*store.MLflowDatasetInput
	for _, in := range ins {
		d := &store.MLflowDatasetInput{Name: in.Dataset.Name, Digest: in.Dataset.Digest, SourceType: in.Dataset.SourceType,
			Source: in.Dataset.Source, Schema: in.Dataset.Schema, Profile: in.Dataset.Profile, Tags: tagMap(in.Tags)}
		list = append(list, d)
	}
	return empty{}, mlflow.LogInputs(ctx, s.env, c.id.CompanyID, c.id.UserID, id, list, modelIDs)
}

func (s *Server) metricHistory(ctx context.Context, c *call) (any, error) {
	id, err := runID(c)
	if err != nil {
		return nil, err
	}
	key, err := c.required("metric_key")
	if err != nil {
		return nil, err
	}
	maxResults, tok, _, err := paging(c)
	if err != nil {
		return nil, err
	}
	if maxResults == 0 || maxResults > mlflow.MaxHistoryPage {
		maxResults = mlflow.MaxHistoryPage
	}
	offset, err := mlflow.ParsePageToken(tok)
	if err != nil {
		return nil, err
	}
	pts, err := mlflow.MetricHistory(ctx, s.env, c.id.CompanyID, id, key, offset, maxResults+1)
	if err != nil {
		return nil, err
	}
	out := struct {
		Metrics       []metricJSON `json:"metrics,omitempty"`
		NextPageToken string       `json:"next_page_token,omitempty"`
	}{}
	if len(pts) > maxResults {
		pts = pts[:maxResults]
		out.NextPageToken = mlflow.PageToken(offset + maxResults)
	}
	for _, p := range pts {
		out.Metrics = append(out.Metrics, metricWire(p, ""))
	}
	return out, nil
}

func (s *Server) metricHistoryBulk(ctx context.Context, c *call) (any, error) {
	ids, err := c.strs("run_ids")
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return nil, missing("run_ids")
	}
	if len(ids) > mlflow.MaxBulkRuns {
		return nil, apierr.MLflowInvalidParameter("GetMetricHistoryBulkInterval request must specify at most %d run_ids. Received %d run_ids.", mlflow.MaxBulkRuns, len(ids))
	}
	key, err := c.required("metric_key")
	if err != nil {
		return nil, err
	}
	n, err := c.int64p("max_results")
	if err != nil {
		return nil, err
	}
	maxResults := mlflow.DefBulkResults
	if n != nil {
		if *n < 1 || *n > mlflow.MaxBulkResults {
			return nil, apierr.MLflowInvalidParameter("max_results must be between 1 and %d.", mlflow.MaxBulkResults)
		}
		maxResults = int(*n)
	}
	startStep, err := c.int64p("start_step")
	if err != nil {
		return nil, err
	}
	endStep, err := c.int64p("end_step")
	if err != nil {
		return nil, err
	}
	if (startStep == nil) != (endStep == nil) {
		return nil, apierr.MLflowInvalidParameter("If either start step or end step are specified, both must be specified.")
	}
	if startStep != nil && *startStep > *endStep {
		return nil, apierr.MLflowInvalidParameter("end_step must be greater than start_step. Found start_step=%d and end_step=%d.", *startStep, *endStep)
	}
	out := struct {
		Metrics []metricJSON `json:"metrics,omitempty"`
	}{}
	// the steps of all runs are sampled together, each run's last step
	// kept too; every run answers its points at those steps
	hist := make([][]mlflow.Metric, len(ids))
	var steps []int64
	keep := map[int64]bool{}
	for i, id := range ids {
		pts, err := mlflow.MetricHistory(ctx, s.env, c.id.CompanyID, id, key, 0, mlflow.MaxBulkPoints)
		if err != nil {
			return nil, err
		}
		if startStep != nil {
			pts = slices.DeleteFunc(pts, func(p mlflow.Metric) bool { return p.Step < *startStep || p.Step > *endStep })
		}
		hist[i] = pts
		for _, p := range pts {
			steps = append(steps, p.Step)
		}
		if len(pts) > 0 {
			keep[pts[len(pts)-1].Step] = true
		}
	}
	slices.Sort(steps)
	for st := range mlflow.SampleSteps(slices.Compact(steps), maxResults) {
		keep[st] = true
	}
	for i, id := range ids {
		for _, p := range hist[i] {
			if keep[p.Step] {
				out.Metrics = append(out.Metrics, metricWire(p, id))
			}
		}
	}
	return out, nil
}

// metricHistoryBulkList is get-history-bulk: the whole history of one
// metric of several runs, by run id, at most max_results points.
func (s *Server) metricHistoryBulkList(ctx context.Context, c *call) (any, error) {
	ids, err := c.strs("run_id")
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return nil, apierr.MLflowInvalidParameter("GetMetricHistoryBulk request must specify at least one run_id.")
	}
	if len(ids) > mlflow.MaxBulkRuns {
		return nil, apierr.MLflowInvalidParameter("GetMetricHistoryBulk request cannot specify more than %d run_ids. Received %d run_ids.", mlflow.MaxBulkRuns, len(ids))
	}
	key, err := c.str("metric_key")
	if err != nil {
		return nil, err
	}
	if key == "" {
		return nil, apierr.MLflowInvalidParameter("GetMetricHistoryBulk request must specify a metric_key.")
	}
	n, err := c.int64p("max_results")
	if err != nil {
		return nil, err
	}
	limit := mlflow.MaxHistoryPage
	if n != nil && *n > 0 && *n < int64(limit) {
		limit = int(*n)
	}
	slices.Sort(ids)
	out := struct {
		Metrics []metricJSON `json:"metrics,omitempty"`
	}{}
	for _, id := range slices.Compact(ids) {
		pts, err := mlflow.MetricHistory(ctx, s.env, c.id.CompanyID, id, key, 0, limit-len(out.Metrics))
		if err != nil {
			return nil, err
		}
		for _, p := range pts {
			out.Metrics = append(out.Metrics, metricWire(p, id))
		}
		if len(out.Metrics) >= limit {
			break
		}
	}
	return out, nil
}
