package auth

import (
	"context"
	"crypto/md5"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"

	"golang.org/x/crypto/bcrypt"

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

// FixedUser is a user of the configuration: a fixed key pair for the SDK
// and agent, and/or a username and password for the web app's login page
// (Password in clear, or PasswordHash as a bcrypt hash; only the hash is
// stored).
type FixedUser struct {
	ID           string `yaml:"id"`
	Name         string `yaml:"name"`
	AccessKey    string `yaml:"access_key"`
	SecretKey    string `yaml:"secret_key"`
	Username     string `yaml:"username"`
	Password     string `yaml:"password"`
	PasswordHash string `yaml:"password_hash"`
	Role         string `yaml:"role"`
	Company      string `yaml:"company"`
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
		if _, err := putUser(ctx, db, FixedUser{ID: AdminUserID, Name: "admin", AccessKey: adminKey, SecretKey: adminSecret, Role: RoleAdmin}); err != nil {
			return nil, err
		}
	}
	if err := putFixedUsers(ctx, db, users); err != nil {
		return nil, err
	}
	n, err := db.CountCredentials(ctx)
	if err != nil {
		return nil, err
	}
	if n > 0 {
		return nil, nil
	}
	g := &Generated{AccessKey: RandomKey(30, false), SecretKey: RandomKey(50, true)}
	if _, err := putUser(ctx, db, FixedUser{ID: AdminUserID, Name: "admin", AccessKey: g.AccessKey, SecretKey: g.SecretKey, Role: RoleAdmin}); err != nil {
		return nil, err
	}
	return g, nil
}

// putFixedUsers stores the configured users with their web app logins;
// a login no longer configured stops working.
func putFixedUsers(ctx context.Context, db *store.DB, users []FixedUser) error {
	var withLogin []string
	for _, u := range users {
		id, err := putUser(ctx, db, u)
		if err != nil {
			return err
		}
		u.ID = id
		if err := putLogin(ctx, db, u); err != nil {
			return err
		}
		if u.Username != "" {
			withLogin = append(withLogin, id)
		}
	}
	return db.ClearLoginsExcept(ctx, withLogin)
}

// putUser stores a user and its key pair, if any, and returns its id.
func putUser(ctx context.Context, db *store.DB, u FixedUser) (string, error) {
	if err := checkFixedUser(&u); err != nil {
		return "", err
	}
	if u.Company == "" {
		u.Company = DefaultCompanyID
	} else if u.Company != DefaultCompanyID {
		if err := db.EnsureCompany(ctx, store.Company{ID: u.Company, Name: u.Company}); err != nil {
			return "", err
		}
	}
	if u.ID == "" {
		u.ID = fixedUserID(u)
	}
	if u.Name == "" {
		u.Name = u.ID
	}
	// A restart keeps what users changed of their profile.
	rec, err := db.GetUser(ctx, u.ID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return "", err
	}
	if rec.Created == 0 {
		rec.CreatedInVersion = ServerVersion
	}
	rec.ID, rec.Company, rec.Name, rec.Role = u.ID, u.Company, u.Name, u.Role
	if err := db.UpsertUser(ctx, rec); err != nil {
		return "", fmt.Errorf("user %q: %w", u.Name, err)
	}
	if u.AccessKey == "" {
		return u.ID, nil
	}
	h, err := HashSecret(u.SecretKey)
	if err != nil {
		return "", err
	}
	return u.ID, db.PutCredential(ctx, store.Credential{AccessKey: u.AccessKey, SecretHash: h, UserID: u.ID, Company: u.Company})
}

// checkFixedUser refuses an incomplete or unknown configured user and
// fills in the default role.
func checkFixedUser(u *FixedUser) error {
	if (u.AccessKey == "") != (u.SecretKey == "") {
		return fmt.Errorf("user %q: access_key and secret_key are required", u.Name)
	}
	if u.AccessKey == "" && u.Username == "" {
		return fmt.Errorf("user %q: give access_key and secret_key, or username and password", u.Name)
	}
	if u.Username != "" && (u.Password == "") == (u.PasswordHash == "") {
		return fmt.Errorf("user %q: username needs exactly one of password and password_hash", u.Username)
	}
	if u.Username == "" && (u.Password != "" || u.PasswordHash != "") {
		return fmt.Errorf("user %q: a password needs a username", u.Name)
	}
	if u.PasswordHash != "" {
		if _, err := bcrypt.Cost([]byte(u.PasswordHash)); err != nil {
			return fmt.Errorf("user %q: password_hash is not a bcrypt hash: %w", u.Username, err)
		}
	}
	if u.Role == "" {
		u.Role = RoleUser
	}
	if !ValidRole(u.Role) {
		return fmt.Errorf("user %q: unknown role %q", u.Name, u.Role)
	}
	return nil
}

// fixedUserID names a configured user without an id: by its access key,
// else (a login-only user) by its company and username, so the id stays
// the same across restarts.
func fixedUserID(u FixedUser) string {
	if u.AccessKey != "" {
		return "__" + u.AccessKey + "__"
	}
	sum := md5.Sum([]byte(u.Company + ":" + u.Username))
	return hex.EncodeToString(sum[:])
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
