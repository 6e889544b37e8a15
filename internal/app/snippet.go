package app

import (
	"fmt"
	"net"
	"strings"

	"github.com/trove-ml/trove/internal/config"
)

// ConfSnippet is the api section of clearml.conf for a key pair, in the
// form `clearml-init` reads: it stops at the first line that is a lone
// "}", and refuses web, API and files URLs that are not three distinct ones.
func ConfSnippet(cfg config.Config, accessKey, secretKey string) string {
	url := func(addr string) string { return publicURL(cfg, addr) }
	files := url(cfg.FilesAddr)
	if cfg.FilesAddr == "" {
		files = url(cfg.APIAddr)
	}
	return fmt.Sprintf(`api {
    web_server: %s
    api_server: %s
    files_server: %s
    credentials {
        "access_key" = "%s"
        "secret_key" = "%s"
    }
}
`, url(cfg.WebAddr), url(cfg.APIAddr), files, accessKey, secretKey)
}

// KeyMessage is what an operator sees for a new key pair: the keys and the
// snippet to paste into clearml-init or ~/clearml.conf.
func KeyMessage(cfg config.Config, title, accessKey, secretKey string) string {
	return fmt.Sprintf(`
%s (shown once; the secret is stored hashed):
  access key: %s
  secret key: %s

Paste into clearml-init, or into ~/clearml.conf:
%s
`, title, accessKey, secretKey, ConfSnippet(cfg, accessKey, secretKey))
}

// PublicFilesURL is the base URL of the file server as clients reach it:
// the URL stored files get.
func PublicFilesURL(cfg config.Config) string {
	return publicURL(cfg, cfg.FilesAddr)
}

// publicURL is the URL clients reach a listen address at: the public
// host's scheme (http unless given as https://), its host and the port.
func publicURL(cfg config.Config, listen string) string {
	return cfg.PublicScheme() + "://" + publicAddr(listen, cfg.PublicHostName())
}

// publicAddr turns a listen address into one clients can reach.
func publicAddr(listen, host string) string {
	h, port, err := net.SplitHostPort(listen)
	if err != nil {
		return listen
	}
	if host != "" {
		h = host
	} else if h == "" || h == "0.0.0.0" || h == "::" {
		h = "localhost"
	}
	if strings.Contains(h, ":") {
		h = "[" + h + "]"
	}
	return h + ":" + port
}
