package eventstore_test

import (
	"os/exec"
	"sort"
	"strings"
	"testing"
)

// importers are the packages that may reach the event tables directly:
// the events domain, the deletes that take events with their task or
// model, the importer and the copier, and the few handlers and reports
// that pass a metric filter through or start the space upkeep. Everything
// else goes through internal/events.
var importers = map[string]bool{
	"internal/events":      true,
	"internal/domain":      true,
	"internal/tasks":       true,
	"internal/importer":    true,
	"internal/transfer":    true,
	"internal/reports":     true,
	"internal/api/events":  true,
	"internal/api/reports": true,
}

// TestImporters keeps the event storage's surface narrow: a new package
// importing it must be added above, on purpose (go list; tests and
// commands may import it freely).
func TestImporters(t *testing.T) {
	const module = "github.com/trove-ml/trove/"
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, module+"...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	var bad []string
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := strings.TrimPrefix(f[0], module)
		for _, imp := range f[1:] {
			if imp != module+"internal/store/eventstore" {
				continue
			}
			seen++
			if !importers[pkg] && !strings.HasPrefix(pkg, "cmd/") {
				bad = append(bad, pkg)
			}
		}
	}
	if seen < 3 {
		t.Fatalf("only %d packages import eventstore: the listing is wrong\n%s", seen, out)
	}
	sort.Strings(bad)
	if len(bad) > 0 {
		t.Errorf("packages importing internal/store/eventstore outside the list: %v", bad)
	}
}
