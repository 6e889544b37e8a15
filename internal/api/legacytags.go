package api

import (
	"bytes"
	"context"
	"encoding/json"
	"sort"
	"strings"

	"github.com/trove-ml/trove/internal/rpc"
)

// Callers of API versions before 2.3 know no system_tags: they send the
// system tags of an entity among its tags and read them back there. As the
// reference does, their tags are split on the way in (when the request
// carries no system_tags) and system_tags are folded into tags on the way
// out.

// legacyTagsBefore is the first version that knows system_tags.
var legacyTagsBefore = rpc.Version{Major: 2, Minor: 3}

// legacySystemTags are, per service, the tags an old caller's tags hold
// that are system tags (each also with the "-" of an exclusion filter).
var legacySystemTags = map[string][]string{
	"models":   {"active", "archived"},
	"projects": {"archived", "public", "default"},
	"tasks":    {"active", "archived", "development"},
	"queues":   {"default"},
}

// legacySystemPrefixes are tag prefixes that mark system tags (any case).
var legacySystemPrefixes = map[string][]string{"tasks": {"annotat"}}

// FoldLegacyTags wraps the operations of the services with system tags
// that old callers reach (those served at version 2.2), so that calls
// before 2.3 split and fold tags.
func FoldLegacyTags(r *rpc.Registry) {
	old := rpc.Version{Major: 2, Minor: 2}
	for _, name := range r.Names() {
		service, _, _ := strings.Cut(name, ".")
		if _, ok := legacySystemTags[service]; !ok {
			continue
		}
		if ep := r.Resolve(name, old); ep != nil {
			ep.Handler = legacyTags(service, ep.Handler)
		}
	}
}

func legacyTags(service string, next rpc.Handler) rpc.Handler {
	return func(ctx context.Context, c *rpc.Call) (any, error) {
		if !c.Version.Less(legacyTagsBefore) {
			return next(ctx, c)
		}
		c.Body = splitLegacyTags(service, c.Body)
		out, err := next(ctx, c)
		if err != nil || out == nil {
			return out, err
		}
		return foldSystemTags(out)
	}
}

// splitLegacyTags moves the system tags of a body's tags to system_tags
// when the body names no system tags; any other body is left as it is.
func splitLegacyTags(service string, body []byte) []byte {
	var doc map[string]json.RawMessage
	if json.Unmarshal(body, &doc) != nil {
		return body
	}
	var tags []string
	if raw, ok := doc["tags"]; !ok || json.Unmarshal(raw, &tags) != nil || tags == nil {
		return body
	}
	var sys []string
	if raw, ok := doc["system_tags"]; ok && json.Unmarshal(raw, &sys) == nil && len(sys) > 0 {
		return body
	}
	user, system := []string{}, []string{}
	for _, t := range tags {
		if isLegacySystemTag(service, t) {
			system = append(system, t)
		} else {
			user = append(user, t)
		}
	}
	doc["tags"], _ = json.Marshal(user)
	doc["system_tags"], _ = json.Marshal(system)
	out, err := json.Marshal(doc)
	if err != nil {
		return body
	}
	return out
}

func isLegacySystemTag(service, tag string) bool {
	name := strings.TrimPrefix(tag, "-")
	for _, s := range legacySystemTags[service] {
		if name == s {
			return true
		}
	}
	for _, p := range legacySystemPrefixes[service] {
		if strings.HasPrefix(strings.ToLower(name), p) {
			return true
		}
	}
	return false
}

// foldSystemTags answers every object of the answer that has system_tags
// with them merged into its tags, sorted.
func foldSystemTags(out any) (any, error) {
	b, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	// numbers stay as written (ids and times above 2^53 must not round)
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	foldValue(v)
	return v, nil
}

func foldValue(v any) {
	switch x := v.(type) {
	case []any:
		for _, it := range x {
			foldValue(it)
		}
	case map[string]any:
		if sys, ok := x["system_tags"].([]any); ok {
			if tags, ok := x["tags"].([]any); ok || x["tags"] == nil {
				x["tags"] = mergeTags(tags, sys)
			}
		}
		for _, it := range x {
			foldValue(it)
		}
	}
}

func mergeTags(a, b []any) []any {
	seen := map[string]bool{}
	var names []string
	for _, t := range append(append([]any{}, a...), b...) {
		if s, ok := t.(string); ok && !seen[s] {
			seen[s] = true
			names = append(names, s)
		}
	}
	sort.Strings(names)
	out := make([]any, len(names))
	for i, s := range names {
		out[i] = s
	}
	return out
}
