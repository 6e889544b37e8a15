package store

import "github.com/trove-ml/trove/internal/jsonx"

// StorageSettings are a company's storage credentials, as the web app's
// settings page edits them. A section left out (nil) has no settings.
type StorageSettings struct {
	Company    string         `json:"company"`
	LastUpdate jsonx.Time     `json:"last_update"`
	AWS        *AWSStorage    `json:"aws,omitempty"`
	Google     *GoogleStorage `json:"google,omitempty"`
	Azure      *AzureStorage  `json:"azure,omitempty"`
}

// AWSStorage are S3 credentials: defaults and per bucket.
type AWSStorage struct {
	Key                 string      `json:"key,omitempty"`
	Secret              string      `json:"secret,omitempty"`
	Region              string      `json:"region,omitempty"`
	Token               string      `json:"token,omitempty"`
	UseCredentialsChain bool        `json:"use_credentials_chain"`
	Buckets             []AWSBucket `json:"buckets"`
}

// AWSBucket are the credentials of one S3 bucket (or path in it).
type AWSBucket struct {
	Bucket              string `json:"bucket,omitempty"`
	Subdir              string `json:"subdir,omitempty"`
	Host                string `json:"host,omitempty"`
	Key                 string `json:"key,omitempty"`
	Secret              string `json:"secret,omitempty"`
	Token               string `json:"token,omitempty"`
	Multipart           bool   `json:"multipart"`
	ACL                 string `json:"acl,omitempty"`
	Secure              bool   `json:"secure"`
	Region              string `json:"region,omitempty"`
	Verify              bool   `json:"verify"`
	UseCredentialsChain bool   `json:"use_credentials_chain"`
}

// GoogleStorage are Google Cloud Storage credentials.
type GoogleStorage struct {
	Project         string         `json:"project,omitempty"`
	CredentialsJSON string         `json:"credentials_json,omitempty"`
	Buckets         []GoogleBucket `json:"buckets"`
}

// GoogleBucket are the credentials of one bucket.
type GoogleBucket struct {
	Bucket          string `json:"bucket,omitempty"`
	Subdir          string `json:"subdir,omitempty"`
	Project         string `json:"project,omitempty"`
	CredentialsJSON string `json:"credentials_json,omitempty"`
}

// AzureStorage are Azure blob credentials per container.
type AzureStorage struct {
	Containers []AzureContainer `json:"containers"`
}

// AzureContainer are the credentials of one container.
type AzureContainer struct {
	AccountName   string `json:"account_name"`
	AccountKey    string `json:"account_key"`
	ContainerName string `json:"container_name,omitempty"`
}

// RecordID implements Record: one row per company.
func (s *StorageSettings) RecordID() string { return s.Company }

// ColumnValues implements Record.
func (s *StorageSettings) ColumnValues() []any { return []any{s.Company, s.LastUpdate.Millis()} }

// StorageSettingsTable is the storage_settings table.
func (db *DB) StorageSettingsTable() *Table[StorageSettings, *StorageSettings] {
	return &Table[StorageSettings, *StorageSettings]{DB: db, Name: "storage_settings", Cols: []string{"company", "last_update"}}
}

// StatsOption is a company's answer to sending usage statistics.
type StatsOption struct {
	Company        string      `json:"company"`
	Enabled        bool        `json:"enabled"`
	EnabledTime    *jsonx.Time `json:"enabled_time,omitempty"`
	EnabledVersion string      `json:"enabled_version,omitempty"`
	EnabledUser    string      `json:"enabled_user,omitempty"`
}

// RecordID implements Record: one row per company.
func (s *StatsOption) RecordID() string { return s.Company }

// ColumnValues implements Record.
func (s *StatsOption) ColumnValues() []any { return []any{s.Company} }

// StatsOptions is the stats_options table.
func (db *DB) StatsOptions() *Table[StatsOption, *StatsOption] {
	return &Table[StatsOption, *StatsOption]{DB: db, Name: "stats_options", Cols: []string{"company"}}
}
