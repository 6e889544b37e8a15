package config

import (
	"fmt"

	"github.com/trove-ml/trove/internal/auth"
)

// validateUsers refuses configured users that would collide: a username
// logs in one user only, and an access key belongs to one user. The rest
// of each entry is checked when the users are stored at start.
func validateUsers(users []auth.FixedUser) error {
	names, keys := map[string]bool{}, map[string]bool{}
	for _, u := range users {
		if u.Username != "" {
			if names[u.Username] {
				return fmt.Errorf("users: username %q is given twice", u.Username)
			}
			names[u.Username] = true
		}
		if u.AccessKey != "" {
			if keys[u.AccessKey] {
				return fmt.Errorf("users: access_key %q is given twice", u.AccessKey)
			}
			keys[u.AccessKey] = true
		}
	}
	return nil
}
