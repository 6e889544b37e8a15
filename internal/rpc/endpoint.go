package rpc

import (
	"context"
	"fmt"
	"sort"
)

// AuthMode says what credentials an endpoint needs.
type AuthMode int

const (
	// AuthRequired endpoints refuse calls without valid credentials.
	AuthRequired AuthMode = iota
	// AuthNone endpoints never look at credentials.
	AuthNone
	// AuthOptional endpoints use valid credentials when given and ignore bad ones.
	AuthOptional
)

// Handler runs one call and returns the value for the envelope's data.
type Handler func(ctx context.Context, c *Call) (any, error)

// Endpoint is one operation implementation.
type Endpoint struct {
	// Name is the full operation name, e.g. "tasks.create".
	Name string
	// MinVersion is the lowest API version this implementation serves ("" = 1.0).
	MinVersion string
	Auth       AuthMode
	// Access states who may call and whether a call changes anything;
	// required unless Auth is AuthNone (Registry.Add panics).
	Access  Access
	Handler Handler
	// LenientLines hands every non-blank line of a JSON-lines body to the
	// handler unchecked, so it can refuse bad lines one by one instead of
	// failing the whole call (events.add_batch).
	LenientLines bool
	// Streaming endpoints write their answer as it is read (log
	// downloads) and are exempt from the server's call deadline.
	Streaming bool

	min Version
}

// Registry maps operation names to their implementations, newest last.
type Registry struct {
	byName map[string][]*Endpoint
}

// NewRegistry makes an empty registry.
func NewRegistry() *Registry { return &Registry{byName: map[string][]*Endpoint{}} }

// Add registers endpoints; a duplicate (name, version) pair, or an
// endpoint looking at credentials that states no access, panics at
// start-up.
func (r *Registry) Add(eps ...Endpoint) {
	for i := range eps {
		ep := eps[i]
		if ep.Auth != AuthNone && !ep.Access.stated() {
			panic(fmt.Sprintf("endpoint %s states no access (rpc.Read, rpc.Write, ...)", ep.Name))
		}
		if ep.Access.SetBy != "" && len(ep.Access.SetRoles) == 0 {
			panic(fmt.Sprintf("endpoint %s: access set by %q names no roles", ep.Name, ep.Access.SetBy))
		}
		ep.min = Version{1, 0}
		if ep.MinVersion != "" {
			ep.min = MustVersion(ep.MinVersion)
		}
		list := r.byName[ep.Name]
		for _, o := range list {
			if o.min == ep.min {
				panic(fmt.Sprintf("endpoint %s %s registered twice", ep.Name, ep.min))
			}
		}
		list = append(list, &ep)
		sort.Slice(list, func(a, b int) bool { return list[a].min.Less(list[b].min) })
		r.byName[ep.Name] = list
	}
}

// Resolve returns the implementation with the highest min version <= v.
func (r *Registry) Resolve(name string, v Version) *Endpoint {
	list := r.byName[name]
	for i := len(list) - 1; i >= 0; i-- {
		if !v.Less(list[i].min) {
			return list[i]
		}
	}
	return nil
}

// Endpoints lists every registered implementation, by name and then
// version (the role matrix of internal/security walks it).
func (r *Registry) Endpoints() []*Endpoint {
	var out []*Endpoint
	for _, n := range r.Names() {
		out = append(out, r.byName[n]...)
	}
	return out
}

// Names lists every registered operation name, sorted.
func (r *Registry) Names() []string {
	out := make([]string, 0, len(r.byName))
	for n := range r.byName {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
