package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ensureVenv makes a virtualenv at dir holding the mlflow server and
// FastTrackML's fml binary, unless both are there. FastTrackML's package
// pins an older mlflow client it does not need to serve, so it goes in
// without its dependencies and the venv keeps the newest mlflow.
func ensureVenv(dir string) error {
	if exists(filepath.Join(dir, "bin", "mlflow")) && exists(filepath.Join(dir, "bin", "fml")) {
		return nil
	}
	fmt.Printf("installing mlflow and fasttrackml from PyPI into %s\n", dir)
	steps := [][]string{
		{"python3", "-m", "venv", dir},
		{filepath.Join(dir, "bin", "pip"), "install", "-q", "mlflow"},
		{filepath.Join(dir, "bin", "pip"), "install", "-q", "--no-deps", "fasttrackml"},
	}
	for _, s := range steps {
		cmd := exec.Command(s[0], s[1:]...)
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("%s: %w", strings.Join(s, " "), err)
		}
	}
	return nil
}

// versionOf runs a command printing a version and returns its last word.
func versionOf(name string, args ...string) string {
	out, err := exec.Command(name, args...).Output()
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(out))
	if len(f) == 0 {
		return "?"
	}
	return strings.TrimPrefix(f[len(f)-1], "v")
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
