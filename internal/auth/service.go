package auth

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/crypto/bcrypt"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
)

// DefaultExpiry and MaxExpiry bound token lifetimes.
const (
	DefaultExpiry = 30 * 24 * time.Hour
	MaxExpiry     = 365 * 24 * time.Hour
)

// Versions advertised in tokens; the SDK picks its request shapes by them.
const (
	APIVersion    = "2.34"
	ServerVersion = "2.3.0"
)

// Service checks credentials and tokens and issues tokens.
type Service struct {
	env     *domain.Env
	secret  []byte
	revoked revocations
	tokens  tokenCache
	// principals caches the current state of users and keys tokens are
	// checked against (principal.go).
	principals principalCache
	throttle   *loginThrottle
	// compare checks a secret against a bcrypt hash (a test counts calls).
	compare func(hash, secret []byte) error
	// verified skips bcrypt for secrets checked moments ago (keycache.go).
	verified verifiedSecrets
}

// New makes the service on env (its store and clock) with its token
// signing secret.
func New(env *domain.Env, secret []byte) *Service {
	return &Service{env: env, secret: secret, throttle: newLoginThrottle(), compare: bcrypt.CompareHashAndPassword}
}

// Claims are the token's JWT claims, shaped as the reference's.
type Claims struct {
	AuthType  string        `json:"auth_type"`
	Identity  tokenIdentity `json:"identity"`
	SessionID string        `json:"session_id"`
	// Ancestors are the sessions of the tokens this one was minted from,
	// nearest first (see lineage).
	Ancestors []string `json:"ancestor_sessions,omitempty"`
	// AccessKey is the key the token's lineage logged in with, if any;
	// Generation the user's token generation at issue (principal.go).
	AccessKey  string `json:"access_key,omitempty"`
	Generation int64  `json:"token_generation,omitempty"`
	// Impersonator is who minted the token acting as its user.
	Impersonator  *Impersonator `json:"impersonator,omitempty"`
	Env           string        `json:"env"`
	APIVersion    string        `json:"api_version"`
	ServerVersion string        `json:"server_version"`
	ServerBuild   string        `json:"server_build"`
	FeatureSet    string        `json:"feature_set"`
	jwt.RegisteredClaims
}

type tokenIdentity struct {
	User        string `json:"user"`
	Company     string `json:"company"`
	Role        string `json:"role"`
	UserName    string `json:"user_name,omitempty"`
	CompanyName string `json:"company_name,omitempty"`
}

// VerifyToken checks a session token's signature, expiry and revocation
// and returns the identity it carries.
func (s *Service) VerifyToken(ctx context.Context, token string) (*Identity, error) {
	if e, ok := s.tokens.get(token); ok {
		if !e.expires.IsZero() && !s.env.Now().Before(e.expires) {
			return nil, apierr.InvalidToken("token has invalid claims: token is expired")
		}
		if err := s.checkLineage(ctx, e.id.SessionID, e.id.Ancestors); err != nil {
			return nil, err
		}
		if err := s.checkPrincipal(ctx, &e.id); err != nil {
			return nil, err
		}
		id := e.id
		return &id, nil
	}
	claims := &Claims{}
	_, err := jwt.ParseWithClaims(token, claims, func(t *jwt.Token) (any, error) {
		return s.secret, nil
	}, jwt.WithValidMethods([]string{"HS256"}), jwt.WithTimeFunc(s.env.Now))
	if err != nil {
		return nil, apierr.InvalidToken(err.Error())
	}
	if err := s.checkLineage(ctx, claims.SessionID, claims.Ancestors); err != nil {
		return nil, err
	}
	id := &Identity{
		UserID: claims.Identity.User, CompanyID: claims.Identity.Company, Role: claims.Identity.Role,
		UserName: claims.Identity.UserName, CompanyName: claims.Identity.CompanyName,
		SessionID: claims.SessionID, Ancestors: claims.Ancestors, Token: token,
		AccessKey: claims.AccessKey, TokenGeneration: claims.Generation, Impersonator: claims.Impersonator,
	}
	if err := s.checkPrincipal(ctx, id); err != nil {
		return nil, err
	}
	ce := cachedToken{id: *id}
	if claims.ExpiresAt != nil {
		id.ExpiresAt = claims.ExpiresAt.Unix()
		ce.id.ExpiresAt, ce.expires = id.ExpiresAt, claims.ExpiresAt.Time
	}
	s.tokens.put(token, ce)
	return id, nil
}

// IssueToken signs a token for id valid for ttl (0 = no expiry). When id
// came from a token, the new token is derived from it: it expires no
// later than its parent and is revoked with it (see lineage).
func (s *Service) IssueToken(id *Identity, ttl time.Duration) (string, error) {
	tok, _, err := s.IssueSession(id, ttl)
	return tok, err
}

// IssueSession is IssueToken also returning when the token expires (zero
// when never): a derived token's lifetime may be shorter than asked.
func (s *Service) IssueSession(id *Identity, ttl time.Duration) (string, time.Time, error) {
	now := s.env.Now()
	exp := time.Time{}
	if ttl > 0 {
		exp = now.Add(ttl)
	}
	claims := Claims{
		AuthType: "Bearer",
		Identity: tokenIdentity{User: id.UserID, Company: id.CompanyID, Role: id.Role,
			UserName: id.UserName, CompanyName: id.CompanyName},
		SessionID:     NewSessionID(),
		Ancestors:     lineage(id),
		AccessKey:     id.AccessKey,
		Generation:    id.TokenGeneration,
		Impersonator:  id.Impersonator,
		Env:           "<unknown>",
		APIVersion:    APIVersion,
		ServerVersion: ServerVersion,
		FeatureSet:    "basic",
		RegisteredClaims: jwt.RegisteredClaims{
			IssuedAt: jwt.NewNumericDate(now),
		},
	}
	if exp = capExpiry(id, exp); !exp.IsZero() {
		claims.ExpiresAt = jwt.NewNumericDate(exp)
		exp = claims.ExpiresAt.Time
	}
	tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(s.secret)
	return tok, exp, err
}

// Revoke logs a token session out.
func (s *Service) Revoke(ctx context.Context, id *Identity) error {
	if id == nil || id.SessionID == "" {
		return nil
	}
	exp := id.ExpiresAt
	if exp == 0 {
		exp = s.env.Now().Add(MaxExpiry).Unix()
	}
	if err := s.env.DB.RevokeSession(ctx, id.SessionID, exp*1000); err != nil {
		return err
	}
	s.revoked.put(id.SessionID, true, s.env.Now())
	return nil
}

// HashSecret hashes a secret key with bcrypt.
func HashSecret(secret string) (string, error) {
	h, err := bcrypt.GenerateFromPassword([]byte(secret), bcrypt.DefaultCost)
	if err != nil {
		return "", fmt.Errorf("hash secret: %w", err)
	}
	return string(h), nil
}

// NewSessionID returns 32 hex characters of randomness.
func NewSessionID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// RandomKey returns n characters from an alphabet of uppercase letters and
// digits (access keys) or a URL-safe alphabet (secrets).
func RandomKey(n int, urlSafe bool) string {
	const upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	const safe = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	alpha := upper
	if urlSafe {
		alpha = safe
	}
	b := make([]byte, n)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alpha[int(b[i])%len(alpha)]
	}
	return string(b)
}
