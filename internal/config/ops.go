package config

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Ops are the operator settings: the web port, the metrics endpoint and
// how long monitoring samples are kept.
type Ops struct {
	// WebAddr is the web app's listen address (the clearml.conf web_server).
	WebAddr string `yaml:"web_addr"`
	// WebappDir is a build of the ClearML web app served on WebAddr
	// (internal/webapp); empty keeps the plain page.
	WebappDir string `yaml:"webapp_dir"`
	// MLflowUIDir is the MLflow UI's build (mlflow/server/js/build of the
	// mlflow wheel), served under /mlflow/ of WebAddr; empty: not served.
	MLflowUIDir string `yaml:"mlflow_ui_dir"`
	// Metrics serves /metrics on the API address (default true).
	Metrics bool `yaml:"metrics"`
	// StatsRetention is how long queue-metric samples and worker
	// statistics are kept (0 = forever).
	StatsRetention Duration `yaml:"stats_retention"`
}

// DefaultStatsRetention keeps monitoring samples for 30 days.
const DefaultStatsRetention = Duration(30 * 24 * time.Hour)

// Duration is a time span written as Go durations ("720h", "90m") or in
// days ("30d").
type Duration time.Duration

// ParseDuration reads "30d" or any time.ParseDuration string.
func ParseDuration(s string) (Duration, error) {
	s = strings.TrimSpace(s)
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.ParseFloat(days, 64)
		if err != nil {
			return 0, fmt.Errorf("invalid duration %q", s)
		}
		return Duration(n * float64(24*time.Hour)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("invalid duration %q (use e.g. 30d or 720h)", s)
	}
	return Duration(d), nil
}

// UnmarshalYAML reads a duration string.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := ParseDuration(n.Value)
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// String prints the duration in Go form.
func (d Duration) String() string { return time.Duration(d).String() }

// Set implements flag.Value.
func (d *Duration) Set(s string) error {
	v, err := ParseDuration(s)
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// opsFlags are the command-line flags of the operator settings.
type opsFlags struct {
	webAddr   *string
	webappDir *string
	mlflowUI  *string
	metrics   *bool
	retention Duration
}

func addOpsFlags(fs *flag.FlagSet) *opsFlags {
	f := &opsFlags{
		webAddr:   fs.String("web-addr", "", "web app listen address (default 0.0.0.0:8080)"),
		webappDir: fs.String("webapp-dir", "", "serve this build of the ClearML web app (the folder holding its index.html) on --web-addr"),
		mlflowUI:  fs.String("mlflow-ui-dir", "", "serve this build of the MLflow UI (mlflow/server/js/build in the mlflow wheel) under /mlflow/ of --web-addr"),
		metrics:   fs.Bool("metrics", true, "serve Prometheus metrics on /metrics of the API address"),
	}
	fs.Var(&f.retention, "stats-retention", "how long queue metrics and worker statistics are kept, e.g. 30d or 720h; 0 keeps them forever (default 30d)")
	return f
}

// apply copies the flags given on the command line over c.
func (f *opsFlags) apply(fs *flag.FlagSet, c *Ops) {
	fs.Visit(func(fl *flag.Flag) {
		switch fl.Name {
		case "web-addr":
			c.WebAddr = *f.webAddr
		case "webapp-dir":
			c.WebappDir = *f.webappDir
		case "mlflow-ui-dir":
			c.MLflowUIDir = *f.mlflowUI
		case "metrics":
			c.Metrics = *f.metrics
		case "stats-retention":
			c.StatsRetention = f.retention
		}
	})
}

// applyOpsEnv reads TROVE_WEB_ADDR, TROVE_WEBAPP_DIR, TROVE_MLFLOW_UI_DIR,
// TROVE_METRICS and TROVE_STATS_RETENTION.
func applyOpsEnv(c *Ops, getenv func(string) string) error {
	if v := getenv("TROVE_WEB_ADDR"); v != "" {
		c.WebAddr = v
	}
	if v := getenv("TROVE_WEBAPP_DIR"); v != "" {
		c.WebappDir = v
	}
	if v := getenv("TROVE_MLFLOW_UI_DIR"); v != "" {
		c.MLflowUIDir = v
	}
	if v := getenv("TROVE_METRICS"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("TROVE_METRICS: %w", err)
		}
		c.Metrics = b
	}
	if v := getenv("TROVE_STATS_RETENTION"); v != "" {
		d, err := ParseDuration(v)
		if err != nil {
			return fmt.Errorf("TROVE_STATS_RETENTION: %w", err)
		}
		c.StatsRetention = d
	}
	return nil
}

// validate checks the operator settings.
func (c Ops) validate() error {
	if c.WebAddr == "" {
		return fmt.Errorf("web_addr is empty")
	}
	if c.StatsRetention < 0 {
		return fmt.Errorf("stats_retention must not be negative")
	}
	return nil
}
