// Command trove is the Trove experiment server.
package main

import (
	"context"
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
  trove backup FILE                  write a consistent archive of a SQLite store and its files
  trove restore FILE                 unpack a backup into an empty data dir
  trove version                      print the version
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	switch os.Args[1] {
	case "serve":
		err = serve(ctx, os.Args[2:], os.Getenv, os.Stdout, os.Stderr)
	case "credentials":
		err = credentials(ctx, os.Args[2:], os.Getenv, os.Stdout)
	case "copy", "import", "backup", "restore":
		err = maintenance[os.Args[1]](ctx, os.Args[2:])
	case "version":
		fmt.Println("trove (ClearML API 2.34)")
	case "-h", "--help", "help":
		fmt.Print(usage)
	default:
		fmt.Fprintf(os.Stderr, "trove: unknown command %q\n\n%s", os.Args[1], usage)
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "trove:", err)
		os.Exit(1)
	}
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
	a, err := app.New(ctx, ls.Resolve(cfg), log)
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
