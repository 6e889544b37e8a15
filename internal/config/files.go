package config

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
)

// Files configures the built-in file server (served on FilesAddr).
type Files struct {
	// MaxUploadMB limits the bytes of one upload request (0 = no limit,
	// as the reference file server).
	MaxUploadMB int64 `yaml:"max_upload_mb"`
	// Storage is where files live: "local" (DataDir/files) or "s3".
	Storage string `yaml:"storage"`
	// Fsync makes local uploads reach the disk before they are renamed
	// into place (default true); false trades power-loss safety for
	// speed, as the reference (which never syncs) does.
	Fsync bool `yaml:"fsync"`
	// URLPrefixes are more public URLs under which clients reach the file
	// server (behind a proxy, another host name). URLs under them count as
	// Trove's own files when tasks or models are deleted.
	URLPrefixes []string `yaml:"url_prefixes"`
	// S3 is the S3-compatible backend, used when Storage is "s3".
	S3 FilesS3 `yaml:"s3"`
}

// FilesS3 is an S3-compatible bucket for the file server.
type FilesS3 struct {
	// Endpoint is a URL such as https://s3.amazonaws.com or
	// http://127.0.0.1:9000 (no scheme means https).
	Endpoint string `yaml:"endpoint"`
	Bucket   string `yaml:"bucket"`
	// Prefix is prepended to every object key (e.g. "trove/").
	Prefix    string `yaml:"prefix"`
	Region    string `yaml:"region"`
	AccessKey string `yaml:"access_key"`
	SecretKey string `yaml:"secret_key"`
}

// filesFlags are the command-line flags of the file server settings.
type filesFlags struct {
	maxUploadMB *int64
	storage     *string
}

func addFilesFlags(fs *flag.FlagSet) filesFlags {
	return filesFlags{
		maxUploadMB: fs.Int64("files-max-upload-mb", 0, "file server upload limit in MB (0 = no limit)"),
		storage:     fs.String("files-storage", "", "file server storage: local (the default) or s3 (configured in the YAML file or TROVE_FILES_S3_*)"),
	}
}

// apply copies the flags given on the command line over c.
func (f filesFlags) apply(fs *flag.FlagSet, c *Files) {
	fs.Visit(func(fl *flag.Flag) {
		if fl.Name == "files-max-upload-mb" {
			c.MaxUploadMB = *f.maxUploadMB
		}
	})
	if *f.storage != "" {
		c.Storage = *f.storage
	}
}

// applyFilesEnv reads the TROVE_FILES_* variables.
func applyFilesEnv(c *Files, getenv func(string) string) error {
	if v := getenv("TROVE_FILES_MAX_UPLOAD_MB"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return fmt.Errorf("TROVE_FILES_MAX_UPLOAD_MB: %w", err)
		}
		c.MaxUploadMB = n
	}
	if v := getenv("TROVE_FILES_FSYNC"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("TROVE_FILES_FSYNC: %w", err)
		}
		c.Fsync = b
	}
	if v := getenv("TROVE_FILES_URL_PREFIXES"); v != "" {
		c.URLPrefixes = nil
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				c.URLPrefixes = append(c.URLPrefixes, p)
			}
		}
	}
	for name, dst := range map[string]*string{
		"TROVE_FILES_STORAGE":       &c.Storage,
		"TROVE_FILES_S3_ENDPOINT":   &c.S3.Endpoint,
		"TROVE_FILES_S3_BUCKET":     &c.S3.Bucket,
		"TROVE_FILES_S3_PREFIX":     &c.S3.Prefix,
		"TROVE_FILES_S3_REGION":     &c.S3.Region,
		"TROVE_FILES_S3_ACCESS_KEY": &c.S3.AccessKey,
		"TROVE_FILES_S3_SECRET_KEY": &c.S3.SecretKey,
	} {
		if v := getenv(name); v != "" {
			*dst = v
		}
	}
	return nil
}

// validate checks the file server settings.
func (c Files) validate() error {
	if c.MaxUploadMB < 0 {
		return fmt.Errorf("files.max_upload_mb must be 0 (no limit) or more")
	}
	switch c.Storage {
	case "local":
	case "s3":
		if c.S3.Endpoint == "" || c.S3.Bucket == "" {
			return fmt.Errorf("files.storage s3 needs files.s3.endpoint and files.s3.bucket")
		}
	default:
		return fmt.Errorf("files.storage must be local or s3, got %q", c.Storage)
	}
	for _, p := range c.URLPrefixes {
		if !strings.HasPrefix(p, "http://") && !strings.HasPrefix(p, "https://") {
			return fmt.Errorf("files.url_prefixes: %q is not an http(s) URL", p)
		}
	}
	return nil
}
