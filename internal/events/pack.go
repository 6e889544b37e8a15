package events

import (
	"context"
	"time"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
)

// Packer moves rolled-up scalar points into packed blocks where the store
// packs them (PostgreSQL: a row per point costs it three times the
// point's data; see store/eventstore/packed.go). Points are packed once in
// the rollups, so histograms and the roller keep reading only unpacked
// points past a series' mark. A series is packed every PackLag
// iterations, or once idle, so its blocks are full enough to compress
// while the unpacked rows stay few.
type Packer struct {
	DB *store.DB
	// Lag: a series is packed once PackLag iterations are rolled up
	// since its last packing.
	Lag int64
	// Idle: a series not written for this long is packed whatever its
	// lag.
	Idle time.Duration
	// Now is the clock of Idle (time.Now when nil).
	Now func() time.Time
}

// PackLag is the server's Packer.Lag: the unpacked rows of a series being
// written stay under about twice that many, and its blocks hold at least
// that many points.
const PackLag = eventstore.PackMinBlock

// NewPacker is the packer a server runs.
func NewPacker(db *store.DB, now func() time.Time) *Packer {
	return &Packer{DB: db, Lag: PackLag, Idle: time.Minute, Now: now}
}

// Run packs the series that are due.
func (p *Packer) Run(ctx context.Context) error {
	now := time.Now
	if p.Now != nil {
		now = p.Now
	}
	_, err := eventstore.Of(p.DB).PackPoints(ctx, p.Lag, now().Add(-p.Idle).UnixMilli())
	return err
}
