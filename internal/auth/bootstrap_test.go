package auth_test

import (
	"context"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/domain"
)

func TestBootstrapGeneratesAdminOnce(t *testing.T) {
	eachBackend(t, func(t *testing.T, env *domain.Env) {
		ctx := context.Background()
		gen, err := auth.Bootstrap(ctx, env, "", "", nil)
		if err != nil {
			t.Fatal(err)
		}
		if gen == nil || !regexp.MustCompile(`^[A-Z0-9]{30}$`).MatchString(gen.AccessKey) || len(gen.SecretKey) != 50 {
			t.Fatalf("first start generates a key pair: %+v", gen)
		}
		s := auth.New(env, []byte("k"))
		id, err := s.CheckKey(ctx, gen.AccessKey, gen.SecretKey, "")
		if err != nil {
			t.Fatal(err)
		}
		want := auth.Identity{UserID: auth.AdminUserID, UserName: "admin", CompanyID: auth.DefaultCompanyID,
			CompanyName: auth.DefaultCompanyName, Role: auth.RoleAdmin, AccessKey: gen.AccessKey}
		if !reflect.DeepEqual(*id, want) {
			t.Fatalf("generated admin is %+v, want %+v", *id, want)
		}

		again, err := auth.Bootstrap(ctx, env, "", "", nil)
		if err != nil || again != nil {
			t.Fatalf("second start generates nothing: %+v, %v", again, err)
		}
		if _, err := s.CheckKey(ctx, gen.AccessKey, gen.SecretKey, ""); err != nil {
			t.Fatalf("second start broke the generated key: %v", err)
		}
	})
}

func TestBootstrapAdminFromEnvironment(t *testing.T) {
	eachBackend(t, func(t *testing.T, env *domain.Env) {
		ctx := context.Background()
		s := auth.New(env, []byte("k"))
		gen, err := auth.Bootstrap(ctx, env, "ENVADMIN", "first-secret", nil)
		if err != nil || gen != nil {
			t.Fatalf("configured admin: no generated pair: %+v, %v", gen, err)
		}
		id, err := s.CheckKey(ctx, "ENVADMIN", "first-secret", "")
		if err != nil || id.UserID != auth.AdminUserID || id.Role != auth.RoleAdmin {
			t.Fatalf("admin %+v, %v", id, err)
		}

		// A restart with a changed secret replaces the old one.
		if _, err := auth.Bootstrap(ctx, env, "ENVADMIN", "second-secret", nil); err != nil {
			t.Fatal(err)
		}
		if _, err := s.CheckKey(ctx, "ENVADMIN", "second-secret", ""); err != nil {
			t.Fatalf("new secret: %v", err)
		}
		_, err = s.CheckKey(ctx, "ENVADMIN", "first-secret", "")
		wantAPIErr(t, err, 401, 22, invalidCredentials)

		for _, kv := range [][2]string{{"ENVADMIN", ""}, {"", "second-secret"}} {
			if _, err := auth.Bootstrap(ctx, env, kv[0], kv[1], nil); err == nil || !strings.Contains(err.Error(), "together") {
				t.Fatalf("key %q secret %q: want an error asking for both, got %v", kv[0], kv[1], err)
			}
		}
	})
}

func TestBootstrapFixedUsers(t *testing.T) {
	eachBackend(t, func(t *testing.T, env *domain.Env) {
		ctx := context.Background()
		users := []auth.FixedUser{
			{AccessKey: "PLAINKEY", SecretKey: "plain-secret"},
			{ID: "bob", Name: "Bob", AccessKey: "BOBKEY", SecretKey: "bob-secret", Role: auth.RoleGuest, Company: "acme"},
		}
		gen, err := auth.Bootstrap(ctx, env, "", "", users)
		if err != nil || gen != nil {
			t.Fatalf("fixed users are credentials: no generated admin: %+v, %v", gen, err)
		}
		s := auth.New(env, []byte("k"))

		plain, err := s.CheckKey(ctx, "PLAINKEY", "plain-secret", "")
		if err != nil {
			t.Fatal(err)
		}
		want := auth.Identity{UserID: "__PLAINKEY__", UserName: "__PLAINKEY__", CompanyID: auth.DefaultCompanyID,
			CompanyName: auth.DefaultCompanyName, Role: auth.RoleUser, AccessKey: "PLAINKEY"}
		if !reflect.DeepEqual(*plain, want) {
			t.Fatalf("defaults: %+v, want %+v", *plain, want)
		}
		bob, err := s.CheckKey(ctx, "BOBKEY", "bob-secret", "")
		if err != nil {
			t.Fatal(err)
		}
		want = auth.Identity{UserID: "bob", UserName: "Bob", CompanyID: "acme", CompanyName: "acme", Role: auth.RoleGuest, AccessKey: "BOBKEY"}
		if !reflect.DeepEqual(*bob, want) {
			t.Fatalf("configured user: %+v, want %+v", *bob, want)
		}
	})
}

func TestBootstrapRefusesBadUsers(t *testing.T) {
	eachBackend(t, func(t *testing.T, env *domain.Env) {
		ctx := context.Background()
		for _, c := range []struct {
			user auth.FixedUser
			want string
		}{
			{auth.FixedUser{Name: "nokey", SecretKey: "s"}, `user "nokey": access_key and secret_key are required`},
			{auth.FixedUser{Name: "nosecret", AccessKey: "K1"}, `user "nosecret": access_key and secret_key are required`},
			{auth.FixedUser{Name: "wizard", AccessKey: "K2", SecretKey: "s", Role: "wizard"}, `user "wizard": unknown role "wizard"`},
			{auth.FixedUser{Name: "nothing"}, `user "nothing": give access_key and secret_key, or username and password`},
			{auth.FixedUser{Name: "nopass", Username: "np"}, `user "np": username needs exactly one of password and password_hash`},
			{auth.FixedUser{Name: "twopass", Username: "tp", Password: "p", PasswordHash: "h"}, `user "tp": username needs exactly one of password and password_hash`},
			{auth.FixedUser{Name: "nouser", AccessKey: "K3", SecretKey: "s", Password: "p"}, `user "nouser": a password needs a username`},
			{auth.FixedUser{Name: "badhash", Username: "bh", PasswordHash: "not-bcrypt"}, `user "bh": password_hash is not a bcrypt hash: crypto/bcrypt: hashedSecret too short to be a bcrypted password`},
		} {
			_, err := auth.Bootstrap(ctx, env, "", "", []auth.FixedUser{c.user})
			if err == nil || err.Error() != c.want {
				t.Fatalf("%s: want %q, got %v", c.user.Name, c.want, err)
			}
		}
		if n, err := env.DB.CountCredentials(ctx); err != nil || n != 0 {
			t.Fatalf("refused users left %d credentials (%v)", n, err)
		}
	})
}

func TestTokenSecret(t *testing.T) {
	eachBackend(t, func(t *testing.T, env *domain.Env) {
		ctx := context.Background()
		got, err := auth.TokenSecret(ctx, env, "configured")
		if err != nil || string(got) != "configured" {
			t.Fatalf("configured secret: %q, %v", got, err)
		}
		first, err := auth.TokenSecret(ctx, env, "")
		if err != nil || !regexp.MustCompile(`^[0-9a-f]{64}$`).Match(first) {
			t.Fatalf("generated secret %q, %v", first, err)
		}
		second, err := auth.TokenSecret(ctx, env, "")
		if err != nil || string(second) != string(first) {
			t.Fatalf("the stored secret survives restarts: %q then %q (%v)", first, second, err)
		}
	})
}
