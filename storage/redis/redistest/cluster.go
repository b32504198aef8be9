package redistest

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// claimAllSlots gives the lone node every slot and waits until it reports
// the cluster healthy.
func (s *Server) claimAllSlots() error {
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	c := redis.NewClient(&redis.Options{Addr: s.addr})
	defer c.Close()
	if err := c.Do(ctx, "CLUSTER", "ADDSLOTSRANGE", 0, 16383).Err(); err != nil {
		return fmt.Errorf("CLUSTER ADDSLOTSRANGE: %w", err)
	}
	for {
		info, err := c.ClusterInfo(ctx).Result()
		if err == nil && strings.Contains(info, "cluster_state:ok") {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("cluster not ok within %v: %v %q", startTimeout, err, info)
		case <-time.After(10 * time.Millisecond):
		}
	}
}
