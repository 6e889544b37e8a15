// Command trove is the Trove experiment server.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/trove-ml/trove/internal/app"
	"github.com/trove-ml/trove/internal/config"
)

const usage = `trove: an experiment-management server speaking the ClearML API

Usage:
  trove serve [flags]    run the server (trove serve -h lists the flags)
  trove copy --to URL    copy the store (--db/--data-dir) into an empty one
  trove backup FILE      write a consistent archive of a SQLite store and its files
  trove restore FILE     unpack a backup into an empty data dir
  trove version          print the version
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	switch os.Args[1] {
	case "serve":
		if err := serve(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "trove:", err)
			os.Exit(1)
		}
	case "copy", "backup", "restore":
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		err := maintenance[os.Args[1]](ctx, os.Args[2:])
		stop()
		if err != nil {
			fmt.Fprintln(os.Stderr, "trove:", err)
			os.Exit(1)
		}
	case "version":
		fmt.Println("trove (ClearML API 2.31)")
	case "-h", "--help", "help":
		fmt.Print(usage)
	default:
		fmt.Fprintf(os.Stderr, "trove: unknown command %q\n\n%s", os.Args[1], usage)
		os.Exit(2)
	}
}

// maintenance are the commands that work on a store rather than serve it.
var maintenance = map[string]func(context.Context, []string) error{
	"copy": copyStore, "backup": backup, "restore": restore,
}

func serve(args []string) error {
	cfg, err := config.Load(args, os.Getenv)
	if err != nil {
		return err
	}
	level := slog.LevelInfo
	_ = level.UnmarshalText([]byte(cfg.LogLevel))
	opts := &slog.HandlerOptions{Level: level}
	var h slog.Handler = slog.NewTextHandler(os.Stderr, opts)
	if cfg.LogFormat == "json" {
		h = slog.NewJSONHandler(os.Stderr, opts)
	}
	log := slog.New(h)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	a, err := app.New(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer a.Close()
	return a.Run(ctx, os.Stdout)
}
