// Command trove is the Trove experiment server.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/trove-ml/trove/internal/app"
	"github.com/trove-ml/trove/internal/config"
)

const usage = `trove: an experiment-management server speaking the ClearML API

Usage:
  trove serve [flags]                run the server (trove serve -h lists the flags)
  trove credentials create [flags]   print a new key pair and clearml.conf snippet
                                     (--user NAME; default the admin user)
  trove copy --to URL                copy the store (--db/--data-dir) into an empty one
  trove import --from URL --key K --secret S
                                     import projects, tasks, models, queues, events
                                     and files from a ClearML API server (resumable)
  trove backup FILE                  write a consistent archive of a SQLite store and its files,
                                     with a manifest of sizes and SHA-256 checksums
  trove backup --verify FILE         check an archive as a restore would, without restoring
  trove restore FILE                 check a backup, then restore it into a new data dir (all or nothing)
  trove version                      print the version
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run runs one command and returns the process's exit code: 0 for success
// and for -h/--help, 1 when the command failed, 2 for a usage error.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	if len(args) < 1 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "serve":
		err = serve(ctx, args[1:], getenv, stdout, stderr)
	case "credentials":
		err = credentials(ctx, args[1:], getenv, stdout)
	case "copy", "import", "backup", "restore":
		err = maintenance[args[0]](ctx, args[1:])
	case "version", "--version":
		printVersion(stdout)
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage)
	default:
		fmt.Fprintf(stderr, "trove: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
	if errors.Is(err, flag.ErrHelp) {
		return 0 // -h or --help: the flag set printed its usage
	}
	if err != nil {
		fmt.Fprintln(stderr, "trove:", err)
		return 1
	}
	return 0
}

// maintenance are the commands that work on a store rather than serve it.
var maintenance = map[string]func(context.Context, []string) error{
	"copy": copyStore, "import": importStore, "backup": backup, "restore": restore,
}

// serve runs the server until ctx ends. The ports are bound first, so a
// busy port fails before the store or any key is created.
func serve(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := config.Load(args, getenv)
	if err != nil {
		return err
	}
	log, err := newLogger(cfg, stderr)
	if err != nil {
		return err
	}
	ls, err := app.Listen(cfg)
	if err != nil {
		return err
	}
	defer ls.Close()
	// the ports answer "starting" while the store opens (it may wait for
	// the database, --db-wait)
	stopStarting := app.ServeStarting(ls, log)
	a, err := app.New(ctx, ls.Resolve(cfg), log)
	stopStarting()
	if err != nil {
		return err
	}
	defer a.Close()
	return a.Run(ctx, ls, stdout)
}

func newLogger(cfg config.Config, w io.Writer) (*slog.Logger, error) {
	level, err := cfg.SlogLevel()
	if err != nil {
		return nil, err
	}
	opts := &slog.HandlerOptions{Level: level}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return slog.New(slog.NewTextHandler(w, opts)), nil
}
