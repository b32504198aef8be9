package redis

import (
	"context"
	"fmt"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// Config says how to reach Redis.
//
// URL (redis://[user:password@]host:port/db, rediss:// for TLS, or
// unix://path) names one server with its password and database; when it is
// set, Addrs, MasterName, Password and DB are ignored. Otherwise Addrs lists
// the servers: with MasterName they are Sentinels, several of them without
// MasterName are a Cluster, one is a plain server.
type Config struct {
	URL        string
	Addrs      []string
	MasterName string
	Password   string
	DB         int

	// Zero means the default: dial 2s, read 1s, write 1s. They bound every
	// call, so a dead or hung server fails fast instead of blocking a chat.
	DialTimeout  time.Duration
	ReadTimeout  time.Duration
	WriteTimeout time.Duration
}

const (
	defaultDialTimeout  = 2 * time.Second
	defaultReadTimeout  = time.Second
	defaultWriteTimeout = time.Second
)

// Open connects to the Redis at url, checks that it answers and returns a
// store on it.
func Open(ctx context.Context, url string, now func() time.Time, opts ...Option) (*Store, error) {
	return OpenConfig(ctx, Config{URL: url}, now, opts...)
}

// OpenConfig connects as cfg says, checks that Redis answers and returns a
// store on it. An unreachable server is an error wrapping
// storage.ErrUnavailable.
func OpenConfig(ctx context.Context, cfg Config, now func() time.Time, opts ...Option) (*Store, error) {
	client, err := NewClient(cfg)
	if err != nil {
		return nil, err
	}
	s := New(client, now, opts...)
	if err := s.Ping(ctx); err != nil {
		client.Close()
		return nil, err
	}
	return s, nil
}

// NewClient builds the go-redis client for cfg without contacting the
// server: a plain, Sentinel or Cluster client behind one interface, with
// the timeouts set and the retries few, so that a dead server is reported
// in about a second.
func NewClient(cfg Config) (goredis.UniversalClient, error) {
	pick := func(d, def time.Duration) time.Duration {
		if d == 0 {
			return def
		}
		return d
	}
	// One retry on a fresh connection covers the pooled connections a
	// restarted server has cut; more would only delay "try again shortly".
	const maxRetries, dialerRetries = 1, 1

	if cfg.URL != "" {
		o, err := goredis.ParseURL(cfg.URL)
		if err != nil {
			return nil, fmt.Errorf("storage: redis: url: %w", err)
		}
		o.DialTimeout = pick(cfg.DialTimeout, pick(o.DialTimeout, defaultDialTimeout))
		o.ReadTimeout = pick(cfg.ReadTimeout, pick(o.ReadTimeout, defaultReadTimeout))
		o.WriteTimeout = pick(cfg.WriteTimeout, pick(o.WriteTimeout, defaultWriteTimeout))
		o.MaxRetries, o.DialerRetries = maxRetries, dialerRetries
		o.ContextTimeoutEnabled = true
		return goredis.NewClient(o), nil
	}

	uo := &goredis.UniversalOptions{
		Addrs:                 cfg.Addrs,
		MasterName:            cfg.MasterName,
		Password:              cfg.Password,
		DB:                    cfg.DB,
		DialTimeout:           pick(cfg.DialTimeout, defaultDialTimeout),
		ReadTimeout:           pick(cfg.ReadTimeout, defaultReadTimeout),
		WriteTimeout:          pick(cfg.WriteTimeout, defaultWriteTimeout),
		MaxRetries:            maxRetries,
		DialerRetries:         dialerRetries,
		ContextTimeoutEnabled: true,
	}
	if len(uo.Addrs) == 0 {
		return nil, fmt.Errorf("storage: redis: config has neither a URL nor addresses")
	}
	return goredis.NewUniversalClient(uo), nil
}
