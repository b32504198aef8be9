package telegramtest

import (
	"fmt"
	"strconv"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// SetChatMember sets a user's status in a chat ("creator", "administrator",
// "member", "restricted", "left" or "kicked") as getChatMember reports it.
// Setting the bot's own status to "kicked" or "left" makes sends to the chat
// fail with 403 as on Telegram ("Forbidden: bot was blocked by the user" in
// a private chat); "administrator" lets it delete users' group messages.
// Pushing a my_chat_member update does the same for the bot.
func (s *Server) SetChatMember(chatID, userID int64, status string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.chat(chatID).members[userID] = status
}

func (s *Server) getChat(c *Call) (any, *Failure) {
	id, err := strconv.ParseInt(c.Params["chat_id"], 10, 64)
	if err != nil {
		return nil, badRequest("chat not found")
	}
	cs, ok := s.chats[id]
	if !ok || !cs.known {
		if _, isUser := s.users[id]; !isUser {
			return nil, badRequest("chat not found")
		}
		cs = s.chat(id)
	}
	return cs.chat, nil
}

func (s *Server) getChatMember(c *Call) (any, *Failure) {
	chatID, err := strconv.ParseInt(c.Params["chat_id"], 10, 64)
	if err != nil {
		return nil, badRequest("chat not found")
	}
	userID, err := strconv.ParseInt(c.Params["user_id"], 10, 64)
	if err != nil || userID <= 0 {
		return nil, badRequest("user not found")
	}
	cs, ok := s.chats[chatID]
	if !ok {
		return nil, badRequest("chat not found")
	}
	u, ok := s.users[userID]
	switch {
	case userID == s.bot.ID:
		u = s.bot
	case !ok:
		u = tgbotapi.User{ID: userID, FirstName: fmt.Sprintf("User %d", userID)}
	}
	status, ok := cs.members[userID]
	switch {
	case ok:
	case userID == s.bot.ID, cs.seen[userID], cs.chat.Type == "private" && userID == chatID:
		status = "member"
	default:
		status = "left"
	}
	return tgbotapi.ChatMember{User: &u, Status: status}, nil
}
