package auth

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// Default company, as the reference names it so SDK-side defaults line up.
const (
	DefaultCompanyID   = "d1bd92a3b039400cbafc60a7a5b1e52b"
	DefaultCompanyName = "clearml"
	// AdminUserID is the id of the admin user created from the environment
	// or generated on first start.
	AdminUserID = "__admin__"
)

// FixedUser is a user with a fixed key pair from the configuration.
type FixedUser struct {
	ID        string `yaml:"id"`
	Name      string `yaml:"name"`
	AccessKey string `yaml:"access_key"`
	SecretKey string `yaml:"secret_key"`
	Role      string `yaml:"role"`
	Company   string `yaml:"company"`
}

// Generated is a key pair created on first start, to be printed once.
type Generated struct {
	AccessKey, SecretKey string
}

// Bootstrap ensures the default company, the admin from the environment
// and the configured fixed users exist. When no credentials exist at all it
// generates an admin key pair and returns it.
func Bootstrap(ctx context.Context, env *domain.Env, adminKey, adminSecret string, users []FixedUser) (*Generated, error) {
	db := env.DB
	if err := db.EnsureCompany(ctx, store.Company{ID: DefaultCompanyID, Name: DefaultCompanyName}); err != nil {
		return nil, fmt.Errorf("default company: %w", err)
	}
	if adminKey != "" || adminSecret != "" {
		if adminKey == "" || adminSecret == "" {
			return nil, fmt.Errorf("TROVE_ADMIN_KEY and TROVE_ADMIN_SECRET must be given together")
		}
		if err := putUser(ctx, db, FixedUser{ID: AdminUserID, Name: "admin", AccessKey: adminKey, SecretKey: adminSecret, Role: RoleAdmin}); err != nil {
			return nil, err
		}
	}
	for _, u := range users {
		if err := putUser(ctx, db, u); err != nil {
			return nil, err
		}
	}
	n, err := db.CountCredentials(ctx)
	if err != nil {
		return nil, err
	}
	if n > 0 {
		return nil, nil
	}
	g := &Generated{AccessKey: RandomKey(30, false), SecretKey: RandomKey(50, true)}
	if err := putUser(ctx, db, FixedUser{ID: AdminUserID, Name: "admin", AccessKey: g.AccessKey, SecretKey: g.SecretKey, Role: RoleAdmin}); err != nil {
		return nil, err
	}
	return g, nil
}

func putUser(ctx context.Context, db *store.DB, u FixedUser) error {
	if u.AccessKey == "" || u.SecretKey == "" {
		return fmt.Errorf("user %q: access_key and secret_key are required", u.Name)
	}
	if u.Role == "" {
		u.Role = RoleUser
	}
	if !ValidRole(u.Role) {
		return fmt.Errorf("user %q: unknown role %q", u.Name, u.Role)
	}
	if u.Company == "" {
		u.Company = DefaultCompanyID
	} else if u.Company != DefaultCompanyID {
		if err := db.EnsureCompany(ctx, store.Company{ID: u.Company, Name: u.Company}); err != nil {
			return err
		}
	}
	if u.ID == "" {
		u.ID = "__" + u.AccessKey + "__"
	}
	if u.Name == "" {
		u.Name = u.ID
	}
	if err := db.UpsertUser(ctx, store.User{ID: u.ID, Company: u.Company, Name: u.Name, Role: u.Role}); err != nil {
		return fmt.Errorf("user %q: %w", u.Name, err)
	}
	h, err := HashSecret(u.SecretKey)
	if err != nil {
		return err
	}
	return db.PutCredential(ctx, store.Credential{AccessKey: u.AccessKey, SecretHash: h, UserID: u.ID, Company: u.Company})
}

// TokenSecret returns the configured secret or the one stored in the
// database, generating and storing one on first start.
func TokenSecret(ctx context.Context, env *domain.Env, configured string) ([]byte, error) {
	if configured != "" {
		return []byte(configured), nil
	}
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	v, err := env.DB.SetSettingIfAbsent(ctx, "token_secret", hex.EncodeToString(b))
	if err != nil {
		return nil, fmt.Errorf("token secret: %w", err)
	}
	return []byte(v), nil
}
