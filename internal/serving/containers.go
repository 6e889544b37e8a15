// Package serving keeps the serving containers (clearml-serving
// instances) that register and report to the server, the summaries of
// their endpoints and the history of their reports for the endpoint
// charts.
package serving

import (
	"context"
	"encoding/json"
	"errors"
	"math"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/workers"
)

// DefaultTimeout is how long a container stays registered after its last
// register or status report when it names no timeout (the reference's).
const DefaultTimeout = 600

// ReferenceTypes are the kinds of reference item a container may name.
var ReferenceTypes = []string{"app_id", "app_instance", "model", "task", "url"}

// Container is what a container says about itself on register and on
// every status report.
type Container struct {
	ContainerID        string
	EndpointName       string
	EndpointURL        *string
	ModelName          string
	ModelSource        *string
	ModelVersion       *string
	PreprocessArtifact *string
	InputType          *string
	InputSize          *string
	Tags, SystemTags   []string
	Reference          []store.ServingReference
}

// Report is a container's status report: its description and counters.
type Report struct {
	Container
	UptimeSec    *int64
	RequestsNum  *int64
	RequestsMin  *float64
	LatencyMs    *int64
	MachineStats *workers.MachineStats
}

// entry builds the stored container of a company.
func (c *Container) entry(company, ip string) *store.ServingContainer {
	ref := c.Reference
	if ref == nil {
		ref = []store.ServingReference{}
	}
	return &store.ServingContainer{Key: store.ServingKey(company, c.ContainerID), Company: company,
		ContainerID: c.ContainerID, EndpointName: c.EndpointName, EndpointURL: c.EndpointURL, ModelName: c.ModelName,
		ModelSource: c.ModelSource, ModelVersion: c.ModelVersion, PreprocessArtifact: c.PreprocessArtifact,
		InputType: c.InputType, InputSize: c.InputSize, Tags: domain.SortedTags(c.Tags),
		SystemTags: domain.SortedTags(c.SystemTags), Reference: ref, IP: ip}
}

// Register records a container for timeout seconds (DefaultTimeout when
// 0), replacing what it reported before.
func Register(ctx context.Context, env *domain.Env, company, ip string, c *Container, timeout int64) error {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	now := env.Time()
	e := c.entry(company, ip)
	e.RegisterTime, e.LastActivityTime, e.RegisterTimeout = now, now, timeout
	return env.DB.Tx(ctx, func(q store.Querier) error {
		return env.DB.SaveServingContainer(ctx, q, e, now.Millis())
	})
}

// Unregister forgets a container. An unknown one is not an error: the
// reference unregisters containers that are gone without complaint.
func Unregister(ctx context.Context, env *domain.Env, company, container string) error {
	return env.DB.Tx(ctx, func(q store.Querier) error {
		_, err := env.DB.ServingContainers().Delete(ctx, q, store.ServingKey(company, container))
		return err
	})
}

// StatusReport records a container's report and its values for the
// charts. A container that did not register is registered by its first
// report, with the default timeout; a registered one keeps its
// registration time, timeout and (when the call has none) address.
func StatusReport(ctx context.Context, env *domain.Env, company, ip string, r *Report) error {
	now := env.Time()
	return env.DB.Tx(ctx, func(q store.Querier) error {
		prev, err := env.DB.ServingContainers().GetForUpdate(ctx, q, store.ServingKey(company, r.ContainerID), company)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		e := r.entry(company, ip)
		e.RegisterTime, e.RegisterTimeout, e.LastActivityTime = now, DefaultTimeout, now
		if prev != nil && prev.Expires() > now.Millis() {
			e.RegisterTime, e.RegisterTimeout = prev.RegisterTime, prev.RegisterTimeout
			if ip == "" {
				e.IP = prev.IP
			}
		}
		e.UptimeSec, e.RequestsNum, e.RequestsMin, e.LatencyMs = r.UptimeSec, r.RequestsNum, r.RequestsMin, r.LatencyMs
		if r.MachineStats != nil {
			if e.MachineStats, err = json.Marshal(r.MachineStats); err != nil {
				return err
			}
		}
		if err := env.DB.SaveServingContainer(ctx, q, e, now.Millis()); err != nil {
			return err
		}
		url := ""
		if r.EndpointURL != nil {
			url = *r.EndpointURL
		}
		return env.DB.InsertServingStat(ctx, q, store.ServingStat{Company: company, EndpointURL: url,
			ContainerID: r.ContainerID, At: now.Millis(), Values: r.chartValues()})
	})
}

// chartValues are the report's values as the charts read them: device
// lists become their average and their length, memory totals are free
// plus used.
func (r *Report) chartValues() map[string]*float64 {
	v := map[string]*float64{
		"requests_num": intValue(r.RequestsNum), "requests_min": r.RequestsMin,
		"latency_ms": intValue(r.LatencyMs), "uptime_sec": intValue(r.UptimeSec),
	}
	m := r.MachineStats
	if m == nil {
		return v
	}
	v["cpu_usage"], v["cpu_num"] = average(m.CPUUsage)
	v["gpu_usage"], v["gpu_num"] = average(m.GPUUsage)
	v["memory_used"], v["memory_free"] = m.MemoryUsed, m.MemoryFree
	v["memory_total"] = total(m.MemoryFree, m.MemoryUsed)
	v["gpu_memory_used"], _ = average(m.GPUMemoryUsed)
	v["gpu_memory_free"], _ = average(m.GPUMemoryFree)
	v["gpu_memory_total"] = total(v["gpu_memory_free"], v["gpu_memory_used"])
	v["network_rx"], v["network_tx"] = m.NetworkRx, m.NetworkTx
	return v
}

func intValue(p *int64) *float64 {
	if p == nil {
		return nil
	}
	f := float64(*p)
	return &f
}

// average is the mean and the count of a device list (nil for none).
func average(vals []float64) (avg, count *float64) {
	if len(vals) == 0 {
		return nil, nil
	}
	sum := 0.0
	for _, x := range vals {
		sum += x
	}
	a, n := sum/float64(len(vals)), float64(len(vals))
	return &a, &n
}

// total is free plus used, missing parts counted as 0, to 3 decimals.
func total(free, used *float64) *float64 {
	t := 0.0
	for _, p := range []*float64{free, used} {
		if p != nil {
			t += *p
		}
	}
	t = math.Round(t*1000) / 1000
	return &t
}
