package system

import "github.com/trove-ml/trove/internal/jsonx"

func fromMillis(ms int64) string { return jsonx.FromMillis(ms).Format() }
