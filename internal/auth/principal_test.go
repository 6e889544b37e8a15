package auth_test

import (
	"context"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

var root = &auth.Identity{UserID: "root1", CompanyID: "c1", Role: auth.RoleRoot}

// Revocation reaches live tokens: after a change of the user or key a
// token was minted for, the process that made the change refuses the
// token at once, and another process on the same database (a second
// Service) within RevocationTTL of its last look, driven by the clock.
func TestChangesOfUserOrKeyStopLiveTokens(t *testing.T) {
	for _, c := range []struct {
		name string
		// change makes the change through here; it returns what keeps
		// working afterwards, if anything.
		change func(t *testing.T, ctx context.Context, env *domain.Env, here *auth.Service)
	}{
		{"role lowered", func(t *testing.T, ctx context.Context, env *domain.Env, here *auth.Service) {
			if _, err := auth.EditUser(ctx, env, root, "u1", auth.RoleGuest); err != nil {
				t.Fatal(err)
			}
			here.ForgetUser("u1")
		}},
		{"role raised", func(t *testing.T, ctx context.Context, env *domain.Env, here *auth.Service) {
			if _, err := auth.EditUser(ctx, env, root, "u1", auth.RoleAdmin); err != nil {
				t.Fatal(err)
			}
			here.ForgetUser("u1")
		}},
		{"role changed and changed back", func(t *testing.T, ctx context.Context, env *domain.Env, here *auth.Service) {
			for _, r := range []string{auth.RoleGuest, auth.RoleUser} {
				if _, err := auth.EditUser(ctx, env, root, "u1", r); err != nil {
					t.Fatal(err)
				}
			}
			here.ForgetUser("u1")
		}},
		{"key revoked", func(t *testing.T, ctx context.Context, env *domain.Env, here *auth.Service) {
			if _, err := auth.RevokeCredentials(ctx, env, alice, "ALICEKEY"); err != nil {
				t.Fatal(err)
			}
			here.ForgetKey("ALICEKEY")
		}},
		{"user deleted", func(t *testing.T, ctx context.Context, env *domain.Env, here *auth.Service) {
			if err := env.DB.DeleteUser(ctx, "c1", "u1"); err != nil {
				t.Fatal(err)
			}
			here.ForgetUser("u1")
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			eachBackend(t, func(t *testing.T, env *domain.Env) {
				ctx := context.Background()
				clk := onClock(env)
				putKey(t, env.DB, store.Company{ID: "c1", Name: "Acme"}, store.User{ID: "u1", Company: "c1", Name: "alice", Role: auth.RoleUser},
					"ALICEKEY", "alice-secret")
				here, there := auth.New(env, []byte("k")), auth.New(env, []byte("k"))
				fromKey, err := here.CheckKey(ctx, "ALICEKEY", "alice-secret", "")
				if err != nil {
					t.Fatal(err)
				}
				tok, _ := here.IssueToken(fromKey, time.Hour)
				derived, _ := issueFrom(t, here, tok, time.Hour)
				both := map[string]*auth.Service{"here": here, "there": there}
				for name, s := range both {
					for _, tk := range []string{tok, derived} {
						if _, err := s.VerifyToken(ctx, tk); err != nil {
							t.Fatalf("%s before the change: %v", name, err)
						}
					}
				}

				c.change(t, ctx, env, here)
				for _, tk := range []string{tok, derived} {
					_, err = here.VerifyToken(ctx, tk)
					wantAPIErr(t, err, 401, 30, revoked)
				}
				// The other process trusts what it read for at most the TTL.
				clk.advance(auth.RevocationTTL)
				for _, tk := range []string{tok, derived} {
					_, err = there.VerifyToken(ctx, tk)
					wantAPIErr(t, err, 401, 30, revoked)
				}
				// So does a process that never saw the token.
				_, err = auth.New(env, []byte("k")).VerifyToken(ctx, tok)
				wantAPIErr(t, err, 401, 30, revoked)
			})
		})
	}
}

// Within the TTL another process may still accept a token it checked
// just before the change (the bound is RevocationTTL, not zero); one
// clock tick before the bound it still does, at the bound it does not.
func TestRevocationBoundOnAnotherProcess(t *testing.T) {
	eachBackend(t, func(t *testing.T, env *domain.Env) {
		ctx := context.Background()
		clk := onClock(env)
		here, there := auth.New(env, []byte("k")), auth.New(env, []byte("k"))
		tok, _ := here.IssueToken(alice, time.Hour)
		if _, err := there.VerifyToken(ctx, tok); err != nil {
			t.Fatal(err)
		}
		if _, err := auth.EditUser(ctx, env, root, "u1", auth.RoleGuest); err != nil {
			t.Fatal(err)
		}
		clk.advance(auth.RevocationTTL - time.Millisecond)
		if _, err := there.VerifyToken(ctx, tok); err != nil {
			t.Fatalf("within the TTL the cached answer stands: %v", err)
		}
		clk.advance(time.Millisecond)
		_, err := there.VerifyToken(ctx, tok)
		wantAPIErr(t, err, 401, 30, revoked)
	})
}

// What a change does not touch keeps working: a token minted without
// the revoked key (a password login), the tokens of other users, and a
// new login of the re-roled user, which carries the new role.
func TestChangesStopOnlyTheirTokens(t *testing.T) {
	eachBackend(t, func(t *testing.T, env *domain.Env) {
		ctx := context.Background()
		onClock(env)
		putKey(t, env.DB, store.Company{ID: "c1", Name: "Acme"}, store.User{ID: "u1", Company: "c1", Name: "alice", Role: auth.RoleUser},
			"ALICEKEY", "alice-secret")
		putKey(t, env.DB, store.Company{ID: "c1", Name: "Acme"}, store.User{ID: "u2", Company: "c1", Name: "bob", Role: auth.RoleUser},
			"BOBKEY", "bob-secret")
		s := auth.New(env, []byte("k"))
		fromKey, _ := s.CheckKey(ctx, "ALICEKEY", "alice-secret", "")
		keyTok, _ := s.IssueToken(fromKey, time.Hour)
		passwordTok, _ := s.IssueToken(alice, time.Hour)
		bob, _ := s.CheckKey(ctx, "BOBKEY", "bob-secret", "")
		bobTok, _ := s.IssueToken(bob, time.Hour)

		if _, err := auth.RevokeCredentials(ctx, env, alice, "ALICEKEY"); err != nil {
			t.Fatal(err)
		}
		s.ForgetKey("ALICEKEY")
		_, err := s.VerifyToken(ctx, keyTok)
		wantAPIErr(t, err, 401, 30, revoked)
		for name, tk := range map[string]string{"alice's password login": passwordTok, "bob's": bobTok} {
			if _, err := s.VerifyToken(ctx, tk); err != nil {
				t.Fatalf("%s token stopped with alice's key: %v", name, err)
			}
		}

		if _, err := auth.EditUser(ctx, env, root, "u2", auth.RoleGuest); err != nil {
			t.Fatal(err)
		}
		s.ForgetUser("u2")
		_, err = s.VerifyToken(ctx, bobTok)
		wantAPIErr(t, err, 401, 30, revoked)
		again, err := s.CheckKey(ctx, "BOBKEY", "bob-secret", "")
		if err != nil {
			t.Fatal(err)
		}
		newTok, _ := s.IssueToken(again, time.Hour)
		id, err := s.VerifyToken(ctx, newTok)
		if err != nil || id.Role != auth.RoleGuest {
			t.Fatalf("a new login after the change: %+v, %v", id, err)
		}
	})
}

// A configured user whose role is changed in the configuration gets the
// new role at the next start (Bootstrap); its tokens of before stop, and
// changing the role back does not revive them. A start with the role
// unchanged keeps them.
func TestConfiguredRoleChangeStopsTokens(t *testing.T) {
	eachBackend(t, func(t *testing.T, env *domain.Env) {
		ctx := context.Background()
		onClock(env)
		u := auth.FixedUser{ID: "cfg1", Name: "cfg", AccessKey: "CFGKEY", SecretKey: "cfg-secret", Role: auth.RoleUser}
		start := func(role string) {
			u.Role = role
			if _, err := auth.Bootstrap(ctx, env, "", "", []auth.FixedUser{u}); err != nil {
				t.Fatal(err)
			}
		}
		start(auth.RoleUser)
		s := auth.New(env, []byte("k"))
		id, err := s.CheckKey(ctx, "CFGKEY", "cfg-secret", "")
		if err != nil {
			t.Fatal(err)
		}
		tok, _ := s.IssueToken(id, time.Hour)
		start(auth.RoleUser)
		if _, err := auth.New(env, []byte("k")).VerifyToken(ctx, tok); err != nil {
			t.Fatalf("a start with the same role stopped the token: %v", err)
		}
		start(auth.RoleAdmin)
		start(auth.RoleUser)
		_, err = auth.New(env, []byte("k")).VerifyToken(ctx, tok)
		wantAPIErr(t, err, 401, 30, revoked)
	})
}
