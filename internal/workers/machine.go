// Package workers holds the worker rules that do not depend on HTTP: how a
// status report's machine statistics become stored values, report times,
// and the time buckets of the statistics reads.
package workers

import (
	"strconv"
	"strings"
	"time"

	"github.com/trove-ml/trove/internal/store"
)

// DefaultTimeout is how long a worker stays registered after its last
// register or status report when it names no timeout (the reference's).
const DefaultTimeout = 600

// MachineStats is the machine_stats of a status report. Lists hold one
// value per CPU or GPU; the rest are machine totals.
type MachineStats struct {
	CPUUsage       []float64 `json:"cpu_usage"`
	CPUTemperature []float64 `json:"cpu_temperature"`
	GPUUsage       []float64 `json:"gpu_usage"`
	GPUTemperature []float64 `json:"gpu_temperature"`
	GPUMemoryFree  []float64 `json:"gpu_memory_free"`
	GPUMemoryUsed  []float64 `json:"gpu_memory_used"`
	MemoryUsed     *float64  `json:"memory_used"`
	MemoryFree     *float64  `json:"memory_free"`
	NetworkTx      *float64  `json:"network_tx"`
	NetworkRx      *float64  `json:"network_rx"`
	DiskFreeHome   *float64  `json:"disk_free_home"`
	DiskFreeTemp   *float64  `json:"disk_free_temp"`
	DiskRead       *float64  `json:"disk_read"`
	DiskWrite      *float64  `json:"disk_write"`
}

// Stats turns machine statistics into stored values: the metric is the
// field name, the category the part before its first "_", the variant
// "total" for machine totals or the index for per-device lists. Zero and
// missing values are not stored, as the reference does.
func (m *MachineStats) Stats(company, worker, task string, at int64) []store.WorkerStat {
	var out []store.WorkerStat
	add := func(metric, variant string, v float64) {
		if v == 0 {
			return
		}
		category, _, _ := strings.Cut(metric, "_")
		out = append(out, store.WorkerStat{Company: company, Worker: worker, At: at, Task: task,
			Category: category, Metric: metric, Variant: variant, Value: v})
	}
	for _, l := range []struct {
		metric string
		values []float64
	}{{"cpu_usage", m.CPUUsage}, {"cpu_temperature", m.CPUTemperature}, {"gpu_usage", m.GPUUsage},
		{"gpu_temperature", m.GPUTemperature}, {"gpu_memory_free", m.GPUMemoryFree}, {"gpu_memory_used", m.GPUMemoryUsed}} {
		for i, v := range l.values {
			add(l.metric, strconv.Itoa(i), v)
		}
	}
	for _, t := range []struct {
		metric string
		value  *float64
	}{{"memory_used", m.MemoryUsed}, {"memory_free", m.MemoryFree}, {"network_tx", m.NetworkTx}, {"network_rx", m.NetworkRx},
		{"disk_free_home", m.DiskFreeHome}, {"disk_free_temp", m.DiskFreeTemp}, {"disk_read", m.DiskRead}, {"disk_write", m.DiskWrite}} {
		if t.value != nil {
			add(t.metric, "total", *t.value)
		}
	}
	return out
}

// ReportTime reads a status report timestamp: epoch milliseconds (what
// clearml-agent sends) when above 10^11, else epoch seconds (the seeds).
func ReportTime(ts float64) time.Time {
	if ts > 1e11 {
		return time.UnixMilli(int64(ts)).UTC()
	}
	return time.UnixMilli(int64(ts * 1000)).UTC()
}
