package app

import (
	"time"

	"github.com/trove-ml/trove/internal/config"
)

// publicConfig is the configuration server.config answers: what an
// administrator may look at, without keys, secrets, users or the database
// URL (which may hold a password).
func publicConfig(c config.Config) map[string]any {
	files := map[string]any{"storage": c.Files.Storage, "max_upload_mb": c.Files.MaxUploadMB,
		"fsync": c.Files.Fsync, "url_prefixes": append([]string{}, c.Files.URLPrefixes...)}
	if c.Files.Storage == "s3" {
		files["s3"] = map[string]any{"endpoint": c.Files.S3.Endpoint, "bucket": c.Files.S3.Bucket,
			"prefix": c.Files.S3.Prefix, "region": c.Files.S3.Region}
	}
	return map[string]any{
		"api_addr": c.APIAddr, "files_addr": c.FilesAddr, "web_addr": c.WebAddr, "public_host": c.PublicHost,
		"max_body_mb": c.MaxBodyMB, "event_queue_mb": c.EventQueueMB, "request_timeout_sec": c.RequestTimeout.Seconds(),
		"log_format": c.LogFormat, "log_level": c.LogLevel, "metrics": c.Metrics,
		"stats_retention_sec": time.Duration(c.StatsRetention).Seconds(), "files": files,
	}
}
