package redis

import (
	"context"
	"strings"

	goredis "github.com/redis/go-redis/v9"
)

// Reindex walks every game and re-adds the index hints of the active ones.
// The hints can lag a game only if a process died between a game write and
// the hint write that follows it (see doc.go); running Reindex when a bot or
// worker starts closes that gap. It only adds hints and lowers deadlines,
// so it is safe while other processes write.
func (s *Store) Reindex(ctx context.Context) error {
	const op = "reindex"
	if err := start(ctx, op); err != nil {
		return err
	}
	scan := func(ctx context.Context, c goredis.UniversalClient) error {
		iter := c.Scan(ctx, 0, s.prefix+"game:*", 500).Iterator()
		var ids []string
		flush := func() error {
			games, err := s.loadGames(ctx, ids)
			if err != nil {
				return err
			}
			for _, g := range games {
				if g != nil {
					if err := s.addHints(ctx, g); err != nil {
						return err
					}
				}
			}
			ids = ids[:0]
			return nil
		}
		for iter.Next(ctx) {
			id, ok := gameID(iter.Val(), s.prefix)
			if !ok {
				continue
			}
			if ids = append(ids, id); len(ids) == 500 {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		if err := iter.Err(); err != nil {
			return err
		}
		return flush()
	}

	var err error
	if cluster, ok := s.rdb.(*goredis.ClusterClient); ok {
		// SCAN sees one node's keys; walk every master.
		err = cluster.ForEachMaster(ctx, func(ctx context.Context, c *goredis.Client) error {
			return scan(ctx, c)
		})
	} else {
		err = scan(ctx, s.rdb)
	}
	return fail(op, err)
}

// gameID takes the id out of a game key, prefix + "game:{" + id + "}".
func gameID(key, prefix string) (string, bool) {
	rest, ok := strings.CutPrefix(key, prefix+"game:{")
	if !ok || !strings.HasSuffix(rest, "}") {
		return "", false
	}
	return rest[:len(rest)-1], true
}
