package config

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestOpsSettings(t *testing.T) {
	yml := filepath.Join(t.TempDir(), "trove.yaml")
	if err := os.WriteFile(yml, []byte("web_addr: 127.0.0.1:9090\nmetrics: false\nstats_retention: 7d\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	day := Duration(24 * time.Hour)
	cases := []loadCase[Ops]{
		{name: "defaults", want: Ops{WebAddr: "0.0.0.0:8080", Metrics: true, StatsRetention: 30 * day}},
		{name: "yaml", args: []string{"--config", yml}, want: Ops{WebAddr: "127.0.0.1:9090", Metrics: false, StatsRetention: 7 * day}},
		{name: "env over yaml", args: []string{"--config", yml},
			env:  map[string]string{"TROVE_WEB_ADDR": ":8888", "TROVE_METRICS": "true", "TROVE_STATS_RETENTION": "36h"},
			want: Ops{WebAddr: ":8888", Metrics: true, StatsRetention: Duration(36 * time.Hour)}},
		{name: "flags over env", args: []string{"--web-addr", "127.0.0.1:0", "--metrics=false", "--stats-retention", "0"},
			env:  map[string]string{"TROVE_METRICS": "true", "TROVE_STATS_RETENTION": "2d"},
			want: Ops{WebAddr: "127.0.0.1:0", Metrics: false, StatsRetention: 0}},
		{name: "webapp dir from env", env: map[string]string{"TROVE_WEBAPP_DIR": "/srv/web"},
			want: Ops{WebAddr: "0.0.0.0:8080", WebappDir: "/srv/web", Metrics: true, StatsRetention: 30 * day}},
		{name: "webapp dir flag over env", args: []string{"--webapp-dir", "/opt/build"}, env: map[string]string{"TROVE_WEBAPP_DIR": "/srv/web"},
			want: Ops{WebAddr: "0.0.0.0:8080", WebappDir: "/opt/build", Metrics: true, StatsRetention: 30 * day}},
		{name: "mlflow ui dir from env", env: map[string]string{"TROVE_MLFLOW_UI_DIR": "/srv/mlflow"},
			want: Ops{WebAddr: "0.0.0.0:8080", MLflowUIDir: "/srv/mlflow", Metrics: true, StatsRetention: 30 * day}},
		{name: "mlflow ui dir flag over env", args: []string{"--mlflow-ui-dir", "/opt/js/build"}, env: map[string]string{"TROVE_MLFLOW_UI_DIR": "/srv/mlflow"},
			want: Ops{WebAddr: "0.0.0.0:8080", MLflowUIDir: "/opt/js/build", Metrics: true, StatsRetention: 30 * day}},
		{name: "bad retention", args: []string{"--stats-retention", "soon"}, err: "invalid duration"},
		{name: "negative retention", env: map[string]string{"TROVE_STATS_RETENTION": "-1d"}, err: "negative"},
		{name: "bad metrics env", env: map[string]string{"TROVE_METRICS": "maybe"}, err: "TROVE_METRICS"},
	}
	checkLoad(t, cases, func(c Config) Ops { return c.Ops })
}

func TestStartupSettings(t *testing.T) {
	yml := filepath.Join(t.TempDir(), "trove.yaml")
	if err := os.WriteFile(yml, []byte("integrity_check: full\nintegrity_timeout: 10m\nallow_empty_store: true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []loadCase[Startup]{
		{name: "defaults", want: Startup{IntegrityCheck: "quick", IntegrityTimeout: 2 * time.Minute}},
		{name: "yaml", args: []string{"--config", yml}, want: Startup{IntegrityCheck: "full", IntegrityTimeout: 10 * time.Minute, AllowEmptyStore: true}},
		{name: "env over yaml", args: []string{"--config", yml},
			env:  map[string]string{"TROVE_INTEGRITY_CHECK": "off", "TROVE_INTEGRITY_TIMEOUT": "30s", "TROVE_ALLOW_EMPTY_STORE": "false"},
			want: Startup{IntegrityCheck: "off", IntegrityTimeout: 30 * time.Second}},
		{name: "flags over env", args: []string{"--integrity-check", "full", "--integrity-timeout", "0", "--allow-empty-store"},
			env:  map[string]string{"TROVE_INTEGRITY_CHECK": "off", "TROVE_INTEGRITY_TIMEOUT": "30s"},
			want: Startup{IntegrityCheck: "full", IntegrityTimeout: 0, AllowEmptyStore: true}},
		{name: "bad mode", args: []string{"--integrity-check", "thorough"}, err: `integrity_check must be quick, full or off, got "thorough"`},
		{name: "negative timeout", args: []string{"--integrity-timeout", "-1s"}, err: "integrity_timeout must not be negative"},
		{name: "bad timeout env", env: map[string]string{"TROVE_INTEGRITY_TIMEOUT": "soon"}, err: "TROVE_INTEGRITY_TIMEOUT"},
		{name: "bad allow env", env: map[string]string{"TROVE_ALLOW_EMPTY_STORE": "perhaps"}, err: "TROVE_ALLOW_EMPTY_STORE"},
	}
	checkLoad(t, cases, func(c Config) Startup { return c.Startup })
}
