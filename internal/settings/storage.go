package settings

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// StorageSections are the sections of the storage settings.
var StorageSections = []string{"aws", "google", "azure"}

// StorageSecretRoles are the roles given the storage credentials: the
// ones that write the company's records (auth.Writers). The ClearML web
// app signs its requests to the company's buckets in the browser with
// them, to show debug samples stored there. Annotators and guests get
// the settings without any credential (see Redacted).
var StorageSecretRoles = auth.Writers

// SeesStorageSecrets reports whether a caller of role is given the
// storage credentials.
func SeesStorageSecrets(role string) bool { return slices.Contains(StorageSecretRoles, role) }

// StorageFor reads the company's storage settings as a caller of role
// may see them: whole for StorageSecretRoles, Redacted for the others
// (nil: none stored).
func StorageFor(ctx context.Context, env *domain.Env, company, role string) (*store.StorageSettings, error) {
	s, err := Storage(ctx, env, company)
	if err != nil || s == nil || SeesStorageSecrets(role) {
		return s, err
	}
	return Redacted(s), nil
}

// Redacted is a copy of s with every credential blank: access keys,
// secrets and session tokens (defaults and per bucket), Google
// credentials JSON and Azure account keys. What names the storage
// (buckets, hosts, regions, projects, accounts, containers) and the
// flags are kept, so the answer has its usual shape.
func Redacted(s *store.StorageSettings) *store.StorageSettings {
	out := &store.StorageSettings{Company: s.Company, LastUpdate: s.LastUpdate}
	if a := s.AWS; a != nil {
		c := *a
		c.Key, c.Secret, c.Token = "", "", ""
		c.Buckets = make([]store.AWSBucket, len(a.Buckets))
		for i, b := range a.Buckets {
			b.Key, b.Secret, b.Token = "", "", ""
			c.Buckets[i] = b
		}
		out.AWS = &c
	}
	if g := s.Google; g != nil {
		c := *g
		c.CredentialsJSON = ""
		c.Buckets = make([]store.GoogleBucket, len(g.Buckets))
		for i, b := range g.Buckets {
			b.CredentialsJSON = ""
			c.Buckets[i] = b
		}
		out.Google = &c
	}
	if z := s.Azure; z != nil {
		c := *z
		c.Containers = make([]store.AzureContainer, len(z.Containers))
		for i, ct := range z.Containers {
			ct.AccountKey = ""
			c.Containers[i] = ct
		}
		out.Azure = &c
	}
	return out
}

// Storage reads the company's storage settings (nil: none stored), with
// their credentials: for the server's own use and StorageFor.
func Storage(ctx context.Context, env *domain.Env, company string) (*store.StorageSettings, error) {
	s, err := env.DB.StorageSettingsTable().Get(ctx, env.DB.Read(), company)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	return s, err
}

// StoragePatch replaces whole sections of the storage settings (nil: left
// as stored).
type StoragePatch struct {
	AWS    *store.AWSStorage
	Google *store.GoogleStorage
	Azure  *store.AzureStorage
}

// SetStorage replaces the given sections; at least one is needed. Google
// credentials must be JSON (the contents of a key file). It returns how
// many settings records changed (1).
func SetStorage(ctx context.Context, env *domain.Env, company string, p StoragePatch) (int, error) {
	if p.AWS == nil && p.Google == nil && p.Azure == nil {
		return 0, apierr.ValidationMsg("no settings were provided: give aws, google or azure")
	}
	if p.Google != nil {
		if err := checkCredentialsJSON("google.credentials_json", p.Google.CredentialsJSON); err != nil {
			return 0, err
		}
		for i, b := range p.Google.Buckets {
			if err := checkCredentialsJSON("google.buckets."+strconv.Itoa(i)+".credentials_json", b.CredentialsJSON); err != nil {
				return 0, err
			}
		}
	}
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		s, err := env.DB.StorageSettingsTable().GetForUpdate(ctx, q, company)
		if errors.Is(err, store.ErrNotFound) {
			s, err = &store.StorageSettings{Company: company}, nil
		}
		if err != nil {
			return err
		}
		if p.AWS != nil {
			s.AWS = p.AWS
		}
		if p.Google != nil {
			s.Google = p.Google
		}
		if p.Azure != nil {
			s.Azure = p.Azure
		}
		s.LastUpdate = env.Time()
		return env.DB.StorageSettingsTable().Upsert(ctx, q, s)
	})
	if err != nil {
		return 0, err
	}
	return 1, nil
}

// ResetStorage drops the named sections (see StorageSections); it
// returns how many settings records changed (0 when none is stored).
func ResetStorage(ctx context.Context, env *domain.Env, company string, sections []string) (int, error) {
	n := 0
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		s, err := env.DB.StorageSettingsTable().GetForUpdate(ctx, q, company)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		for _, k := range sections {
			switch k {
			case "aws":
				s.AWS = nil
			case "google":
				s.Google = nil
			case "azure":
				s.Azure = nil
			}
		}
		s.LastUpdate = env.Time()
		n = 1
		return env.DB.StorageSettingsTable().Update(ctx, q, s)
	})
	return n, err
}

func checkCredentialsJSON(field, s string) error {
	if s != "" && !json.Valid([]byte(s)) {
		return apierr.Validation(field, "invalid json credentials")
	}
	return nil
}
