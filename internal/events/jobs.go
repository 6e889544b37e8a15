package events

import (
	"context"
	"log/slog"
	"time"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store/eventstore"
)

const (
	// vacuumSwitchMaxBytes is the largest SQLite file switched to
	// incremental auto-vacuum at start (the switch rewrites it).
	vacuumSwitchMaxBytes = 64 << 20
	// reclaimPages is how many free pages (of 4 KiB) a reclaim run gives
	// back to the file system.
	reclaimPages = 8192
)

// Jobs are the events' background work (run by internal/app). At start:
// the scroll signing key is loaded into scrolls (the instance the handlers
// sign and open scroll ids with), and a small SQLite file is switched to
// incremental auto-vacuum. While serving: rollups, the purge of deleted
// tasks' events, packing, staged points, name counts, the sweep of expired
// scroll states and the reclaim of free pages.
func Jobs(env *domain.Env, scrolls *Scrolls) []domain.Job {
	db := env.DB
	// env.Now is read at each run: tests fix the clock after start-up.
	now := func() time.Time { return env.Now() }
	roller, packer := NewRoller(db, now), NewPacker(db, now)
	purger, stager, folder := &Purger{DB: db}, &StageMover{DB: db}, &NameCountFolder{DB: db}
	return []domain.Job{
		// every process needs the key; storing it is an insert-if-absent
		{Name: "events scroll key", Run: func(ctx context.Context, _ *slog.Logger) error {
			return scrolls.LoadKey(ctx)
		}},
		{Name: "events space reuse", Run: func(ctx context.Context, log *slog.Logger) error {
			on, err := eventstore.Of(db).UseIncrementalVacuum(ctx, vacuumSwitchMaxBytes)
			if err == nil && !on && !db.IsPostgres() {
				log.Info("sqlite database without incremental auto-vacuum: deleted events are reused, the file does not shrink (run VACUUM once offline after setting PRAGMA auto_vacuum=INCREMENTAL)")
			}
			return err
		}},
		periodic("events rollups", 2*time.Second, roller.Run),
		periodic("events purge", 2*time.Second, purger.Run),
		periodic("events packing", 2*time.Second, packer.Run),
		periodic("events staged points", time.Second, stager.Run),
		periodic("events name counts", time.Second, folder.Run),
		periodic("events scroll sweep", 10*time.Minute, scrolls.Sweep),
		periodic("events space reclaim", 30*time.Second, func(ctx context.Context) error {
			_, err := eventstore.Of(db).ReclaimSpace(ctx, reclaimPages)
			return err
		}),
	}
}

// periodic is a job that runs every period in one process at a time.
func periodic(name string, every time.Duration, run func(ctx context.Context) error) domain.Job {
	return domain.Job{Name: name, Every: every, Exclusive: true,
		Run: func(ctx context.Context, _ *slog.Logger) error { return run(ctx) }}
}
