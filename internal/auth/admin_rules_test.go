package auth_test

import (
	"context"
	"testing"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// The rules of user administration hold in the domain functions alone,
// whatever the transport let through: a caller of each role tries to
// create, re-role and delete users of its company and of another.
func TestAdministrationRulesWithoutTheTransport(t *testing.T) {
	eachBackend(t, func(t *testing.T, env *domain.Env) {
		ctx := context.Background()
		if err := env.DB.EnsureCompany(ctx, store.Company{ID: "c2", Name: "Other"}); err != nil {
			t.Fatal(err)
		}
		for _, u := range []store.User{
			{ID: "root1", Company: "c1", Name: "root", Role: auth.RoleRoot},
			{ID: "sys1", Company: "c1", Name: "system", Role: auth.RoleSystem},
			{ID: "adm1", Company: "c1", Name: "admin", Role: auth.RoleAdmin},
			{ID: "far1", Company: "c2", Name: "far", Role: auth.RoleUser},
		} {
			if err := env.DB.UpsertUser(ctx, u); err != nil {
				t.Fatal(err)
			}
		}
		caller := func(role string) *auth.Identity {
			return &auth.Identity{UserID: "caller-" + role, CompanyID: "c1", Role: role}
		}
		create := func(role, company string) func(*auth.Identity) error {
			return func(c *auth.Identity) error {
				_, err := auth.CreateUser(ctx, env, c, auth.NewUser{Name: "n", Company: company, Role: role, Email: "n@example.com"})
				return err
			}
		}
		edit := func(user, role string) func(*auth.Identity) error {
			return func(c *auth.Identity) error {
				_, err := auth.EditUser(ctx, env, c, user, role)
				return err
			}
		}
		deletable := func(user string) func(*auth.Identity) error {
			return func(c *auth.Identity) error { return auth.CheckDeletable(ctx, env, c, user) }
		}
		type want struct{ code, subcode int } // {0, 0}: allowed
		for _, c := range []struct {
			name string
			op   func(*auth.Identity) error
			// answers per caller role
			root, admin, superuser, user, annotator, guest want
		}{
			{"create a user", create(auth.RoleUser, "c1"), want{}, want{}, want{403, 20}, want{403, 20}, want{403, 20}, want{403, 20}},
			{"create an admin", create(auth.RoleAdmin, "c1"), want{}, want{}, want{403, 20}, want{403, 20}, want{403, 20}, want{403, 20}},
			{"create a root", create(auth.RoleRoot, "c1"), want{}, want{403, 20}, want{403, 20}, want{403, 20}, want{403, 20}, want{403, 20}},
			{"create a system user", create(auth.RoleSystem, "c1"), want{}, want{403, 20}, want{403, 20}, want{403, 20}, want{403, 20}, want{403, 20}},
			{"create in another company", create(auth.RoleUser, "c2"), want{}, want{403, 20}, want{403, 20}, want{403, 20}, want{403, 20}, want{403, 20}},
			{"raise a user to root", edit("u1", auth.RoleRoot), want{}, want{403, 20}, want{403, 20}, want{403, 20}, want{403, 20}, want{403, 20}},
			{"lower a root", edit("root1", auth.RoleUser), want{}, want{403, 20}, want{403, 20}, want{403, 20}, want{403, 20}, want{403, 20}},
			{"lower a system user", edit("sys1", auth.RoleGuest), want{}, want{403, 20}, want{403, 20}, want{403, 20}, want{403, 20}, want{403, 20}},
			{"re-role a user of another company", edit("far1", auth.RoleGuest), want{}, want{400, 301}, want{403, 20}, want{403, 20}, want{403, 20}, want{403, 20}},
			{"delete a root", deletable("root1"), want{}, want{403, 20}, want{403, 20}, want{403, 20}, want{403, 20}, want{403, 20}},
			{"delete a user of another company", deletable("far1"), want{}, want{400, 301}, want{403, 20}, want{403, 20}, want{403, 20}, want{403, 20}},
			{"delete a user", deletable("adm1"), want{}, want{}, want{403, 20}, want{403, 20}, want{403, 20}, want{403, 20}},
		} {
			// root last: its edits succeed and change the fixture
			for _, rw := range []struct {
				role string
				want want
			}{{auth.RoleGuest, c.guest}, {auth.RoleAnnotator, c.annotator}, {auth.RoleUser, c.user},
				{auth.RoleSuperuser, c.superuser}, {auth.RoleAdmin, c.admin}, {auth.RoleRoot, c.root}} {
				role, w := rw.role, rw.want
				t.Run(c.name+" as "+role, func(t *testing.T) {
					err := c.op(caller(role))
					if w.code == 0 {
						if err != nil {
							t.Fatalf("refused: %v", err)
						}
						return
					}
					ae := apierr.As(err)
					if ae == nil || ae.Code != w.code || ae.Subcode != w.subcode {
						t.Fatalf("want %d/%d, got %v", w.code, w.subcode, err)
					}
				})
			}
			// restore the roles a root's edit changed
			for id, role := range map[string]string{"u1": auth.RoleUser, "root1": auth.RoleRoot, "sys1": auth.RoleSystem, "far1": auth.RoleUser} {
				if _, err := auth.EditUser(ctx, env, caller(auth.RoleRoot), id, role); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
}
