package domain_test

import (
	"os/exec"
	"strings"
	"testing"
)

// domainPackages hold the rules; they must not reach the HTTP layer.
var domainPackages = []string{
	"domain", "tasks", "projects", "models", "queues", "workers", "events", "auth", "users",
	"reports", "pipelines", "organization",
	"serving", "settings", "usage", "export", "mlflow",
}

// forbidden are the HTTP layer's packages.
var forbidden = []string{
	"github.com/trove-ml/trove/internal/api",
	"github.com/trove-ml/trove/internal/rpc",
	"net/http",
}

// TestDomainLayering: no domain package depends, even indirectly, on the
// transport or the handlers (go list -deps).
func TestDomainLayering(t *testing.T) {
	for _, p := range domainPackages {
		path := "github.com/trove-ml/trove/internal/" + p
		out, err := exec.Command("go", "list", "-deps", path).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", path, err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			for _, f := range forbidden {
				if dep == f || strings.HasPrefix(dep, f+"/") {
					t.Errorf("%s depends on %s", path, dep)
				}
			}
		}
	}
}
