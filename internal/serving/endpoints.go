package serving

import (
	"context"
	"encoding/json"
	"math"
	"sort"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/workers"
)

// Endpoint summarizes the live containers serving one URL.
type Endpoint struct {
	Endpoint    string      `json:"endpoint"`
	Model       string      `json:"model"`
	URL         string      `json:"url"`
	Instances   int         `json:"instances"`
	UptimeSec   *int64      `json:"uptime_sec"`
	Requests    int64       `json:"requests"`
	RequestsMin *float64    `json:"requests_min"`
	LatencyMs   *int64      `json:"latency_ms"`
	LastUpdate  *jsonx.Time `json:"last_update"`
}

// Endpoints summarizes the company's live containers by endpoint URL,
// sorted by URL; containers still loading (no URL yet) are left out.
func Endpoints(ctx context.Context, env *domain.Env, company string) ([]Endpoint, error) {
	all, err := env.DB.LiveServingContainers(ctx, env.DB.Read(), company, env.Now().UnixMilli(), store.ServingURL{})
	if err != nil {
		return nil, err
	}
	byURL := map[string][]*store.ServingContainer{}
	for _, c := range all {
		if c.EndpointURL != nil {
			byURL[*c.EndpointURL] = append(byURL[*c.EndpointURL], c)
		}
	}
	out := []Endpoint{}
	for _, cs := range byURL {
		out = append(out, summary(cs))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].URL < out[j].URL })
	return out, nil
}

// summary adds up the containers of one URL: the longest uptime, the
// requests of all, the mean request rate (2 decimals) and latency, the
// latest report. The first container names the endpoint and model.
func summary(cs []*store.ServingContainer) Endpoint {
	first := cs[0]
	e := Endpoint{Endpoint: first.EndpointName, Model: first.ModelName, URL: *first.EndpointURL, Instances: len(cs)}
	var rateSum, latSum float64
	var rates, lats int
	for _, c := range cs {
		if c.UptimeSec != nil && (e.UptimeSec == nil || *c.UptimeSec > *e.UptimeSec) {
			e.UptimeSec = c.UptimeSec
		}
		if c.RequestsNum != nil {
			e.Requests += *c.RequestsNum
		}
		if c.RequestsMin != nil {
			rateSum += *c.RequestsMin
			rates++
		}
		if c.LatencyMs != nil {
			latSum += float64(*c.LatencyMs)
			lats++
		}
		if e.LastUpdate == nil || c.LastActivityTime.After(e.LastUpdate.Time) {
			t := c.LastActivityTime
			e.LastUpdate = &t
		}
	}
	if rates > 0 {
		r := math.Round(rateSum/float64(rates)*100) / 100
		e.RequestsMin = &r
	}
	if lats > 0 {
		l := int64(math.Round(latSum / float64(lats)))
		e.LatencyMs = &l
	}
	return e
}

// Instance is a container still loading (no endpoint URL yet).
type Instance struct {
	ID                 string     `json:"id"`
	Endpoint           string     `json:"endpoint"`
	URL                *string    `json:"url"`
	Model              string     `json:"model"`
	ModelSource        *string    `json:"model_source"`
	ModelVersion       *string    `json:"model_version"`
	PreprocessArtifact *string    `json:"preprocess_artifact"`
	InputType          *string    `json:"input_type"`
	InputSize          *string    `json:"input_size"`
	UptimeSec          *int64     `json:"uptime_sec"`
	AgeSec             int64      `json:"age_sec"`
	LastUpdate         jsonx.Time `json:"last_update"`
}

// LoadingInstances lists the company's live containers without a URL.
func LoadingInstances(ctx context.Context, env *domain.Env, company string) ([]Instance, error) {
	now := env.Now()
	cs, err := env.DB.LiveServingContainers(ctx, env.DB.Read(), company, now.UnixMilli(), store.ServingURL{Loading: true})
	if err != nil {
		return nil, err
	}
	out := []Instance{}
	for _, c := range cs {
		out = append(out, Instance{ID: c.ContainerID, Endpoint: c.EndpointName, URL: c.EndpointURL, Model: c.ModelName,
			ModelSource: c.ModelSource, ModelVersion: c.ModelVersion, PreprocessArtifact: c.PreprocessArtifact,
			InputType: c.InputType, InputSize: c.InputSize, UptimeSec: c.UptimeSec,
			AgeSec: int64(now.Sub(c.RegisterTime.Time).Seconds()), LastUpdate: c.LastActivityTime})
	}
	return out, nil
}

// Details describes one endpoint URL and each of its live containers.
type Details struct {
	Endpoint           string          `json:"endpoint"`
	Model              string          `json:"model"`
	URL                string          `json:"url"`
	PreprocessArtifact *string         `json:"preprocess_artifact"`
	InputType          *string         `json:"input_type"`
	InputSize          *string         `json:"input_size"`
	ModelSource        *string         `json:"model_source"`
	ModelVersion       *string         `json:"model_version"`
	UptimeSec          *int64          `json:"uptime_sec"`
	LastUpdate         jsonx.Time      `json:"last_update"`
	Instances          []ContainerInfo `json:"instances"`
}

// ContainerInfo is one container of an endpoint.
type ContainerInfo struct {
	ID          string                   `json:"id"`
	UptimeSec   *int64                   `json:"uptime_sec"`
	Requests    *int64                   `json:"requests"`
	RequestsMin *float64                 `json:"requests_min"`
	LatencyMs   *int64                   `json:"latency_ms"`
	LastUpdate  jsonx.Time               `json:"last_update"`
	Reference   []store.ServingReference `json:"reference"`
	CPUCount    int                      `json:"cpu_count"`
	GPUCount    int                      `json:"gpu_count"`
}

// EndpointDetails describes the URL's live containers; a URL without any
// is refused (400/1052).
func EndpointDetails(ctx context.Context, env *domain.Env, company, url string) (*Details, error) {
	cs, err := env.DB.LiveServingContainers(ctx, env.DB.Read(), company, env.Now().UnixMilli(), store.ServingURL{URL: url, ByURL: true})
	if err != nil {
		return nil, err
	}
	if len(cs) == 0 {
		return nil, apierr.NoContainersForURL(url)
	}
	first := cs[0]
	d := &Details{Endpoint: first.EndpointName, Model: first.ModelName, URL: url,
		PreprocessArtifact: first.PreprocessArtifact, InputType: first.InputType, InputSize: first.InputSize,
		ModelSource: first.ModelSource, ModelVersion: first.ModelVersion, Instances: []ContainerInfo{}}
	for _, c := range cs {
		if c.UptimeSec != nil && (d.UptimeSec == nil || *c.UptimeSec > *d.UptimeSec) {
			d.UptimeSec = c.UptimeSec
		}
		if c.LastActivityTime.After(d.LastUpdate.Time) {
			d.LastUpdate = c.LastActivityTime
		}
		cpus, gpus := deviceCounts(c.MachineStats)
		d.Instances = append(d.Instances, ContainerInfo{ID: c.ContainerID, UptimeSec: c.UptimeSec, Requests: c.RequestsNum,
			RequestsMin: c.RequestsMin, LatencyMs: c.LatencyMs, LastUpdate: c.LastActivityTime, Reference: c.Reference,
			CPUCount: cpus, GPUCount: gpus})
	}
	return d, nil
}

// deviceCounts counts the CPUs and GPUs of stored machine statistics.
func deviceCounts(raw json.RawMessage) (cpus, gpus int) {
	var m workers.MachineStats
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil {
		return 0, 0
	}
	return len(m.CPUUsage), len(m.GPUUsage)
}
