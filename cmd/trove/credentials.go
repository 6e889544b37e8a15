package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/trove-ml/trove/internal/app"
	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/config"
	"github.com/trove-ml/trove/internal/store"
)

// credentials runs `trove credentials create [--user NAME] [serve flags]`:
// a new key pair for the user, printed with a clearml.conf snippet for the
// addresses the server flags name. It works whether or not a key was ever
// shown, for example after a first start that died before printing one,
// and whether or not a server is running on the store.
func credentials(ctx context.Context, args []string, getenv func(string) string, out io.Writer) error {
	if len(args) == 0 || args[0] != "create" {
		return errors.New("usage: trove credentials create [--user NAME] [the serve flags naming the database]")
	}
	fs := flag.NewFlagSet("credentials create", flag.ContinueOnError)
	user := fs.String("user", "admin", "user the key pair belongs to (created when missing; \"admin\" is the admin user)")
	cfg, err := config.Parse(fs, args[1:], getenv)
	if err != nil {
		return err
	}
	// A running server may hold the store: the key is written beside it,
	// and the server accepts it at the next login.
	db, _, err := store.OpenBeside(ctx, cfg.DB, cfg.DataDir)
	if err != nil {
		return err
	}
	defer db.Close()
	g, err := auth.NewKey(ctx, db, *user)
	if err != nil {
		return err
	}
	fmt.Fprint(out, app.KeyMessage(cfg, fmt.Sprintf("New credentials for user %q", *user), g.AccessKey, g.SecretKey))
	return auth.MarkShown(ctx, db, time.Now().UTC().Format(time.RFC3339))
}
