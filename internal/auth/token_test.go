package auth_test

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/domain"
)

var alice = &auth.Identity{UserID: "u1", UserName: "alice", CompanyID: "c1", CompanyName: "Acme", Role: auth.RoleUser}

const expired = "Invalid token (invalid jwt token): reason=token has invalid claims: token is expired"

func TestTokenRoundTrip(t *testing.T) {
	eachBackend(t, func(t *testing.T, env *domain.Env) {
		c := onClock(env)
		s := auth.New(env, []byte("k"))
		tok, err := s.IssueToken(alice, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		id, err := s.VerifyToken(ctx, tok)
		if err != nil {
			t.Fatal(err)
		}
		if id.UserID != alice.UserID || id.UserName != alice.UserName || id.CompanyID != alice.CompanyID ||
			id.CompanyName != alice.CompanyName || id.Role != alice.Role {
			t.Fatalf("identity %+v does not carry %+v", *id, *alice)
		}
		if id.Token != tok || len(id.SessionID) != 32 || id.ExpiresAt != c.now().Add(time.Hour).Unix() {
			t.Fatalf("token %q session %q expiry %d", id.Token, id.SessionID, id.ExpiresAt)
		}
		// The second check is answered from the cache and must agree.
		again, err := s.VerifyToken(ctx, tok)
		if err != nil || !reflect.DeepEqual(*again, *id) {
			t.Fatalf("cached answer %+v, %v; first %+v", again, err, *id)
		}
		// Every token is a new session.
		tok2, _ := s.IssueToken(alice, time.Hour)
		id2, err := s.VerifyToken(ctx, tok2)
		if err != nil || id2.SessionID == id.SessionID {
			t.Fatalf("second login shares session %q (%v)", id.SessionID, err)
		}
	})
}

func TestTokenClaims(t *testing.T) {
	// The SDK reads these claims to pick its request shapes.
	s := auth.New(&domain.Env{Now: time.Now}, []byte("k"))
	tok, err := s.IssueToken(alice, 0)
	if err != nil {
		t.Fatal(err)
	}
	claims := &auth.Claims{}
	if _, _, err := jwt.NewParser().ParseUnverified(tok, claims); err != nil {
		t.Fatal(err)
	}
	if claims.AuthType != "Bearer" || claims.APIVersion != auth.APIVersion || claims.ServerVersion != auth.ServerVersion ||
		claims.Identity.User != "u1" || claims.Identity.Company != "c1" || claims.Identity.Role != auth.RoleUser {
		t.Fatalf("claims %+v", claims)
	}
	if claims.ExpiresAt != nil || claims.IssuedAt == nil {
		t.Fatalf("ttl 0 means no expiry, always an issue time: exp %v iat %v", claims.ExpiresAt, claims.IssuedAt)
	}
}

func TestTokenExpiry(t *testing.T) {
	eachBackend(t, func(t *testing.T, env *domain.Env) {
		ctx := context.Background()
		c := onClock(env)
		s := auth.New(env, []byte("k"))
		tok, _ := s.IssueToken(alice, time.Hour)
		forever, _ := s.IssueToken(alice, 0)

		c.advance(time.Hour - time.Second)
		if _, err := s.VerifyToken(ctx, tok); err != nil {
			t.Fatalf("valid one second before expiry: %v", err)
		}
		c.advance(time.Second)
		// Once verified, the token is cached: the cache must expire it too.
		_, err := s.VerifyToken(ctx, tok)
		wantAPIErr(t, err, 401, 30, expired)
		// A process that never saw the token parses it and agrees.
		fresh := auth.New(env, []byte("k"))
		_, err = fresh.VerifyToken(ctx, tok)
		wantAPIErr(t, err, 401, 30, expired)

		c.advance(10 * 365 * 24 * time.Hour)
		if id, err := fresh.VerifyToken(ctx, forever); err != nil || id.ExpiresAt != 0 {
			t.Fatalf("a token without expiry stays valid: %+v, %v", id, err)
		}
	})
}

func TestTokenRefused(t *testing.T) {
	eachBackend(t, func(t *testing.T, env *domain.Env) {
		ctx := context.Background()
		s := auth.New(env, []byte("k"))
		other := auth.New(env, []byte("another secret"))
		good, _ := s.IssueToken(alice, time.Hour)
		foreign, _ := other.IssueToken(alice, time.Hour)
		hs512, _ := jwt.NewWithClaims(jwt.SigningMethodHS512, jwt.MapClaims{"session_id": "x"}).SignedString([]byte("k"))
		none, _ := jwt.NewWithClaims(jwt.SigningMethodNone, jwt.MapClaims{}).SignedString(jwt.UnsafeAllowNoneSignatureType)
		parts := strings.Split(good, ".")
		tampered := parts[0] + "." + parts[1] + "x." + parts[2]

		for name, tok := range map[string]string{
			"other secret": foreign, "HS512": hs512, "alg none": none, "tampered": tampered,
			"garbage": "not-a-token", "empty": "",
		} {
			id, err := s.VerifyToken(ctx, tok)
			if err == nil {
				t.Fatalf("%s: accepted as %+v", name, id)
			}
			if !strings.HasPrefix(err.Error(), "Invalid token (invalid jwt token): reason=") {
				t.Fatalf("%s: %v", name, err)
			}
			wantAPIErr(t, err, 401, 30, err.Error())
		}
	})
}
