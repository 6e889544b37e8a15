package store

import (
	"database/sql"
	"database/sql/driver"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"modernc.org/sqlite"
)

var registerOnce sync.Once

// regexCache keeps recently used compiled patterns for the REGEXP
// function. It is bounded: patterns come from requests, and each compiled
// one holds memory in proportion to its size (the query builder already
// caps that size).
var regexCache, _ = lru.New[string, *regexp.Regexp](regexCacheSize)

const regexCacheSize = 256

func compileCached(p string) (*regexp.Regexp, error) {
	if re, ok := regexCache.Get(p); ok {
		return re, nil
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, err
	}
	regexCache.Add(p, re)
	return re, nil
}

// registerFunctions adds REGEXP and trove_num to SQLite.
func registerFunctions() {
	registerOnce.Do(func() {
		sqlite.MustRegisterDeterministicScalarFunction("regexp", 2, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
			p, _ := args[0].(string)
			var s string
			switch v := args[1].(type) {
			case string:
				s = v
			case []byte:
				s = string(v)
			case nil:
				return false, nil
			default:
				s = fmt.Sprint(v)
			}
			if isBudgetToken(p) {
				return matchBudgeted(p, s)
			}
			re, err := compileCached(p)
			if err != nil {
				return nil, err
			}
			return re.MatchString(s), nil
		})
		// trove_num returns the number a value spells, or NULL.
		sqlite.MustRegisterDeterministicScalarFunction("trove_num", 1, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
			switch v := args[0].(type) {
			case int64:
				return float64(v), nil
			case float64:
				return v, nil
			case string:
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					return f, nil
				}
			}
			return nil, nil
		})
	})
}

// sqliteDSN is the DSN of a reader (readOnly) or of the one writer.
func sqliteDSN(path string, readOnly bool) string {
	q := baseSQLiteParams()
	// The page cache is per connection (nine of them): at 64 MiB each, scans
	// of a large store filled every reader's and held ~600 MiB. 8 MiB
	// keeps the hot B-tree pages; the rest is the OS's file cache.
	q.Add("_time_format", "sqlite")
	if readOnly {
		q.Add("_pragma", "cache_size(-8192)")
		q.Add("_pragma", "query_only(1)")
	} else {
		// The one writer keeps the last leaf of every live series and the
		// task rows it rewrites: with 8 MiB they fell out of its cache
		// once a store held a few thousand series, and every insert read
		// them back from the OS.
		q.Add("_pragma", "cache_size(-65536)")
		q.Add("_txlock", "immediate")
		// checkpoints run beside the writer (sqlite_checkpoint.go); its
		// own automatic one only bounds the log
		q.Add("_pragma", fmt.Sprintf("wal_autocheckpoint(%d)", writerCheckpointPages))
	}
	return "file:" + path + "?" + q.Encode()
}

// checkpointDSN is the DSN of the checkpointer's connection: it reads
// the log and writes only the database file, so a small cache does.
func checkpointDSN(path string) string {
	q := baseSQLiteParams()
	q.Add("_pragma", "cache_size(-1024)")
	return "file:" + path + "?" + q.Encode()
}

// baseSQLiteParams are the settings of every connection.
func baseSQLiteParams() url.Values {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "foreign_keys(ON)")
	return q
}

func openSQLite(path string) (*DB, error) {
	registerFunctions()
	registerInterruptingDriver()
	w, err := sql.Open(interruptingDriverName, sqliteDSN(path, false))
	if err != nil {
		return nil, fmt.Errorf("open sqlite: %w", err)
	}
	// One writer: SQLite serializes writes anyway, and one connection avoids
	// busy-waiting between our own connections.
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	r, err := sql.Open(interruptingDriverName, sqliteDSN(path, true))
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open sqlite: %w", err)
	}
	r.SetMaxOpenConns(8)
	r.SetMaxIdleConns(8)
	r.SetConnMaxLifetime(0)
	// A reader idle for a while is closed, with what its statements and
	// page cache hold.
	r.SetConnMaxIdleTime(2 * time.Minute)
	ck, err := startCheckpointer(path)
	if err != nil {
		w.Close()
		r.Close()
		return nil, err
	}
	return &DB{D: sqliteDialect{}, w: w, r: r, ckpt: ck}, nil
}
