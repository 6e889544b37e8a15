package api

import (
	"net"
	"strings"

	"github.com/trove-ml/trove/internal/rpc"
)

// RealIP is the caller's address: the first X-Forwarded-For hop, else
// X-Real-IP, else the peer.
func RealIP(c *rpc.Call) string {
	if c.Request == nil {
		return ""
	}
	if f := c.Request.Header.Get("X-Forwarded-For"); f != "" {
		first, _, _ := strings.Cut(f, ",")
		return strings.TrimSpace(first)
	}
	if r := c.Request.Header.Get("X-Real-IP"); r != "" {
		return strings.TrimSpace(r)
	}
	host, _, err := net.SplitHostPort(c.Request.RemoteAddr)
	if err != nil {
		return c.Request.RemoteAddr
	}
	return host
}
