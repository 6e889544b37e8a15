package auth_test

import (
	"testing"

	"github.com/trove-ml/trove/internal/auth"
)

func TestValidRole(t *testing.T) {
	for _, r := range []string{auth.RoleSystem, auth.RoleRoot, auth.RoleAdmin, auth.RoleSuperuser, auth.RoleUser, auth.RoleAnnotator, auth.RoleGuest} {
		if !auth.ValidRole(r) {
			t.Errorf("%q is a reference role", r)
		}
	}
	for _, r := range []string{"", "Admin", "owner", " user"} {
		if auth.ValidRole(r) {
			t.Errorf("%q is not a role", r)
		}
	}
}

func TestPrivileged(t *testing.T) {
	want := map[string]bool{auth.RoleSystem: true, auth.RoleRoot: true, auth.RoleAdmin: true}
	if len(auth.Privileged) != len(want) {
		t.Fatalf("privileged roles %v", auth.Privileged)
	}
	for _, r := range auth.Privileged {
		if !want[r] {
			t.Fatalf("%q must not administer users (%v)", r, auth.Privileged)
		}
	}
}
