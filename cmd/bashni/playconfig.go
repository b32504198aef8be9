package main

import (
	"time"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/play"
)

// What the game service and its engines are made of: the config's game and
// AI sections.

func newEnginePool(cfg Config) *play.EnginePool {
	var limits ai.Limits
	if cfg.AI.MaxNodes > 0 {
		limits.Nodes = uint64(cfg.AI.MaxNodes)
	}
	return play.NewEnginePoolOptions(cfg.AI.Workers, ai.Options{HashMB: cfg.AI.HashMB, Threads: cfg.aiThreads()}, limits)
}

func playConfig(cfg Config) play.Config {
	c := play.DefaultConfig
	c.ChallengeTTL = cfg.Game.ChallengeTTL
	c.RemindAfter = cfg.Game.RemindAfter
	c.RemindEvery = cfg.Game.RemindEvery
	c.TimeoutAfter = cfg.Game.TimeoutAfter
	c.NoticeDelay = cfg.Game.NoticeDelay
	c.ShowGrace = showGrace(cfg.Telegram.RatePerGroup)
	c.MaxLevel = len(ai.Levels)
	return c
}

// showGrace is the longest a live game's clock waits for its board to
// reach the player (play.Config.ShowGrace): play's default, made of
// Telegram's group pace, or longer when the bot is set to pace groups
// slower than Telegram does (perMinute messages a minute): a card edit
// then waits one of those intervals behind the chat's previous message.
func showGrace(perMinute float64) time.Duration {
	grace := play.DefaultShowGrace
	if perMinute > 0 {
		grace = max(grace, time.Duration(float64(time.Minute)/perMinute)+time.Second)
	}
	return grace
}

// aiRunners bounds the AI moves one process makes at once: the local
// engines' number, or more with remote workers, which only wait here.
func aiRunners(cfg Config) int {
	if cfg.AI.Queue == "redis" {
		return 32
	}
	return max(cfg.AI.Workers, 1)
}
