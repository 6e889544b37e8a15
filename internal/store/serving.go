package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/trove-ml/trove/internal/jsonx"
)

// ServingContainer is a registered serving container (a clearml-serving
// instance) as its last register or status report left it.
type ServingContainer struct {
	Key                string             `json:"key"`
	Company            string             `json:"company_id"`
	ContainerID        string             `json:"container_id"`
	EndpointName       string             `json:"endpoint_name"`
	EndpointURL        *string            `json:"endpoint_url,omitempty"`
	ModelName          string             `json:"model_name"`
	ModelSource        *string            `json:"model_source,omitempty"`
	ModelVersion       *string            `json:"model_version,omitempty"`
	PreprocessArtifact *string            `json:"preprocess_artifact,omitempty"`
	InputType          *string            `json:"input_type,omitempty"`
	InputSize          *string            `json:"input_size,omitempty"`
	Tags               []string           `json:"tags"`
	SystemTags         []string           `json:"system_tags"`
	Reference          []ServingReference `json:"reference"`
	UptimeSec          *int64             `json:"uptime_sec,omitempty"`
	RequestsNum        *int64             `json:"requests_num,omitempty"`
	RequestsMin        *float64           `json:"requests_min,omitempty"`
	LatencyMs          *int64             `json:"latency_ms,omitempty"`
	// MachineStats is the report's machine_stats object as sent.
	MachineStats     json.RawMessage `json:"machine_stats,omitempty"`
	IP               string          `json:"ip,omitempty"`
	RegisterTime     jsonx.Time      `json:"register_time"`
	RegisterTimeout  int64           `json:"register_timeout"`
	LastActivityTime jsonx.Time      `json:"last_activity_time"`
}

// ServingReference is one reference item of a serving container.
type ServingReference struct {
	Type  string `json:"type"`
	Value string `json:"value"`
}

// ServingKey is the stored key of a company's container.
func ServingKey(company, container string) string {
	return "serving_container_" + company + "_" + container
}

// Expires is when the container drops out (epoch ms).
func (c *ServingContainer) Expires() int64 {
	return c.LastActivityTime.Millis() + c.RegisterTimeout*1000
}

// RecordID implements Record.
func (c *ServingContainer) RecordID() string { return c.Key }

// ColumnValues implements Record.
func (c *ServingContainer) ColumnValues() []any {
	var url any
	if c.EndpointURL != nil {
		url = *c.EndpointURL
	}
	return []any{c.Company, c.ContainerID, url, c.Expires()}
}

// ServingContainers is the serving_containers table. Rows past their
// expiry are dead: read them through LiveServingContainers.
func (db *DB) ServingContainers() *Table[ServingContainer, *ServingContainer] {
	return &Table[ServingContainer, *ServingContainer]{DB: db, Name: "serving_containers",
		Cols: []string{"company", "container_id", "endpoint_url", "expires"}}
}

// SaveServingContainer writes the container, replacing any stored one,
// and drops the company's containers that expired before now (epoch ms).
func (db *DB) SaveServingContainer(ctx context.Context, q Querier, c *ServingContainer, now int64) error {
	if _, err := q.ExecContext(ctx, `DELETE FROM serving_containers WHERE company = ? AND expires <= ?`, c.Company, now); err != nil {
		return err
	}
	t := db.ServingContainers()
	if _, err := t.Delete(ctx, q, c.Key); err != nil {
		return err
	}
	return t.Insert(ctx, q, c)
}

// ServingURL selects the containers of one endpoint URL; Loading selects
// those without one (still loading); neither selects every container.
type ServingURL struct {
	URL     string
	ByURL   bool
	Loading bool
}

// LiveServingContainers lists the company's containers not expired at now
// (epoch ms), optionally of one endpoint URL or still loading, in the
// order they expire, then by container id.
func (db *DB) LiveServingContainers(ctx context.Context, q Querier, company string, now int64, sel ServingURL) ([]*ServingContainer, error) {
	where, args := "company = ? AND expires > ?", []any{company, now}
	switch {
	case sel.ByURL:
		where += " AND endpoint_url = ?"
		args = append(args, sel.URL)
	case sel.Loading:
		where += " AND endpoint_url IS NULL"
	}
	return db.ServingContainers().Select(ctx, q, where+" ORDER BY expires, container_id", args...)
}

// ServingStat is one status report's values for the endpoint charts
// (nil: not reported). Column names are the keys of Values.
type ServingStat struct {
	Company     string
	EndpointURL string
	ContainerID string
	// At is epoch milliseconds.
	At     int64
	Values map[string]*float64
}

// ServingStatColumns are the value columns of serving_stats.
var ServingStatColumns = []string{"requests_num", "requests_min", "latency_ms", "uptime_sec", "cpu_usage", "cpu_num",
	"gpu_usage", "gpu_num", "memory_used", "memory_free", "memory_total", "gpu_memory_used", "gpu_memory_free",
	"gpu_memory_total", "network_rx", "network_tx"}

// InsertServingStat stores one report's values.
func (db *DB) InsertServingStat(ctx context.Context, q Querier, s ServingStat) error {
	args := []any{s.Company, s.EndpointURL, s.ContainerID, s.At}
	for _, c := range ServingStatColumns {
		var v any
		if p := s.Values[c]; p != nil {
			v = *p
		}
		args = append(args, v)
	}
	_, err := q.ExecContext(ctx, `INSERT INTO serving_stats (company, endpoint_url, container_id, ts, `+
		strings.Join(ServingStatColumns, ", ")+`) VALUES (`+Placeholders(len(args))+`)`, args...)
	return err
}

// ServingStatsRange selects the reports of one endpoint URL of a company.
type ServingStatsRange struct {
	Company, URL string
	// From and To bound the report times (epoch ms, inclusive).
	From, To int64
	// Bucket is the bucket width in ms; buckets start at multiples of it.
	Bucket int64
}

// ServingSample is one container's value of a column over one bucket
// (nil when none of its reports in the bucket carried it).
type ServingSample struct {
	Container string
	// At is the bucket start (epoch ms).
	At    int64
	Value *float64
}

// ServingStatContainers lists the containers that reported on the URL in
// the range, sorted.
func (db *DB) ServingStatContainers(ctx context.Context, q Querier, r ServingStatsRange) ([]string, error) {
	return IDs(ctx, q, `SELECT DISTINCT container_id FROM serving_stats WHERE company = ? AND endpoint_url = ?
		AND ts >= ? AND ts <= ? ORDER BY container_id`, r.Company, r.URL, r.From, r.To)
}

// AggregateServingStats samples column (one of ServingStatColumns) per
// container and bucket: its maximum when useMax, else its average.
func (db *DB) AggregateServingStats(ctx context.Context, q Querier, r ServingStatsRange, column string, useMax bool) ([]ServingSample, error) {
	if !validServingColumn(column) {
		return nil, fmt.Errorf("serving_stats has no column %q", column)
	}
	agg := "AVG"
	if useMax {
		agg = "MAX"
	}
	rows, err := q.QueryContext(ctx, `SELECT container_id, (ts / ?) * ? AS bucket, `+agg+`(`+column+`)
		FROM serving_stats WHERE company = ? AND endpoint_url = ? AND ts >= ? AND ts <= ?
		GROUP BY container_id, bucket ORDER BY bucket, container_id`,
		r.Bucket, r.Bucket, r.Company, r.URL, r.From, r.To)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ServingSample
	for rows.Next() {
		var s ServingSample
		if err := rows.Scan(&s.Container, &s.At, &s.Value); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

func validServingColumn(c string) bool {
	for _, k := range ServingStatColumns {
		if k == c {
			return true
		}
	}
	return false
}
