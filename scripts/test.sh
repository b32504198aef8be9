#!/usr/bin/env bash
# The project's one test command (README: "Test it"). It checks formatting,
# vets, runs staticcheck, checks no function is above cyclomatic complexity
# 20 (gocyclo) and runs every test under the race detector.
#
# Storage and bot tests need a real redis-server: with REDIS_URL set they use
# that server, otherwise each test starts a throwaway one on a free loopback
# port. This script installs redis-server with apt-get when it is missing
# and it can (root on Debian/Ubuntu); otherwise it says how.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${REDIS_URL:-}" ] && ! command -v redis-server >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "== installing redis-server (tests need a real Redis)"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  else
    echo "redis-server is missing: install it (apt-get install redis-server, brew install redis) or set REDIS_URL" >&2
    exit 1
  fi
fi

# The live board's tests drive a real headless Chromium (miniapp/browser_test.go).
if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "== installing chromium (the Mini App's browser tests need it)"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "chromium is missing: the Mini App's browser tests will be skipped (apt-get install chromium)" >&2
  fi
fi

echo "== gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change:" >&2
  echo "$unformatted" >&2
  exit 1
fi

# -pgo=off: cmd/bashni/default.pgo is for the binary people run; building
# every dependency once more with it would double the time of a first run
# and change nothing the tests check.
echo "== go vet"
go vet -pgo=off ./...

# staticcheck is a tool dependency pinned in go.mod (`go get -tool`), so a
# fresh machine fetches exactly that module version through the proxy.
echo "== staticcheck"
go tool staticcheck ./...

# No function above cyclomatic complexity 20 (gocyclo, pinned in go.mod
# like staticcheck), the engine's search node excepted: its branches are
# the search's pruning rules, which read best in one place.
echo "== gocyclo"
complex=$(go tool gocyclo -over 20 -ignore '_test|ai/node.go' .)
if [ -n "$complex" ]; then
  echo "functions above cyclomatic complexity 20 (split them into named steps):" >&2
  echo "$complex" >&2
  exit 1
fi

echo "== go test -race"
go test -pgo=off -race -count=1 "$@" ./...
