package config

import (
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/trove-ml/trove/internal/httpx"
)

// OriginList is the cors_origins setting: web origins, besides the web
// address's own, allowed to call the API and file ports with the session
// cookie. It is written comma-separated (flag, env, YAML string) or as a
// YAML list.
type OriginList []string

// ParseOrigins splits a comma-separated list.
func ParseOrigins(s string) OriginList {
	var out OriginList
	for _, o := range strings.Split(s, ",") {
		if o = strings.TrimSpace(o); o != "" {
			out = append(out, o)
		}
	}
	return out
}

// UnmarshalYAML reads a comma-separated string or a list.
func (l *OriginList) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.SequenceNode {
		var items []string
		if err := n.Decode(&items); err != nil {
			return err
		}
		*l = ParseOrigins(strings.Join(items, ","))
		return nil
	}
	*l = ParseOrigins(n.Value)
	return nil
}

// validate checks every origin ("*" is refused: the cookie is never
// shared with any origin).
func (l OriginList) validate() error {
	for _, o := range l {
		if _, err := httpx.ParseOrigin(o); err != nil {
			return err
		}
	}
	return nil
}
