package mlflow

import (
	"fmt"
	"slices"
	"strings"
)

// A row's path is relative to its API version's prefix: "runs/get" is
// /api/2.0/mlflow/runs/get (and /ajax-api/2.0/...), "3.0/traces" is
// /api/3.0/mlflow/traces. A segment "{name}" takes any one segment of the
// request's path and hands it to the handler as the parameter `name`
// (over a body or query member of that name); a last segment
// "{name...}" takes the rest of the path, slashes included. Several rows may share a
// path when each takes other methods: MLflow chooses by method on its
// REST-style paths (logged models, aliases, traces).

// v3 is the prefix of rows under MLflow's 3.0 paths.
const v3 = "3.0/"

// route is a row with its path cut into segments.
type route struct {
	ep   *endpoint
	segs []string
}

// router finds a request's row: few rows, so a scan.
type router struct{ routes []route }

func (rt *router) add(ep *endpoint) {
	segs := strings.Split(ep.Path, "/")
	for _, r := range rt.routes {
		if slices.Equal(r.segs, segs) {
			for _, m := range ep.Methods {
				if slices.Contains(r.ep.Methods, m) {
					panic(fmt.Sprintf("mlflow: two rows for %s %s", m, ep.Path))
				}
			}
		}
	}
	rt.routes = append(rt.routes, route{ep: ep, segs: segs})
}

// match finds the row of a path (relative to the version prefix, see
// above) and method. pathKnown tells a method no row of the path takes
// (405) from a path no row has (404).
func (rt *router) match(path, method string) (ep *endpoint, vars map[string]string, pathKnown bool) {
	segs := strings.Split(strings.TrimSuffix(path, "/"), "/")
	for _, r := range rt.routes {
		v, ok := matchSegs(r.segs, segs)
		if !ok {
			continue
		}
		pathKnown = true
		if slices.Contains(r.ep.Methods, method) {
			return r.ep, v, true
		}
	}
	return nil, nil, pathKnown
}

func matchSegs(pattern, segs []string) (map[string]string, bool) {
	last := len(pattern) - 1
	rest := strings.HasSuffix(pattern[last], "...}")
	if len(segs) < len(pattern) || (!rest && len(segs) != len(pattern)) {
		return nil, false
	}
	var vars map[string]string
	for i, p := range pattern {
		if name, ok := strings.CutPrefix(p, "{"); ok && strings.HasSuffix(name, "...}") && i == len(pattern)-1 {
			if i >= len(segs) || segs[i] == "" {
				return nil, false
			}
			if vars == nil {
				vars = map[string]string{}
			}
			vars[strings.TrimSuffix(name, "...}")] = strings.Join(segs[i:], "/")
			return vars, true
		}
		if i >= len(segs) {
			return nil, false
		}
		if name, ok := strings.CutPrefix(p, "{"); ok && strings.HasSuffix(name, "}") {
			if segs[i] == "" {
				return nil, false
			}
			if vars == nil {
				vars = map[string]string{}
			}
			vars[strings.TrimSuffix(name, "}")] = segs[i]
			continue
		}
		if p != segs[i] {
			return nil, false
		}
	}
	return vars, true
}

// rowNames names each row once: its path, and "#METHOD" after the paths
// that several rows share.
func (rt *router) rowNames() map[string]*endpoint {
	count := map[string]int{}
	for _, r := range rt.routes {
		count[r.ep.Path]++
	}
	out := map[string]*endpoint{}
	for _, r := range rt.routes {
		name := r.ep.Path
		if count[name] > 1 {
			name += "#" + strings.Join(r.ep.Methods, ",")
		}
		out[name] = r.ep
	}
	return out
}
