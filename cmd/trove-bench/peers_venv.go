package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// The peers' versions: the newest MLflow (issue 38 names 3.18.0) and
// FastTrackML 0.6.0, its last release.
const (
	peerMLflow      = "mlflow==3.18.0"
	peerFastTrackML = "fasttrackml==0.6.0"
)

// ensureVenv makes a virtualenv at dir holding the mlflow server and
// FastTrackML's fml binary, unless both are there. FastTrackML's package
// pins an older mlflow client it does not need to serve, so it goes in
// without its dependencies and the venv keeps the newer mlflow. When the
// pinned mlflow cannot be installed (a release whose dependencies the
// index does not have yet), the newest one that can is taken, and the
// table's label says which.
func ensureVenv(dir string) error {
	if exists(filepath.Join(dir, "bin", "mlflow")) && exists(filepath.Join(dir, "bin", "fml")) {
		return nil
	}
	fmt.Printf("installing %s and %s from PyPI into %s\n", peerMLflow, peerFastTrackML, dir)
	pip := filepath.Join(dir, "bin", "pip")
	if err := run("python3", "-m", "venv", dir); err != nil {
		return err
	}
	if err := run(pip, "install", "-q", peerMLflow); err != nil {
		fmt.Printf("%s did not install (%v); taking the newest mlflow that does\n", peerMLflow, err)
		if err := run(pip, "install", "-q", "mlflow"); err != nil {
			return err
		}
	}
	return run(pip, "install", "-q", "--no-deps", peerFastTrackML)
}

func run(name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %s: %w", name, strings.Join(args, " "), err)
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
