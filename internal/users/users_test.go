package users_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/domain/domaintest"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/users"
)

func addUser(t *testing.T, env *domain.Env, id, company string) *auth.Identity {
	t.Helper()
	ctx := context.Background()
	if err := env.DB.EnsureCompany(ctx, store.Company{ID: company, Name: company}); err != nil {
		t.Fatal(err)
	}
	if err := env.DB.UpsertUser(ctx, store.User{ID: id, Company: company, Name: id, Role: auth.RoleUser}); err != nil {
		t.Fatal(err)
	}
	return &auth.Identity{UserID: id, CompanyID: company, Role: auth.RoleUser}
}

// Preferences are stored per user and company: a caller naming a user of
// another company finds none, and changes reach only its own row.
func TestPreferencesStore(t *testing.T) {
	domaintest.EachEnv(t, func(t *testing.T, env *domain.Env) {
		ctx := context.Background()
		a := addUser(t, env, "a", "co1")
		addUser(t, env, "b", "co2")
		up, err := users.SetPreferences(ctx, env, a.CompanyID, a.UserID, map[string]any{"x": map[string]any{"y": 1}})
		if err != nil || up.Updated != 1 {
			t.Fatalf("set: %+v %v", up, err)
		}
		if up, err = users.SetPreferences(ctx, env, a.CompanyID, a.UserID, map[string]any{"x": map[string]any{"y": 1}}); err != nil || up.Updated != 0 {
			t.Fatalf("same again: %+v %v", up, err)
		}
		p, err := users.Preferences(ctx, env, a.CompanyID, a.UserID)
		if b, _ := json.Marshal(p); err != nil || string(b) != `{"x":{"y":1}}` {
			t.Fatalf("read: %s %v", b, err)
		}
		if p, err := users.Preferences(ctx, env, "co2", "b"); err != nil || len(p) != 0 {
			t.Fatalf("b: %v %v", p, err)
		}
		_, err = users.Preferences(ctx, env, "co2", "a")
		domaintest.WantError(t, err, 400, 301)
		_, err = users.SetPreferences(ctx, env, "co2", "a", map[string]any{"x": 2})
		domaintest.WantError(t, err, 400, 301)
		_, err = users.SetPreferences(ctx, env, a.CompanyID, a.UserID, map[string]any{"x": map[string]any{"$y": 2}})
		domaintest.WantError(t, err, 400, 16)
	})
}

func TestUpdateAndDelete(t *testing.T) {
	domaintest.EachEnv(t, func(t *testing.T, env *domain.Env) {
		ctx := context.Background()
		a := addUser(t, env, "a", "co1")
		b := addUser(t, env, "b", "co1")
		addUser(t, env, "c", "co2")
		admin := &auth.Identity{UserID: "a", CompanyID: "co1", Role: auth.RoleAdmin}
		name := "Bea"
		// A user changes its own profile; an admin any of its company's.
		up, err := users.Update(ctx, env, b, "b", users.Profile{Name: &name})
		if err != nil || up.Updated != 1 || up.Fields["name"] != "Bea" {
			t.Fatalf("update own: %+v %v", up, err)
		}
		name = "Bee"
		if up, err = users.Update(ctx, env, admin, "b", users.Profile{Name: &name}); err != nil || up.Updated != 1 {
			t.Fatalf("admin update: %+v %v", up, err)
		}
		// Another user's profile is not a plain user's to change.
		_, err = users.Update(ctx, env, a, "b", users.Profile{Name: &name})
		domaintest.WantError(t, err, 400, 301)
		// Nor is another company's user an admin's.
		_, err = users.Update(ctx, env, admin, "c", users.Profile{Name: &name})
		domaintest.WantError(t, err, 400, 301)
		// Only those administering users delete them.
		domaintest.WantError(t, users.Delete(ctx, env, a, "b"), 403, 20)
		root := *a
		root.Role = auth.RoleRoot
		domaintest.WantError(t, users.Delete(ctx, env, &root, "a"), 400, 16)
		domaintest.WantError(t, users.Delete(ctx, env, &root, "c"), 400, 301)
		if err := users.Delete(ctx, env, &root, "b"); err != nil {
			t.Fatal(err)
		}
		_, err = users.Get(ctx, env, a, "b")
		domaintest.WantError(t, err, 400, 301)
	})
}
