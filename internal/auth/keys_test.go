package auth_test

import (
	"context"
	"reflect"
	"regexp"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

const invalidCredentials = "Unauthorized (invalid credentials) (failed to locate provided credentials)"

func TestHashSecret(t *testing.T) {
	h, err := auth.HashSecret("s3cret")
	if err != nil {
		t.Fatal(err)
	}
	if h == "s3cret" {
		t.Fatal("the secret is stored in clear")
	}
	if bcrypt.CompareHashAndPassword([]byte(h), []byte("s3cret")) != nil {
		t.Fatal("hash does not verify its own secret")
	}
	if bcrypt.CompareHashAndPassword([]byte(h), []byte("s3cret!")) == nil {
		t.Fatal("hash verifies another secret")
	}
	h2, _ := auth.HashSecret("s3cret")
	if h2 == h {
		t.Fatal("two hashes of one secret are equal: no salt")
	}
}

func TestCheckKey(t *testing.T) {
	eachBackend(t, func(t *testing.T, env *domain.Env) {
		ctx := context.Background()
		putKey(t, env.DB, store.Company{ID: "acme-id", Name: "Acme"},
			store.User{ID: "u1", Company: "acme-id", Name: "alice", Role: auth.RoleUser}, "ALICEKEY", "alice-secret")
		s := auth.New(env, []byte("k"))

		id, err := s.CheckKey(ctx, "ALICEKEY", "alice-secret", "")
		if err != nil {
			t.Fatal(err)
		}
		want := auth.Identity{UserID: "u1", UserName: "alice", CompanyID: "acme-id", CompanyName: "Acme", Role: auth.RoleUser, AccessKey: "ALICEKEY"}
		if !reflect.DeepEqual(*id, want) {
			t.Fatalf("identity %+v, want %+v", *id, want)
		}

		_, err = s.CheckKey(ctx, "ALICEKEY", "wrong", "")
		wantAPIErr(t, err, 401, 22, invalidCredentials)
		_, err = s.CheckKey(ctx, "NOSUCHKEY", "alice-secret", "")
		wantAPIErr(t, err, 401, 22, invalidCredentials)
		_, err = s.CheckKey(ctx, "", "", "")
		wantAPIErr(t, err, 401, 22, invalidCredentials)
	})
}

func TestRandomKeyAndSessionID(t *testing.T) {
	upper := regexp.MustCompile(`^[A-Z0-9]{30}$`)
	safe := regexp.MustCompile(`^[A-Za-z0-9_-]{50}$`)
	session := regexp.MustCompile(`^[0-9a-f]{32}$`)
	seen := map[string]bool{}
	for i := 0; i < 200; i++ {
		k, s, sid := auth.RandomKey(30, false), auth.RandomKey(50, true), auth.NewSessionID()
		if !upper.MatchString(k) || !safe.MatchString(s) || !session.MatchString(sid) {
			t.Fatalf("bad shapes: key %q secret %q session %q", k, s, sid)
		}
		if seen[k] || seen[s] || seen[sid] {
			t.Fatalf("repeated value after %d draws", i)
		}
		seen[k], seen[s], seen[sid] = true, true, true
	}
}

// putKey stores a company, a user and one key pair of that user.
func putKey(t *testing.T, db *store.DB, c store.Company, u store.User, key, secret string) {
	t.Helper()
	ctx := context.Background()
	h, err := auth.HashSecret(secret)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.EnsureCompany(ctx, c); err != nil {
		t.Fatal(err)
	}
	if err := db.UpsertUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	if err := db.PutCredential(ctx, store.Credential{AccessKey: key, SecretHash: h, UserID: u.ID, Company: u.Company}); err != nil {
		t.Fatal(err)
	}
}
