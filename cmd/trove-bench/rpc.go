package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"runtime/pprof"
	"time"
)

func init() { benches["rpc"] = benchRPC }

// benchRPC measures the cost of Trove's RPC layer: projects.get_by_id
// through the full stack (auth, decoding, store read, envelope) against a
// bare net/http handler returning the same bytes, in one run.
func benchRPC(args []string) error {
	fs := flag.NewFlagSet("rpc", flag.ContinueOnError)
	dur := fs.Duration("duration", 10*time.Second, "duration of each run")
	workers := fs.Int("workers", 8, "concurrent clients")
	db := fs.String("db", "", "postgres:// URL (default: SQLite in a temp dir)")
	profile := fs.String("cpuprofile", "", "write a CPU profile of the trove run to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	b, err := startServer(*db)
	if err != nil {
		return err
	}
	defer b.Close()
	a, srv, tok := b.App, b, b.Token
	var env struct {
		Data map[string]any `json:"data"`
	}
	if err := doJSON(postJSON(srv.URL+"/projects.create", tok, []byte(`{"name":"bench-project","description":"rpc overhead"}`)), &env); err != nil {
		return err
	}
	body := []byte(fmt.Sprintf(`{"project":%q}`, env.Data["id"].(string)))
	resp, err := http.DefaultClient.Do(postJSON(srv.URL+"/projects.get_by_id", tok, body))
	if err != nil {
		return err
	}
	canned, _ := io.ReadAll(resp.Body)
	resp.Body.Close()

	bare := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(canned)
	}))
	defer bare.Close()

	fmt.Printf("projects.get_by_id, %d clients, %s each, GOMAXPROCS=%d, backend %s\n", *workers, *dur, runtime.GOMAXPROCS(0), a.DB.D.Name())
	rb := runLoad(*dur, *workers, func(int) *http.Request { return postJSON(bare.URL+"/projects.get_by_id", tok, body) })
	fmt.Printf("bare net/http: %s\n", rb)
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			return err
		}
		_ = pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	rt := runLoad(*dur, *workers, func(int) *http.Request { return postJSON(srv.URL+"/projects.get_by_id", tok, body) })
	fmt.Printf("trove:         %s\n", rt)
	if rb.PerSecond > 0 {
		fmt.Printf("ratio: trove = %.0f%% of bare throughput\n", 100*rt.PerSecond/rb.PerSecond)
	}
	return nil
}

func doJSON(req *http.Request, out any) error {
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("%s: %d %s", req.URL.Path, resp.StatusCode, b)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}
