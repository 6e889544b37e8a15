// Package config loads Trove's settings once at start: defaults, then a
// YAML file (--config), then TROVE_* environment variables, then flags.
package config

import (
	"flag"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/store"
)

// Config is the server configuration.
type Config struct {
	APIAddr   string `yaml:"api_addr"`
	FilesAddr string `yaml:"files_addr"`
	DataDir   string `yaml:"data_dir"`
	// DB is a postgres:// URL or a SQLite file path ("" = trove.db in DataDir).
	DB string `yaml:"db"`
	// PublicHost is the host name printed in the clearml.conf snippet,
	// optionally with its scheme: "https://ml.corp" says clients reach
	// Trove over TLS (a proxy in front), which the printed URLs and the
	// session cookie's Secure flag follow. See PublicScheme and
	// PublicHostName.
	PublicHost string `yaml:"public_host"`
	// CORSOrigins are more web origins allowed to call with the session
	// cookie, besides the web address's own (cors.go).
	CORSOrigins OriginList `yaml:"cors_origins"`
	// MaxBodyMB limits request bodies.
	MaxBodyMB int `yaml:"max_body_mb"`
	// EventQueueMB bounds the event batches waiting to be written, as
	// events/admission.go counts them; past it add_batch answers 429.
	EventQueueMB int `yaml:"event_queue_mb"`
	// RequestTimeout is the deadline of one API call (timeout.go).
	RequestTimeout time.Duration `yaml:"request_timeout"`
	// AccessLog picks the requests logged at info (accesslog.go).
	AccessLog `yaml:",inline"`
	// LogFormat is "text" or "json"; LogLevel "debug", "info", "warn", "error".
	LogFormat string `yaml:"log_format"`
	LogLevel  string `yaml:"log_level"`
	// AdminKey/AdminSecret create an admin user with exactly this key pair.
	AdminKey    string `yaml:"admin_key"`
	AdminSecret string `yaml:"admin_secret"`
	// TokenSecret signs tokens; generated and stored in the database when
	// neither it nor TokenSecretFile is given.
	TokenSecret string `yaml:"token_secret"`
	// TokenSecretFile names a file holding the token signing secret (its
	// content, surrounding whitespace trimmed), read at every start; the
	// secret is then not stored in the database. See SigningSecret.
	TokenSecretFile string `yaml:"token_secret_file"`
	// Users are more fixed users: key pairs and/or web app logins
	// (users.go).
	Users []auth.FixedUser `yaml:"users"`
	// Files configures the built-in file server (files.go).
	Files Files `yaml:"files"`
	// Ops are the web port, metrics and retention settings (ops.go).
	Ops `yaml:",inline"`
	// Startup are the store's start-up checks (startup.go).
	Startup `yaml:",inline"`
	// Faults are the free-space and database-wait settings (faults.go).
	Faults `yaml:",inline"`
}

// Defaults returns the built-in settings.
func Defaults() Config {
	return Config{
		APIAddr: "0.0.0.0:8008", FilesAddr: "0.0.0.0:8081", DataDir: "./data",
		MaxBodyMB: 100, EventQueueMB: 512, RequestTimeout: DefaultRequestTimeout, AccessLog: AccessLog{SlowCall: DefaultSlowCall}, LogFormat: "text", LogLevel: "info",
		Files:   Files{Storage: "local", Fsync: true},
		Ops:     Ops{WebAddr: "0.0.0.0:8080", Metrics: true, StatsRetention: DefaultStatsRetention},
		Startup: Startup{IntegrityCheck: store.IntegrityQuick, IntegrityTimeout: DefaultIntegrityTimeout},
		Faults:  Faults{MinFreeMB: DefaultMinFreeMB, DBWait: DefaultDBWait},
	}
}

// Load parses args (without the subcommand) with env lookups.
func Load(args []string, getenv func(string) string) (Config, error) {
	return Parse(flag.NewFlagSet("serve", flag.ContinueOnError), args, getenv)
}

// Parse is Load on a flag set that may hold a command's own flags.
func Parse(fs *flag.FlagSet, args []string, getenv func(string) string) (Config, error) {
	cfg := Defaults()
	configPath := fs.String("config", getenv("TROVE_CONFIG"), "YAML config file")
	apiAddr := fs.String("api-addr", "", "API listen address (default 0.0.0.0:8008)")
	filesAddr := fs.String("files-addr", "", "file server listen address (default 0.0.0.0:8081)")
	dataDir := fs.String("data-dir", "", "data directory (default ./data)")
	db := fs.String("db", "", "database: postgres:// URL, sqlite://PATH or a SQLite file path (default: SQLite in the data dir)")
	publicHost := fs.String("public-host", "", "host name clients use, for the printed clearml.conf; https://HOST when clients reach Trove over TLS (then the session cookie is Secure)")
	corsOrigins := fs.String("cors-origins", "", "comma-separated web origins (scheme://host[:port]) allowed to call with the session cookie, besides the web address's own")
	maxBody := fs.Int("max-body-mb", 0, "request body limit in MB (default 100)")
	eventQueue := fs.Int("event-queue-mb", 0, "event batches waiting to be written, in MB as counted, before add_batch answers 429 (default 512)")
	logFormat := fs.String("log-format", "", "log format: text or json")
	logLevel := fs.String("log-level", "", "log level: debug, info, warn, error")
	tokenSecretFile := fs.String("token-secret-file", "", "file holding the token signing secret (else TROVE_TOKEN_SECRET, else one generated and stored in the database)")
	files := addFilesFlags(fs)
	ops := addOpsFlags(fs)
	faults := addFaultFlags(fs)
	timeouts := addTimeoutFlags(fs)
	accessLog := addAccessLogFlags(fs)
	startup := addStartupFlags(fs)
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if *configPath != "" {
		b, err := os.ReadFile(*configPath)
		if err != nil {
			return cfg, fmt.Errorf("read config: %w", err)
		}
		dec := yaml.NewDecoder(strings.NewReader(string(b)))
		dec.KnownFields(true)
		if err := dec.Decode(&cfg); err != nil {
			return cfg, fmt.Errorf("parse config %s: %w", *configPath, err)
		}
	}
	envStr := func(dst *string, name string) {
		if v := getenv(name); v != "" {
			*dst = v
		}
	}
	envStr(&cfg.APIAddr, "TROVE_API_ADDR")
	envStr(&cfg.FilesAddr, "TROVE_FILES_ADDR")
	envStr(&cfg.DataDir, "TROVE_DATA_DIR")
	envStr(&cfg.DB, "TROVE_DB")
	envStr(&cfg.PublicHost, "TROVE_PUBLIC_HOST")
	if v := getenv("TROVE_CORS_ORIGINS"); v != "" {
		cfg.CORSOrigins = ParseOrigins(v)
	}
	envStr(&cfg.LogFormat, "TROVE_LOG_FORMAT")
	envStr(&cfg.LogLevel, "TROVE_LOG_LEVEL")
	envStr(&cfg.AdminKey, "TROVE_ADMIN_KEY")
	envStr(&cfg.AdminSecret, "TROVE_ADMIN_SECRET")
	envStr(&cfg.TokenSecret, "TROVE_TOKEN_SECRET")
	envStr(&cfg.TokenSecretFile, "TROVE_TOKEN_SECRET_FILE")
	if v := getenv("TROVE_MAX_BODY_MB"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return cfg, fmt.Errorf("TROVE_MAX_BODY_MB: %w", err)
		}
		cfg.MaxBodyMB = n
	}
	if v := getenv("TROVE_EVENT_QUEUE_MB"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return cfg, fmt.Errorf("TROVE_EVENT_QUEUE_MB: %w", err)
		}
		cfg.EventQueueMB = n
	}
	if err := applyFilesEnv(&cfg.Files, getenv); err != nil {
		return cfg, err
	}
	if err := applyFaultEnv(&cfg.Faults, getenv); err != nil {
		return cfg, err
	}
	if err := applyOpsEnv(&cfg.Ops, getenv); err != nil {
		return cfg, err
	}
	if err := applyTimeoutEnv(&cfg, getenv); err != nil {
		return cfg, err
	}
	if err := applyAccessLogEnv(&cfg.AccessLog, getenv); err != nil {
		return cfg, err
	}
	if err := applyStartupEnv(&cfg.Startup, getenv); err != nil {
		return cfg, err
	}
	set := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	set(&cfg.APIAddr, *apiAddr)
	set(&cfg.FilesAddr, *filesAddr)
	set(&cfg.DataDir, *dataDir)
	set(&cfg.DB, *db)
	set(&cfg.PublicHost, *publicHost)
	if *corsOrigins != "" {
		cfg.CORSOrigins = ParseOrigins(*corsOrigins)
	}
	set(&cfg.LogFormat, *logFormat)
	set(&cfg.LogLevel, *logLevel)
	set(&cfg.TokenSecretFile, *tokenSecretFile)
	if *maxBody > 0 {
		cfg.MaxBodyMB = *maxBody
	}
	if *eventQueue > 0 {
		cfg.EventQueueMB = *eventQueue
	}
	files.apply(fs, &cfg.Files)
	ops.apply(fs, &cfg.Ops)
	faults.apply(fs, &cfg.Faults)
	timeouts.apply(&cfg)
	accessLog.apply(fs, &cfg.AccessLog)
	startup.apply(fs, &cfg.Startup)
	return cfg, cfg.Validate()
}

// SlogLevel is the log level setting as a slog level; a level slog does
// not know is an error naming the setting (it used to fall back to info
// without a word).
func (c Config) SlogLevel() (slog.Level, error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.LogLevel)); err != nil {
		return level, fmt.Errorf("log_level must be debug, info, warn or error, got %q", c.LogLevel)
	}
	return level, nil
}

// Validate checks the settings.
func (c Config) Validate() error {
	if c.APIAddr == "" {
		return fmt.Errorf("api_addr is empty")
	}
	if c.MaxBodyMB < 1 {
		return fmt.Errorf("max_body_mb must be at least 1")
	}
	if c.EventQueueMB < 1 {
		return fmt.Errorf("event_queue_mb must be at least 1")
	}
	if err := c.validateTimeout(); err != nil {
		return err
	}
	if err := c.AccessLog.validate(); err != nil {
		return err
	}
	switch c.LogFormat {
	case "text", "json":
	default:
		return fmt.Errorf("log_format must be text or json, got %q", c.LogFormat)
	}
	if _, err := c.SlogLevel(); err != nil {
		return err
	}
	if c.TokenSecret != "" && c.TokenSecretFile != "" {
		return fmt.Errorf("token secret: give token_secret (TROVE_TOKEN_SECRET) or token_secret_file (--token-secret-file, TROVE_TOKEN_SECRET_FILE), not both")
	}
	if err := c.validatePublicHost(); err != nil {
		return err
	}
	if (c.AdminKey == "") != (c.AdminSecret == "") {
		return fmt.Errorf("admin key and secret must be given together")
	}
	if err := c.Startup.validate(); err != nil {
		return err
	}
	if err := c.Faults.validate(); err != nil {
		return err
	}
	if err := c.Ops.validate(); err != nil {
		return err
	}
	if err := c.CORSOrigins.validate(); err != nil {
		return err
	}
	if err := validateUsers(c.Users); err != nil {
		return err
	}
	return c.Files.validate()
}

// PublicScheme is the scheme clients reach Trove with: "https" when the
// public host was given as https://HOST, else "http".
func (c Config) PublicScheme() string {
	if scheme, _, ok := strings.Cut(c.PublicHost, "://"); ok && strings.EqualFold(scheme, "https") {
		return "https"
	}
	return "http"
}

// PublicHostName is the public host without its scheme ("" when none is
// configured).
func (c Config) PublicHostName() string {
	if _, host, ok := strings.Cut(c.PublicHost, "://"); ok {
		return strings.TrimSuffix(host, "/")
	}
	return c.PublicHost
}

// validatePublicHost accepts HOST, http://HOST or https://HOST (a
// trailing slash allowed), without a port, path or credentials: the
// printed URLs put each listen port after the host.
func (c Config) validatePublicHost() error {
	if c.PublicHost == "" {
		return nil
	}
	if scheme, _, ok := strings.Cut(c.PublicHost, "://"); ok && !strings.EqualFold(scheme, "http") && !strings.EqualFold(scheme, "https") {
		return fmt.Errorf("public_host: scheme must be http or https, got %q", c.PublicHost)
	}
	host := c.PublicHostName()
	if host == "" || strings.ContainsAny(host, "/@?# ") {
		return fmt.Errorf("public_host must be a host name, http://HOST or https://HOST, got %q", c.PublicHost)
	}
	return nil
}

// SigningSecret is the configured token signing secret: TokenSecret, or
// the content of TokenSecretFile with surrounding whitespace (a final
// newline) trimmed; "" when neither is set (the store then keeps a
// generated one). An unreadable or empty file is an error.
func (c Config) SigningSecret() (string, error) {
	if c.TokenSecretFile == "" {
		return c.TokenSecret, nil
	}
	b, err := os.ReadFile(c.TokenSecretFile)
	if err != nil {
		return "", fmt.Errorf("token_secret_file: %w", err)
	}
	secret := strings.TrimSpace(string(b))
	if secret == "" {
		return "", fmt.Errorf("token_secret_file %s is empty", c.TokenSecretFile)
	}
	return secret, nil
}
