package settings

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// StorageSections are the sections of the storage settings.
var StorageSections = []string{"aws", "google", "azure"}

// Storage reads the company's storage settings (nil: none stored).
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
