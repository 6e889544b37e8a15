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
	"github.com/trove-ml/trove/internal/app",
	"github.com/trove-ml/trove/internal/testenv",
	"net/http",
}

// TestDomainLayering: no domain package depends, even indirectly, on the
// transport or the handlers (go list -deps), and neither do its tests (go
// list -deps -test: the test binary links what its helpers import, so a
// domain test helper built on the HTTP harness shows here).
func TestDomainLayering(t *testing.T) {
	for _, p := range domainPackages {
		path := "github.com/trove-ml/trove/internal/" + p
		for _, args := range [][]string{{"list", "-deps", path}, {"list", "-deps", "-test", path}} {
			out, err := exec.Command("go", args...).CombinedOutput()
			if err != nil {
				t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
			}
			for _, dep := range strings.Fields(string(out)) {
				for _, f := range forbidden {
					if dep == f || strings.HasPrefix(dep, f+"/") {
						t.Errorf("go %s: %s depends on %s", strings.Join(args, " "), path, dep)
					}
				}
			}
		}
	}
}
