package mlflow

import (
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
)

// Checks shared by experiments, runs, the registry and logged models:
// keys and tags.

// CheckTag validates a tag's key and value.
func CheckTag(key, value string) error {
	if err := checkKey("tag", key, MaxTagKeyLen); err != nil {
		return err
	}
	if len(value) > MaxTagValueLen {
		return apierr.MLflowInvalidParameter("Tag value '%s' had length %d, which exceeded length limit of %d", value[:50]+"...", len(value), MaxTagValueLen)
	}
	return nil
}

// checkKey validates a metric, param or tag key: non-empty, bounded, no
// path tricks (MLflow's rule: no "..", no leading "/").
func checkKey(what, key string, limit int) error {
	if key == "" {
		return apierr.MLflowInvalidParameter("Invalid %s name: ''. Names may be treated as files in certain cases, and must not resolve to other names when treated as such. This name would resolve to '.'", what)
	}
	if len(key) > limit {
		return apierr.MLflowInvalidParameter("%s name '%s' had length %d, which exceeded length limit of %d", strings.ToUpper(what[:1])+what[1:], key[:50]+"...", len(key), limit)
	}
	if strings.HasPrefix(key, "/") || key == "." || key == ".." || strings.Contains(key, "../") || strings.HasSuffix(key, "/..") {
		return apierr.MLflowInvalidParameter("Invalid %s name: '%s'. Names may be treated as files in certain cases, and must not resolve to other names when treated as such.", what, key)
	}
	return nil
}

func copyTags(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// putTag sets key of tags (made when nil) to value, or with del removes
// it; it returns the map to keep.
func putTag(tags map[string]string, key, value string, del bool) map[string]string {
	if del {
		delete(tags, key)
		return tags
	}
	if tags == nil {
		tags = map[string]string{}
	}
	tags[key] = value
	return tags
}
