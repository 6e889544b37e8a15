package config

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFilesSettings(t *testing.T) {
	yml := filepath.Join(t.TempDir(), "trove.yaml")
	err := os.WriteFile(yml, []byte(`
files:
  max_upload_mb: 5
  storage: s3
  fsync: false
  url_prefixes: ["https://files.example.com"]
  s3: {endpoint: "http://127.0.0.1:9000", bucket: from-yaml, prefix: "t/"}
`), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	cases := []loadCase[Files]{
		{name: "defaults", want: Files{Storage: "local", Fsync: true}},
		{name: "yaml", args: []string{"--config", yml},
			want: Files{MaxUploadMB: 5, Storage: "s3", URLPrefixes: []string{"https://files.example.com"},
				S3: FilesS3{Endpoint: "http://127.0.0.1:9000", Bucket: "from-yaml", Prefix: "t/"}}},
		{name: "env over yaml, flags over env", args: []string{"--config", yml, "--files-max-upload-mb", "0", "--files-storage", "local"},
			env: map[string]string{"TROVE_FILES_MAX_UPLOAD_MB": "9", "TROVE_FILES_S3_BUCKET": "from-env", "TROVE_FILES_FSYNC": "true",
				"TROVE_FILES_URL_PREFIXES": "http://a:1, http://b:2", "TROVE_FILES_S3_SECRET_KEY": "s"},
			want: Files{MaxUploadMB: 0, Storage: "local", Fsync: true, URLPrefixes: []string{"http://a:1", "http://b:2"},
				S3: FilesS3{Endpoint: "http://127.0.0.1:9000", Bucket: "from-env", Prefix: "t/", SecretKey: "s"}}},
		{name: "unknown storage", args: []string{"--files-storage", "ftp"}, err: "local or s3"},
		{name: "s3 without a bucket", env: map[string]string{"TROVE_FILES_STORAGE": "s3", "TROVE_FILES_S3_ENDPOINT": "http://x"}, err: "bucket"},
		{name: "negative limit", args: []string{"--files-max-upload-mb", "-1"}, err: "max_upload_mb"},
		{name: "bad limit in env", env: map[string]string{"TROVE_FILES_MAX_UPLOAD_MB": "lots"}, err: "TROVE_FILES_MAX_UPLOAD_MB"},
		{name: "bad fsync in env", env: map[string]string{"TROVE_FILES_FSYNC": "maybe"}, err: "TROVE_FILES_FSYNC"},
		{name: "prefix not http", env: map[string]string{"TROVE_FILES_URL_PREFIXES": "ftp://x"}, err: "url_prefixes"},
	}
	checkLoad(t, cases, func(c Config) Files { return c.Files })
}
