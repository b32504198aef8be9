// Package members answers whether a user is a member of a chat, as
// Telegram says (getChatMember), remembering each answer for a while so
// that a group's votes and joins cost no call each.
//
// The answers are kept in an expirable LRU (hashicorp/golang-lru/v2):
// bounded in size, each answer forgotten after its TTL. Its clock is the
// machine's: how long an answer stays fresh decides nothing of a game.
// Where the bot is an administrator, Telegram also sends chat_member
// updates; Saw records them, so a member who leaves is known at once.
package members

import (
	"context"
	"errors"
	"fmt"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/hashicorp/golang-lru/v2/expirable"
)

// API is the part of the Bot API client the checker uses.
type API interface {
	GetChatMember(config tgbotapi.GetChatMemberConfig) (tgbotapi.ChatMember, error)
}

type key struct{ chat, user int64 }

// Checker asks Telegram and remembers. It is safe for concurrent use.
type Checker struct {
	api   API
	cache *expirable.LRU[key, bool]
}

// New remembers up to size answers for ttl each.
func New(api API, size int, ttl time.Duration) *Checker {
	return &Checker{api: api, cache: expirable.NewLRU[key, bool](size, nil, ttl)}
}

// IsMember reports whether user is a member of chat (an owner, an
// administrator, a member, or a restricted member still in it). A chat or
// user Telegram does not know is no membership; any other failure is an
// error, and nothing is remembered.
func (c *Checker) IsMember(ctx context.Context, chat, user int64) (bool, error) {
	if ok, found := c.cache.Get(key{chat, user}); found {
		return ok, nil
	}
	if err := ctx.Err(); err != nil {
		return false, err
	}
	m, err := c.api.GetChatMember(tgbotapi.GetChatMemberConfig{ChatConfigWithUser: tgbotapi.ChatConfigWithUser{ChatID: chat, UserID: user}})
	var tgErr *tgbotapi.Error
	switch {
	case errors.As(err, &tgErr) && tgErr.Code == 400:
		m = tgbotapi.ChatMember{Status: "left"} // "user not found", "chat not found"
	case err != nil:
		return false, fmt.Errorf("members: chat %d, user %d: %w", chat, user, err)
	}
	ok := isIn(m.Status, m.IsMember)
	c.cache.Add(key{chat, user}, ok)
	return ok, nil
}

// Saw records a chat_member update: user's status in chat is now status.
func (c *Checker) Saw(chat, user int64, status string, isMember bool) {
	c.cache.Add(key{chat, user}, isIn(status, isMember))
}

func isIn(status string, isMember bool) bool {
	switch status {
	case "creator", "administrator", "member":
		return true
	case "restricted":
		return isMember
	}
	return false
}
