// Package usage builds the usage report of a company (server.get_stats):
// the server, its queues, users and task runs, and each agent's machine.
// Trove never sends it anywhere; it is only answered on request.
package usage

import (
	"context"
	"math"
	"runtime"
	"time"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
)

// AgentWindow is how far back agents' machine statistics are summarized.
const AgentWindow = 24 * time.Hour

// Report is the usage report.
type Report struct {
	Time      jsonx.Time `json:"time"`
	CompanyID string     `json:"company_id"`
	Server    Server     `json:"server"`
	Agents    []Agent    `json:"agents"`
}

// Server describes this server and the company's use of it.
type Server struct {
	Version     string         `json:"version"`
	Deployment  string         `json:"deployment"`
	UUID        string         `json:"uuid"`
	Queues      Count          `json:"queues"`
	Users       Count          `json:"users"`
	Resources   map[string]any `json:"resources"`
	Experiments *Runs          `json:"experiments"`
}

// Count is a number of records.
type Count struct {
	Count int `json:"count"`
}

// Runs summarize tasks that ran.
type Runs struct {
	Count         int   `json:"count"`
	AvgRunTimeSec int64 `json:"avg_run_time_sec"`
	AvgIterations int64 `json:"avg_iterations"`
}

// Agent is one worker that reported machine statistics in the window.
type Agent struct {
	UUID        string         `json:"uuid"`
	Resources   map[string]any `json:"resources"`
	Experiments *Runs          `json:"experiments,omitempty"`
}

// Range is a metric's minimum, maximum and mean.
type Range struct {
	Min float64 `json:"min"`
	Max float64 `json:"max"`
	Avg float64 `json:"avg"`
}

// agentMetrics name the summarized worker metrics in the report.
var agentMetrics = map[string]string{"cpu_usage": "cpu_usage", "memory_used": "mem_used_gb", "memory_free": "mem_free_gb"}

// Build gathers the company's report; version and uuid identify the server.
func Build(ctx context.Context, env *domain.Env, company, version, uuid string) (*Report, error) {
	r := &Report{Time: env.Time(), CompanyID: company, Agents: []Agent{},
		Server: Server{Version: version, Deployment: "trove", UUID: uuid, Resources: processResources()}}
	var err error
	if r.Server.Queues.Count, err = env.DB.CountWhere(ctx, "queues", "company = ?", []any{company}); err != nil {
		return nil, err
	}
	if r.Server.Users.Count, err = env.DB.CountCompanyUsers(ctx, company); err != nil {
		return nil, err
	}
	total, err := env.DB.CompanyRunStats(ctx, company, false)
	if err != nil {
		return nil, err
	}
	r.Server.Experiments = &Runs{}
	if len(total) > 0 {
		r.Server.Experiments = runs(total[0])
	}
	perWorker, err := env.DB.CompanyRunStats(ctx, company, true)
	if err != nil {
		return nil, err
	}
	byWorker := map[string]*Runs{}
	for _, s := range perWorker {
		byWorker[s.Worker] = runs(s)
	}
	names := make([]string, 0, len(agentMetrics))
	for m := range agentMetrics {
		names = append(names, m)
	}
	sums, err := env.DB.WorkerMetricSummaries(ctx, company, env.Now().Add(-AgentWindow).UnixMilli(), names)
	if err != nil {
		return nil, err
	}
	for _, s := range sums {
		if n := len(r.Agents); n == 0 || r.Agents[n-1].UUID != s.Worker {
			r.Agents = append(r.Agents, Agent{UUID: s.Worker, Experiments: byWorker[s.Worker],
				Resources: map[string]any{"interval_sec": AgentWindow.Seconds()}})
		}
		res := r.Agents[len(r.Agents)-1].Resources
		res[agentMetrics[s.Metric]] = Range{Min: s.Min, Max: s.Max, Avg: s.Avg}
		if s.Metric == "cpu_usage" {
			res["num_cores"] = s.Devices
		}
	}
	return r, nil
}

func runs(s store.RunStats) *Runs {
	return &Runs{Count: s.Count, AvgRunTimeSec: int64(math.Trunc(s.AvgRunTimeSec)), AvgIterations: int64(math.Trunc(s.AvgIterations))}
}

// processResources describes the server process's machine.
func processResources() map[string]any {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return map[string]any{"num_cores": runtime.NumCPU(), "memory_used_mb": float64(m.Sys) / (1 << 20)}
}
