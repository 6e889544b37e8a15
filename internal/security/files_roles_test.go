package security

import (
	"bytes"
	"mime/multipart"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/testenv"
)

// TestFilesRoles: on the files port every role reads, and only the roles
// that change records upload or delete (a guest or annotator gets 403 and
// the file stays as it was).
func TestFilesRoles(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		files := httptest.NewServer(e.App.FilesHandler)
		t.Cleanup(files.Close)
		upload := func(token, path, content string) *reply {
			var buf bytes.Buffer
			mw := multipart.NewWriter(&buf)
			w, _ := mw.CreateFormFile(path, path)
			_, _ = w.Write([]byte(content))
			_ = mw.Close()
			return send(t, "POST", files.URL+"/", buf.String(), map[string]string{"Authorization": "Bearer " + token, "Content-Type": mw.FormDataContentType()})
		}
		const path = "shared/model.bin"
		if r := upload(e.Token, path, "original"); r.Status != 200 {
			t.Fatalf("admin upload: %s", r)
		}
		for _, role := range auth.Everyone {
			tok := login(t, e, userOf(role))
			writer := slices.Contains(auth.Writers, role)
			if r := send(t, "GET", files.URL+"/"+path, "", map[string]string{"Authorization": "Bearer " + tok}); r.Status != 200 || r.Raw != "original" {
				t.Errorf("%s reads: %s", role, r)
			}
			own := "by-" + role + "/f.txt"
			r := upload(tok, own, "x")
			if writer != (r.Status == 200) || (!writer && (r.Status != 403 || !strings.Contains(r.Raw, "role is read-only"))) {
				t.Errorf("%s uploads: %s", role, r)
			}
			r = upload(tok, path, "overwritten by "+role)
			if writer != (r.Status == 200) {
				t.Errorf("%s overwrites: %s", role, r)
			}
			if writer {
				if r := upload(e.Token, path, "original"); r.Status != 200 {
					t.Fatalf("restore: %s", r)
				}
			}
			r = send(t, "DELETE", files.URL+"/"+path, "", map[string]string{"Authorization": "Bearer " + tok})
			if writer != (r.Status == 200) || (!writer && r.Status != 403) {
				t.Errorf("%s deletes: %s", role, r)
			}
			if writer {
				if r := upload(e.Token, path, "original"); r.Status != 200 {
					t.Fatalf("restore: %s", r)
				}
			}
			if r := send(t, "GET", files.URL+"/"+path, "", map[string]string{"Authorization": "Bearer " + e.Token}); r.Raw != "original" {
				t.Errorf("after %s: %s", role, r)
			}
		}
	}, testenv.WithUsers(roleUsers...))
}
