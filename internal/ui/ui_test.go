package ui

import (
	"encoding/json"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"testing"
)

// referenced lists the site paths index.html names (stylesheet, script,
// icon, and the plotly file the plots pages load lazily).
var referenced = regexp.MustCompile(`(?:href|src|content)="(/[^"]+)"`)

func indexHTML(t *testing.T) string {
	t.Helper()
	b, err := fs.ReadFile(Assets(), "index.html")
	if err != nil {
		t.Fatalf("the embedded UI has no index.html: %v", err)
	}
	return string(b)
}

// The binary embeds a complete build: index.html names files that are
// all there, with no template marker left unreplaced.
func TestAssetsHoldACompleteBuild(t *testing.T) {
	index := indexHTML(t)
	if strings.Contains(index, "%") {
		t.Fatalf("index.html keeps a template marker: %s", index)
	}
	paths := referenced.FindAllStringSubmatch(index, -1)
	kinds := map[string]bool{}
	for _, m := range paths {
		name := strings.TrimPrefix(m[1], "/")
		st, err := fs.Stat(Assets(), name)
		if err != nil || st.Size() == 0 {
			t.Errorf("index.html names %s, which is missing or empty in dist/ (%v)", m[1], err)
		}
		kinds[name[strings.LastIndex(name, ".")+1:]] = true
	}
	for _, k := range []string{"js", "css", "svg"} {
		if !kinds[k] {
			t.Errorf("index.html names no .%s file: %v", k, paths)
		}
	}
}

// The app's bundles carry a content hash in their names, which is what
// lets the web address mark them immutable.
func TestBundlesAreContentHashed(t *testing.T) {
	hashed := regexp.MustCompile(`^assets/app-[A-Z0-9]{8}\.(js|css)$`)
	entries, err := fs.ReadDir(Assets(), "assets")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) == 0 {
		t.Fatal("dist/assets is empty")
	}
	for _, e := range entries {
		if !hashed.MatchString("assets/" + e.Name()) {
			t.Errorf("assets/%s has no content hash in its name", e.Name())
		}
	}
}

// Every library the UI ships is pinned in package.json and has its
// licence beside the build; plotly is the pinned version of its strict
// build (no eval, for the web address's Content-Security-Policy).
func TestShippedLibrariesArePinnedWithTheirLicences(t *testing.T) {
	b, err := os.ReadFile("frontend/package.json")
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	if err := json.Unmarshal(b, &pkg); err != nil {
		t.Fatal(err)
	}
	if len(pkg.Dependencies) == 0 {
		t.Fatal("frontend/package.json lists no dependencies")
	}
	exact := regexp.MustCompile(`^\d+\.\d+\.\d+$`)
	for name, version := range pkg.Dependencies {
		if !exact.MatchString(version) {
			t.Errorf("%s is not pinned to one version: %q", name, version)
		}
		lic, err := fs.ReadFile(Assets(), "licenses/"+name+".LICENSE.txt")
		if err != nil || len(lic) == 0 {
			t.Errorf("no licence shipped for %s: %v", name, err)
		}
	}
	plotly := "/vendor/plotly-strict-" + pkg.Dependencies["plotly.js-strict-dist"] + ".min.js"
	if !strings.Contains(indexHTML(t), `"`+plotly+`"`) {
		t.Errorf("index.html does not name %s", plotly)
	}
}
