package api

import (
	"testing"

	"github.com/trove-ml/trove/internal/jsonx"
)

// FuzzSplitLegacyTags: any body comes back as the same body or as a JSON
// object whose tags and system_tags are lists of strings holding the
// tags sent; it never panics.
func FuzzSplitLegacyTags(f *testing.F) {
	for _, s := range []string{`{"tags": ["archived", "x"]}`, `{"tags": ["-archived"], "system_tags": null}`,
		`{"tags": ["a"], "system_tags": ["b"]}`, `{"tags": null}`, `[]`, `{"tags": "x"}`, `{"tags": ["Annotation"]}`, `{`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		for _, service := range []string{"tasks", "models", "projects", "queues"} {
			out := splitLegacyTags(service, []byte(body))
			if string(out) == body {
				continue
			}
			var doc struct {
				Tags       []string `json:"tags"`
				SystemTags []string `json:"system_tags"`
			}
			var sent struct {
				Tags []string `json:"tags"`
			}
			// exact member names, as the server decodes bodies
			if jsonx.Unmarshal(out, &doc) != nil || jsonx.Unmarshal([]byte(body), &sent) != nil ||
				len(doc.Tags)+len(doc.SystemTags) != len(sent.Tags) {
				t.Fatalf("%s: %q became %q", service, body, out)
			}
		}
	})
}

func TestSplitLegacyTags(t *testing.T) {
	cases := []struct{ service, in, want string }{
		{"tasks", `{"tags":["archived","x","Annotation_1","-development"]}`, `{"system_tags":["archived","Annotation_1","-development"],"tags":["x"]}`},
		{"models", `{"tags":["development","archived"]}`, `{"system_tags":["archived"],"tags":["development"]}`},
		{"projects", `{"tags":["public"],"system_tags":[]}`, `{"system_tags":["public"],"tags":[]}`},
		{"queues", `{"tags":["default"],"system_tags":["x"]}`, `{"tags":["default"],"system_tags":["x"]}`},
		{"tasks", `{"name":"n"}`, `{"name":"n"}`},
	}
	for _, c := range cases {
		if got := string(splitLegacyTags(c.service, []byte(c.in))); got != c.want {
			t.Errorf("%s %s: got %s, want %s", c.service, c.in, got, c.want)
		}
	}
}
