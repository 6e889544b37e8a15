package storage

import (
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/settings"
	"github.com/trove-ml/trove/internal/store"
)

// The request sections. Flags are pointers so that an absent one takes
// its default (multipart, secure and verify default to true).

type awsIn struct {
	Key                 string        `json:"key"`
	Secret              string        `json:"secret"`
	Region              string        `json:"region"`
	Token               string        `json:"token"`
	UseCredentialsChain bool          `json:"use_credentials_chain"`
	Buckets             []awsBucketIn `json:"buckets"`
}

type awsBucketIn struct {
	Bucket              string `json:"bucket"`
	Subdir              string `json:"subdir"`
	Host                string `json:"host"`
	Key                 string `json:"key"`
	Secret              string `json:"secret"`
	Token               string `json:"token"`
	Multipart           *bool  `json:"multipart"`
	ACL                 string `json:"acl"`
	Secure              *bool  `json:"secure"`
	Region              string `json:"region"`
	Verify              *bool  `json:"verify"`
	UseCredentialsChain bool   `json:"use_credentials_chain"`
}

type googleIn struct {
	Project         string               `json:"project"`
	CredentialsJSON string               `json:"credentials_json"`
	Buckets         []store.GoogleBucket `json:"buckets"`
}

type azureIn struct {
	Containers []store.AzureContainer `json:"containers"`
}

func orTrue(b *bool) bool { return b == nil || *b }

// patch converts the given sections for the domain.
func (r *setRequest) patch() settings.StoragePatch {
	var p settings.StoragePatch
	if r.AWS != nil {
		p.AWS = &store.AWSStorage{Key: r.AWS.Key, Secret: r.AWS.Secret, Region: r.AWS.Region, Token: r.AWS.Token,
			UseCredentialsChain: r.AWS.UseCredentialsChain, Buckets: []store.AWSBucket{}}
		for _, b := range r.AWS.Buckets {
			p.AWS.Buckets = append(p.AWS.Buckets, store.AWSBucket{Bucket: b.Bucket, Subdir: b.Subdir, Host: b.Host,
				Key: b.Key, Secret: b.Secret, Token: b.Token, Multipart: orTrue(b.Multipart), ACL: b.ACL,
				Secure: orTrue(b.Secure), Region: b.Region, Verify: orTrue(b.Verify), UseCredentialsChain: b.UseCredentialsChain})
		}
	}
	if r.Google != nil {
		p.Google = &store.GoogleStorage{Project: r.Google.Project, CredentialsJSON: r.Google.CredentialsJSON,
			Buckets: append([]store.GoogleBucket{}, r.Google.Buckets...)}
	}
	if r.Azure != nil {
		p.Azure = &store.AzureStorage{Containers: append([]store.AzureContainer{}, r.Azure.Containers...)}
	}
	return p
}

// settingsWire is the answer of get_settings: every section, empty when
// not set. Credentials are as settings.StorageFor gives them to the
// caller's role (blank for annotators and guests).
type settingsWire struct {
	AWS        awsWire     `json:"aws"`
	Google     googleWire  `json:"google"`
	Azure      azureWire   `json:"azure"`
	LastUpdate *jsonx.Time `json:"last_update"`
}

type awsWire struct {
	Key                 string          `json:"key"`
	Secret              string          `json:"secret"`
	Token               string          `json:"token"`
	Region              string          `json:"region"`
	UseCredentialsChain bool            `json:"use_credentials_chain"`
	Buckets             []awsBucketWire `json:"buckets"`
}

type awsBucketWire struct {
	Bucket              string `json:"bucket"`
	Subdir              string `json:"subdir"`
	Host                string `json:"host"`
	Key                 string `json:"key"`
	Secret              string `json:"secret"`
	Token               string `json:"token"`
	Multipart           bool   `json:"multipart"`
	ACL                 string `json:"acl"`
	Secure              bool   `json:"secure"`
	Region              string `json:"region"`
	Verify              bool   `json:"verify"`
	UseCredentialsChain bool   `json:"use_credentials_chain"`
}

type googleWire struct {
	Project         string             `json:"project"`
	CredentialsJSON string             `json:"credentials_json"`
	Buckets         []googleBucketWire `json:"buckets"`
}

type googleBucketWire struct {
	Bucket          string `json:"bucket"`
	Subdir          string `json:"subdir"`
	Project         string `json:"project"`
	CredentialsJSON string `json:"credentials_json"`
}

type azureWire struct {
	Containers []azureContainerWire `json:"containers"`
}

type azureContainerWire struct {
	AccountName   string `json:"account_name"`
	AccountKey    string `json:"account_key"`
	ContainerName string `json:"container_name"`
}

// toWire converts stored settings (nil: none) into the answer.
func toWire(s *store.StorageSettings) settingsWire {
	w := settingsWire{AWS: awsWire{Buckets: []awsBucketWire{}}, Google: googleWire{Buckets: []googleBucketWire{}},
		Azure: azureWire{Containers: []azureContainerWire{}}}
	if s == nil {
		return w
	}
	t := s.LastUpdate
	w.LastUpdate = &t
	if a := s.AWS; a != nil {
		w.AWS = awsWire{Key: a.Key, Secret: a.Secret, Token: a.Token, Region: a.Region,
			UseCredentialsChain: a.UseCredentialsChain, Buckets: []awsBucketWire{}}
		for _, b := range a.Buckets {
			w.AWS.Buckets = append(w.AWS.Buckets, awsBucketWire(b))
		}
	}
	if g := s.Google; g != nil {
		w.Google = googleWire{Project: g.Project, CredentialsJSON: g.CredentialsJSON, Buckets: []googleBucketWire{}}
		for _, b := range g.Buckets {
			w.Google.Buckets = append(w.Google.Buckets, googleBucketWire(b))
		}
	}
	if a := s.Azure; a != nil {
		for _, c := range a.Containers {
			w.Azure.Containers = append(w.Azure.Containers, azureContainerWire(c))
		}
	}
	return w
}
