package auth_test

import (
	"context"
	"reflect"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// An unknown key costs the same bcrypt work as a known key with a wrong
// secret: one comparison, against a hash of the cost keys are stored with.
func TestUnknownKeyCostsAsMuchAsAWrongSecret(t *testing.T) {
	eachBackend(t, func(t *testing.T, env *domain.Env) {
		ctx := context.Background()
		putKey(t, env.DB, store.Company{ID: "acme-id", Name: "Acme"},
			store.User{ID: "u1", Company: "acme-id", Name: "alice", Role: auth.RoleUser}, "ALICEKEY", "alice-secret")
		cred, err := env.DB.GetCredential(ctx, "ALICEKEY")
		if err != nil {
			t.Fatal(err)
		}
		storedCost, err := bcrypt.Cost([]byte(cred.SecretHash))
		if err != nil {
			t.Fatal(err)
		}
		s := auth.New(env, []byte("k"))
		work := auth.RecordComparisons(s)

		_, err = s.CheckKey(ctx, "ALICEKEY", "wrong", "")
		wantAPIErr(t, err, 401, 22, invalidCredentials)
		known := work.Costs()
		_, err = s.CheckKey(ctx, "NOSUCHKEY", "wrong", "")
		wantAPIErr(t, err, 401, 22, invalidCredentials)
		unknown := work.Costs()

		if want := []int{storedCost}; !reflect.DeepEqual(known, want) || !reflect.DeepEqual(unknown, want) {
			t.Fatalf("bcrypt work (costs of the hashes compared): known key %v, unknown key %v; want %v for both",
				known, unknown, want)
		}
		if _, err := s.CheckKey(ctx, "ALICEKEY", "alice-secret", ""); err != nil {
			t.Fatal(err)
		}
		if got := work.Costs(); !reflect.DeepEqual(got, []int{storedCost}) {
			t.Fatalf("a good login compares once, got %v", got)
		}
	})
}
