package system_test

import (
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// Seed document 1, login.supported_modes: "basic ({enabled: boolean,
// guest: {enabled: boolean, name: string, password: string, username:
// string}})".
func TestSeedSupportedModesGuestFields(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		r := e.CallAs(t, "", "login.supported_modes", nil).OK(t)
		guest, _ := testenv.Get(r.Data, "basic.guest").(map[string]any)
		if _, ok := guest["enabled"].(bool); !ok {
			t.Fatalf("guest.enabled: %s", r.Raw)
		}
		for _, k := range []string{"name", "password", "username"} {
			if _, ok := guest[k].(string); !ok {
				t.Fatalf("guest.%s must be a string: %s", k, r.Raw)
			}
		}
		if _, ok := testenv.Get(r.Data, "basic.enabled").(bool); !ok {
			t.Fatalf("basic.enabled: %s", r.Raw)
		}
		for _, k := range []string{"es_connection_error", "missed_es_upgrade"} {
			if _, ok := testenv.Get(r.Data, "server_errors."+k).(bool); !ok {
				t.Fatalf("server_errors.%s: %s", k, r.Raw)
			}
		}
		if _, ok := r.Data["authenticated"].(bool); !ok {
			t.Fatalf("authenticated: %s", r.Raw)
		}
	})
}
