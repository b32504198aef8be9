package enginecli

import (
	"context"
	"flag"
	"os"
	"strings"
	"testing"
)

var matchArgs = flag.String("match", "", `run a long match with these "bashni match" arguments, e.g. -match "-a level=6 -b level=5 -games 100 -scale 0.1"`)

// TestLongMatch plays a real match when asked with -match; the default
// test run skips it. Use a long -timeout:
//
//	go test ./internal/enginecli -run TestLongMatch -timeout 3h -match "-a level=6 -b level=5 -games 100 -scale 0.1 -concurrency 2"
func TestLongMatch(t *testing.T) {
	if *matchArgs == "" {
		t.Skip(`long matches run only with -match "ARGS"`)
	}
	if err := Match(context.Background(), strings.Fields(*matchArgs), os.Stdout, os.Stderr); err != nil {
		t.Fatal(err)
	}
}
