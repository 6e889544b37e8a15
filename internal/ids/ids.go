// Package ids makes record ids: 32 hex digits of a random (version 4) UUID,
// the shape the reference server's ids have.
package ids

import (
	"crypto/rand"
	"encoding/hex"
)

// New returns a fresh random id.
func New() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = (b[6] & 0x0f) | 0x40
	b[8] = (b[8] & 0x3f) | 0x80
	return hex.EncodeToString(b[:])
}
