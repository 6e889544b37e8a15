package settings_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/domain/domaintest"
	"github.com/trove-ml/trove/internal/settings"
	"github.com/trove-ml/trove/internal/store"
)

// secretPatch has every credential set to a string that contains
// "SECRET", and everything else without it.
func secretPatch() settings.StoragePatch {
	return settings.StoragePatch{
		AWS: &store.AWSStorage{Key: "AKSECRET0", Secret: "SECRET1", Token: "SECRET2", Region: "eu-west-1",
			Buckets: []store.AWSBucket{{Bucket: "b1", Host: "minio:9000", Key: "AKSECRET3", Secret: "SECRET4", Token: "SECRET5", Multipart: true, Secure: true, Verify: true}}},
		Google: &store.GoogleStorage{Project: "proj", CredentialsJSON: `{"private_key":"SECRET6"}`,
			Buckets: []store.GoogleBucket{{Bucket: "g1", Project: "proj", CredentialsJSON: `{"private_key":"SECRET7"}`}}},
		Azure: &store.AzureStorage{Containers: []store.AzureContainer{{AccountName: "acct", AccountKey: "SECRET8", ContainerName: "c1"}}},
	}
}

// The storage credentials reach the roles that write (the web app signs
// bucket requests with them) and never an annotator or a guest, who get
// the same settings with every credential blank.
func TestStorageForRole(t *testing.T) {
	domaintest.EachEnv(t, func(t *testing.T, env *domain.Env) {
		ctx := context.Background()
		if s, err := settings.StorageFor(ctx, env, "c1", auth.RoleGuest); err != nil || s != nil {
			t.Fatalf("none stored: %v %v", s, err)
		}
		if _, err := settings.SetStorage(ctx, env, "c1", secretPatch()); err != nil {
			t.Fatal(err)
		}
		for _, role := range auth.Everyone {
			t.Run(role, func(t *testing.T) {
				s, err := settings.StorageFor(ctx, env, "c1", role)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := json.Marshal(s)
				seen := strings.Count(string(b), "SECRET")
				switch role {
				case auth.RoleAnnotator, auth.RoleGuest:
					if seen != 0 || settings.SeesStorageSecrets(role) {
						t.Fatalf("%s sees %d secrets: %s", role, seen, b)
					}
					if s.AWS.Buckets[0].Bucket != "b1" || s.AWS.Region != "eu-west-1" || s.Google.Buckets[0].Bucket != "g1" ||
						s.Azure.Containers[0].AccountName != "acct" || s.Azure.Containers[0].ContainerName != "c1" || !s.AWS.Buckets[0].Secure {
						t.Fatalf("redaction dropped more than credentials: %s", b)
					}
				default:
					if seen != 9 || !settings.SeesStorageSecrets(role) {
						t.Fatalf("%s sees %d of 9 secrets: %s", role, seen, b)
					}
				}
			})
		}
		if s, _ := settings.StorageFor(ctx, env, "c1", ""); s == nil || strings.Contains(mustJSON(s), "SECRET") {
			t.Fatalf("no role sees secrets: %v", s)
		}
		// Redacting a copy leaves the stored settings whole.
		if s, _ := settings.Storage(ctx, env, "c1"); strings.Count(mustJSON(s), "SECRET") != 9 {
			t.Fatalf("stored settings changed: %s", mustJSON(s))
		}
	})
}

// Every credential field of the storage settings, including any added
// later under a name with Key, Secret, Token or Credentials, is blanked by
// Redacted; every other field is kept.
func TestRedactedBlanksEveryCredentialField(t *testing.T) {
	in := &store.StorageSettings{Company: "c", AWS: &store.AWSStorage{Buckets: []store.AWSBucket{{}}},
		Google: &store.GoogleStorage{Buckets: []store.GoogleBucket{{}}}, Azure: &store.AzureStorage{Containers: []store.AzureContainer{{}}}}
	fill(reflect.ValueOf(in).Elem())
	out := settings.Redacted(in)
	compare(t, "settings", reflect.ValueOf(in).Elem(), reflect.ValueOf(out).Elem(), "")
	if in.AWS.Secret == "" || in.AWS.Buckets[0].Secret == "" || in.Azure.Containers[0].AccountKey == "" {
		t.Fatal("Redacted changed its input")
	}
}

// fill sets every string field to its name and every flag to true.
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			fill(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() {
				if f.Kind() == reflect.String {
					f.SetString(v.Type().Field(i).Name)
				} else {
					fill(f)
				}
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			fill(v.Index(i))
		}
	case reflect.Bool:
		v.SetBool(true)
	}
}

func isCredential(name string) bool {
	for _, w := range []string{"Key", "Secret", "Token", "Credentials"} {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

func compare(t *testing.T, path string, in, out reflect.Value, field string) {
	t.Helper()
	switch in.Kind() {
	case reflect.Pointer:
		if in.IsNil() != out.IsNil() {
			t.Errorf("%s: nil %v, redacted nil %v", path, in.IsNil(), out.IsNil())
		} else if !in.IsNil() {
			compare(t, path, in.Elem(), out.Elem(), field)
		}
	case reflect.Struct:
		for i := range in.NumField() {
			if !in.Type().Field(i).IsExported() {
				continue
			}
			name := in.Type().Field(i).Name
			compare(t, path+"."+name, in.Field(i), out.Field(i), name)
		}
	case reflect.Slice:
		if in.Len() != out.Len() {
			t.Errorf("%s: %d items, redacted %d", path, in.Len(), out.Len())
			return
		}
		for i := range in.Len() {
			compare(t, path, in.Index(i), out.Index(i), field)
		}
	case reflect.String:
		want := in.String()
		if isCredential(field) {
			want = ""
		}
		if out.String() != want {
			t.Errorf("%s: %q, want %q", path, out.String(), want)
		}
	default:
		if !reflect.DeepEqual(in.Interface(), out.Interface()) {
			t.Errorf("%s changed", path)
		}
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
