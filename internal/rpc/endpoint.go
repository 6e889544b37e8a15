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
	// Roles, when set, restricts the endpoint to these roles.
	Roles   []string
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

// Add registers endpoints; a duplicate (name, version) pair panics at start-up.
func (r *Registry) Add(eps ...Endpoint) {
	for i := range eps {
		ep := eps[i]
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

// Names lists every registered operation name, sorted.
func (r *Registry) Names() []string {
	out := make([]string, 0, len(r.byName))
	for n := range r.byName {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
