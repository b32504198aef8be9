package bot

import (
	"context"
	"errors"
	"html"
	"strconv"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/texts"
)

// onMessage handles a text message: a command, or a typed move.
func (b *Bot) onMessage(ctx context.Context, msg *tgbotapi.Message) error {
	if msg.From == nil || msg.Chat == nil {
		return nil
	}
	private := msg.Chat.IsPrivate()
	user, lang := b.touch(ctx, msg.From, private)
	if !private {
		lang = b.groupLang(ctx, msg.Chat.ID, lang)
	}
	if msg.IsCommand() {
		if at := msg.CommandWithAt(); strings.Contains(at, "@") && !strings.EqualFold(at[strings.Index(at, "@")+1:], b.cfg.Username) {
			return nil // a command for another bot
		}
		return b.onCommand(ctx, msg, user, lang)
	}
	text := strings.TrimSpace(msg.Text)
	if text == "" {
		return nil
	}
	// A typed move: in a private chat, or as a reply to a game's card.
	if msg.ReplyToMessage != nil {
		g, err := b.gameByCard(ctx, msg.Chat.ID, msg.ReplyToMessage.MessageID)
		if err != nil {
			b.text(msg.Chat, b.texts.Error(lang, err, false), msg.MessageID)
			return err
		}
		if g != nil {
			return b.typedMove(ctx, msg, g, text, lang)
		}
		// A reply to some other message of the bot (an old card, a
		// notice): a move is still a move, never dropped in silence.
	}
	if !looksLikeMove(text) {
		if private {
			b.html(msg.Chat, b.texts.T(lang, "help"), nil)
		}
		return nil
	}
	if !private && !b.isOwnMessage(msg.ReplyToMessage) {
		return nil // chatter: privacy mode hides it, but a bot with it off sees it
	}
	g, err := b.gameForMove(ctx, msg, lang)
	if err != nil || g == nil {
		return err
	}
	return b.typedMove(ctx, msg, g, text, lang)
}

// isOwnMessage reports whether m was sent by this bot.
func (b *Bot) isOwnMessage(m *tgbotapi.Message) bool {
	return m != nil && m.From != nil && m.From.IsBot && strings.EqualFold(m.From.UserName, b.cfg.Username)
}

// looksLikeMove reports whether text starts like a square ("c3…"), so
// chatter in a private chat gets help rather than an illegal-move error.
func looksLikeMove(text string) bool {
	r := []rune(strings.ToLower(text))
	if len(r) < 4 {
		return false
	}
	return strings.ContainsRune("abcdefghасе", r[0]) && r[1] >= '1' && r[1] <= '8'
}

// cmdStartLink is /start: the greeting, or where a link to the bot
// leads (its start parameter): a module's (Module.Starts).
func (b *Bot) cmdStartLink(ctx context.Context, c command) error {
	msg := c.msg
	if handle, rest, ok := b.mods.start(c.args); ok {
		return handle(ctx, b.kit(), Command{Msg: msg, User: c.user, Lang: c.lang, Args: rest})
	}
	return b.cmdStart(msg, c.lang, c.args)
}

// sendHTML answers a command with one of the long texts (help, rules).
func (b *Bot) sendHTML(c command, id string) error {
	b.html(c.msg.Chat, b.texts.T(c.lang, id), nil)
	return nil
}

// cmdMove is /move (or /m) c3-d4: a typed move in the chat's game.
func (b *Bot) cmdMove(ctx context.Context, c command) error {
	if c.args == "" {
		b.text(c.msg.Chat, b.texts.T(c.lang, "move_usage"), c.msg.MessageID)
		return nil
	}
	g, err := b.gameForMove(ctx, c.msg, c.lang)
	if err != nil || g == nil {
		return err
	}
	return b.typedMove(ctx, c.msg, g, c.args, c.lang)
}

// cmdBoard posts the game's card again at the bottom of the chat.
func (b *Bot) cmdBoard(ctx context.Context, c command) error {
	g, err := b.gameForCommand(ctx, c.msg, c.lang)
	if err != nil || g == nil {
		return err
	}
	return b.postCard(c.msg.Chat, g, c.user.Theme, nil)
}

// cmdMoves lists the game's moves so far.
func (b *Bot) cmdMoves(ctx context.Context, c command) error {
	g, err := b.gameForCommand(ctx, c.msg, c.lang)
	if err != nil || g == nil {
		return err
	}
	b.sendMoves(c.msg, g, c.lang)
	return nil
}

func (b *Bot) cmdStart(msg *tgbotapi.Message, lang, args string) error {
	kb := tgbotapi.NewInlineKeyboardMarkup(
		tgbotapi.NewInlineKeyboardRow(
			tgbotapi.NewInlineKeyboardButtonData(b.texts.T(lang, "btn_play_ai"), Callback{Kind: KindMenu, Ply: -1, Arg: "ai"}.Encode()),
			tgbotapi.NewInlineKeyboardButtonData(b.texts.T(lang, "btn_challenge"), Callback{Kind: KindMenu, Ply: -1, Arg: "challenge"}.Encode()),
		),
		tgbotapi.NewInlineKeyboardRow(
			tgbotapi.NewInlineKeyboardButtonData(b.texts.T(lang, "btn_rules"), Callback{Kind: KindMenu, Ply: -1, Arg: "rules"}.Encode()),
			tgbotapi.NewInlineKeyboardButtonData(b.texts.T(lang, "btn_settings"), Callback{Kind: KindMenu, Ply: -1, Arg: "settings"}.Encode()),
		),
	)
	b.html(msg.Chat, b.texts.T(lang, "start"), &kb)
	return nil
}

// cmdPlay starts a game against the AI: "/play" asks for the level,
// "/play 3" for the colour, "/play 3 black" starts at once; a ruleset may
// be named after the level ("/play 3 black russian", "/play 3 mp").
func (b *Bot) cmdPlay(ctx context.Context, c command) error {
	msg, lang, args := c.msg, c.lang, c.args
	var fields []string
	variant, days := rules.Bashni, 0
	for i, f := range strings.Fields(args) {
		if v, ok := variantWord(f); ok && i > 0 {
			variant = v
			continue
		}
		if d, err := play.ParsePace(f); err == nil && i > 0 {
			days = d // "/play 3 white 1d": days per move
			continue
		}
		fields = append(fields, f)
	}
	if len(fields) == 0 {
		b.html(msg.Chat, b.texts.T(lang, "choose_level"), b.levelKeyboard(lang))
		return nil
	}
	level, err := strconv.Atoi(fields[0])
	max := b.svc.Config().MaxLevel
	if err != nil || level < 1 || level > max {
		b.text(msg.Chat, b.texts.T(lang, "level_usage", "Level", fields[0], "Max", max), msg.MessageID)
		return nil
	}
	if len(fields) == 1 {
		b.html(msg.Chat, colorQuestion(b.texts, lang, level, variant), colorKeyboard(b.texts, lang, level, variant))
		return nil
	}
	return b.startAIGame(ctx, msg.Chat, msg.From, lang, level, fields[1], variant, days)
}

func (b *Bot) startAIGame(ctx context.Context, chat *tgbotapi.Chat, from *tgbotapi.User, lang string, level int, color string, variant rules.Variant, days int) error {
	g, err := b.svc.NewAIGame(ctx, play.AIGameRequest{ChatID: chat.ID, Human: player(from), Level: level, Color: color, Variant: variant, Lang: lang,
		DaysPerMove: days})
	if err != nil {
		b.text(chat, b.texts.Error(lang, err, false), 0)
		return err
	}
	return b.postCard(chat, g, "", nil)
}

// cmdChallenge: open (no argument), to the author of the replied message,
// or to @name.
func (b *Bot) cmdChallenge(ctx context.Context, cm command) error {
	msg, lang, args := cm.msg, cm.lang, cm.args
	if msg.Chat.IsPrivate() {
		b.text(msg.Chat, b.texts.T(lang, "challenge_usage"), 0)
		return nil
	}
	req := play.ChallengeRequest{ChatID: msg.Chat.ID, From: player(msg.From), Color: play.ColorRandom, Lang: lang}
	if !challengeArgs(ctx, b.svc, &req, args) {
		// No one has that @name, and echoed in the offer it could pass
		// Telegram's limit on a message.
		b.text(msg.Chat, b.texts.T(lang, "challenge_bad_username"), msg.MessageID)
		return nil
	}
	if req.ToName == "" && msg.ReplyToMessage != nil && msg.ReplyToMessage.From != nil && !msg.ReplyToMessage.From.IsBot {
		to := player(msg.ReplyToMessage.From)
		req.To = &to
	}
	c, err := b.svc.Challenge(ctx, req)
	if err != nil {
		b.text(msg.Chat, b.texts.Error(lang, err, false), msg.MessageID)
		return err
	}
	text, kb := b.challengeCard(lang, c)
	kb.InlineKeyboard = append(kb.InlineKeyboard, b.mods.challengeRows(ctx, b.kit(), c, lang)...)
	r := outMessage{chatID: msg.Chat.ID, text: text, parseMode: tgbotapi.ModeHTML, markup: &kb}.reply()
	r.Done = func(sent *tgbotapi.Message, err error) {
		if err != nil || sent == nil {
			return
		}
		b.background(func(ctx context.Context) {
			if err := b.svc.AttachChallenge(ctx, c.ID, sent.MessageID, ""); err != nil && play.KindOf(err) != play.NotFound {
				b.log.Warn("challenge message not recorded", "challenge", c.ID, "err", err)
			}
		})
	}
	b.send(r)
	return nil
}

// challengeArgs reads /challenge's words into req: an @name, a colour, a
// time control or a pace of days per move ("3d"), a ruleset. It reports false for an @word that no Telegram
// username can be.
func challengeArgs(ctx context.Context, svc *play.Service, req *play.ChallengeRequest, args string) bool {
	for _, f := range strings.Fields(args) {
		switch lf := strings.ToLower(f); {
		case strings.HasPrefix(f, "@"):
			if !isUsername(f[1:]) {
				return false
			}
			req.ToName = f
			if u, err := svc.UserByUsername(ctx, f); err == nil {
				req.To = &play.Player{UserID: u.ID, Name: u.Name}
			}
		case lf == play.ColorWhite || lf == play.ColorBlack || lf == play.ColorRandom:
			req.Color = lf
		case play.IsTimeControl(lf):
			req.TimeControl = lf
		case play.IsPace(lf):
			req.DaysPerMove, _ = play.ParsePace(lf)
		default:
			if v, ok := variantWord(lf); ok {
				req.Variant = v
			}
		}
	}
	return true
}

// challengeCard is the text and buttons of an open challenge.
func (b *Bot) challengeCard(lang string, c *play.Challenge) (string, tgbotapi.InlineKeyboardMarkup) {
	from := htmlName(c.From.Name)
	color := b.texts.T(lang, "challenge_color_"+c.FromColor, "From", from)
	var text string
	switch {
	case c.To != nil:
		text = b.texts.T(lang, "challenge_to", "From", from, "To", mention(*c.To), "Color", color)
	case c.ToName != "":
		text = b.texts.T(lang, "challenge_to", "From", from, "To", "@"+htmlName(c.ToName), "Color", color)
	default:
		text = b.texts.T(lang, "challenge_open", "From", from, "Color", color)
	}
	text += timeControlLine(b.texts, lang, c.TimeControl)
	text += paceChallengeLine(b.texts, lang, c.DaysPerMove)
	if v, err := rules.ParseVariant(c.Variant); err == nil && v != rules.Bashni {
		text += "\n" + rulesLine(b.texts, lang, v)
	}
	row := []tgbotapi.InlineKeyboardButton{
		tgbotapi.NewInlineKeyboardButtonData(b.texts.T(lang, "btn_accept"), Callback{Kind: KindAccept, ID: c.ID, Ply: -1}.Encode()),
	}
	if c.To != nil || c.ToName != "" {
		row = append(row, tgbotapi.NewInlineKeyboardButtonData(b.texts.T(lang, "btn_decline"), Callback{Kind: KindDecline, ID: c.ID, Ply: -1}.Encode()))
	}
	row = append(row, tgbotapi.NewInlineKeyboardButtonData(b.texts.T(lang, "btn_cancel"), Callback{Kind: KindCancel, ID: c.ID, Ply: -1}.Encode()))
	return text, tgbotapi.NewInlineKeyboardMarkup(row)
}

func (b *Bot) cmdDraw(ctx context.Context, c command) error {
	msg, lang := c.msg, c.lang
	g, err := b.gameForCommand(ctx, msg, lang)
	if err != nil || g == nil {
		return err
	}
	// Against the AI, play answers at once (ErrAIDeclinesDraw): the reply
	// says so.
	out, err := b.svc.OfferDraw(ctx, g.ID(), msg.From.ID)
	if err != nil {
		b.text(msg.Chat, b.texts.Error(lang, err, false), msg.MessageID)
		if errors.Is(err, play.ErrAIDeclinesDraw) {
			return nil // an answer, not a failure
		}
		return err
	}
	g = out.Game
	to := g.White()
	if to.UserID == msg.From.ID {
		to = g.Black()
	}
	b.editCard(g, cardView{lang: cardLang(g)}, "", nil)
	b.drawOfferNotice(ctx, g, lang, displayName(msg.From), to)
	return nil
}

func (b *Bot) cmdGames(ctx context.Context, c command) error {
	msg, lang := c.msg, c.lang
	games, err := b.svc.ActiveGames(ctx, msg.From.ID, 0)
	if err != nil {
		b.text(msg.Chat, b.texts.Error(lang, err, false), msg.MessageID)
		return err
	}
	if len(games) == 0 {
		b.text(msg.Chat, b.texts.T(lang, "games_none"), msg.MessageID)
		return nil
	}
	var lines []string
	for _, g := range games {
		_, p := g.ToMove()
		turn := b.texts.T(lang, "games_their_turn", "Player", htmlName(b.texts.PlayerName(lang, p)))
		if p.UserID == msg.From.ID && p.Human() {
			turn = b.texts.T(lang, "games_your_turn")
		}
		line := b.texts.T(lang, "games_line", "White", htmlName(b.texts.PlayerName(lang, g.White())), "Black", htmlName(b.texts.PlayerName(lang, g.Black())), "Move", g.MoveNumber(), "Turn", turn)
		if link := messageLink(g.ChatID(), g.MessageID()); link != "" {
			line += ` <a href="` + link + `">↗</a>`
		}
		lines = append(lines, line)
	}
	// A player may be in any number of games: the list is cut to fit a
	// message, the rest counted ("… and N more").
	head := b.texts.N(lang, "games_list", len(games)) + "\n"
	more := func(n int) string { return html.EscapeString(b.texts.N(lang, "list_more", n)) }
	room := texts.MessageLimit - texts.TelegramLen(head, tgbotapi.ModeHTML)
	b.html(msg.Chat, head+texts.FitList(lines, "\n", room, tgbotapi.ModeHTML, more), nil)
	return nil
}

// isUsername reports whether name (without its "@") can be a Telegram
// username: at most 32 Latin letters, digits and underscores.
func isUsername(name string) bool {
	if name == "" || len(name) > 32 {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

// gameByCard finds the active game whose card is message id in chat.
func (b *Bot) gameByCard(ctx context.Context, chatID int64, messageID int) (*play.Game, error) {
	games, err := b.svc.ActiveGames(ctx, 0, chatID)
	if err != nil {
		return nil, err
	}
	for _, g := range games {
		if g.MessageID() == messageID {
			return g, nil
		}
	}
	return nil, nil
}

// gameForCommand finds the game a command in a chat is about: the card it
// replies to, else the user's only game in that chat (in a private chat,
// the only game played there, else the user's only game anywhere).
func (b *Bot) gameForCommand(ctx context.Context, msg *tgbotapi.Message, lang string) (*play.Game, error) {
	return b.findGame(ctx, msg, lang, false)
}

// gameForMove is gameForCommand preferring, among several games, the one
// where it is the user's move.
func (b *Bot) gameForMove(ctx context.Context, msg *tgbotapi.Message, lang string) (*play.Game, error) {
	return b.findGame(ctx, msg, lang, true)
}

func (b *Bot) findGame(ctx context.Context, msg *tgbotapi.Message, lang string, forMove bool) (*play.Game, error) {
	if msg.ReplyToMessage != nil {
		if g, err := b.gameByCard(ctx, msg.Chat.ID, msg.ReplyToMessage.MessageID); err != nil || g != nil {
			if err != nil {
				b.text(msg.Chat, b.texts.Error(lang, err, false), msg.MessageID)
			}
			return g, err
		}
	}
	// In a private chat every game of the user counts (games on inline
	// messages belong to no chat); in a group, the games shown there.
	all, err := b.svc.ActiveGames(ctx, 0, msg.Chat.ID)
	if msg.Chat.IsPrivate() {
		all, err = b.svc.ActiveGames(ctx, msg.From.ID, 0)
	}
	if err != nil {
		b.text(msg.Chat, b.texts.Error(lang, err, false), msg.MessageID)
		return nil, err
	}
	var mine, here []*play.Game
	for _, g := range all {
		if _, ok := g.ColorOf(msg.From.ID); !ok {
			continue
		}
		mine = append(mine, g)
		if g.ChatID() == msg.Chat.ID {
			here = append(here, g)
		}
	}
	// In a private chat, the games played in it come first: a command
	// there is about them, not about the user's games in groups.
	if msg.Chat.IsPrivate() && len(here) > 0 {
		mine = here
	}
	var myTurn []*play.Game
	for _, g := range mine {
		if _, p := g.ToMove(); p.Human() && p.UserID == msg.From.ID {
			myTurn = append(myTurn, g)
		}
	}
	switch {
	case len(mine) == 1:
		return mine[0], nil
	case forMove && len(myTurn) == 1:
		return myTurn[0], nil
	case len(mine) == 0:
		b.text(msg.Chat, b.texts.T(lang, "no_game_here"), msg.MessageID)
	default:
		b.text(msg.Chat, b.texts.T(lang, "which_game"), msg.MessageID)
	}
	return nil, nil
}

// sendMoves answers with the game's moves so far.
func (b *Bot) sendMoves(msg *tgbotapi.Message, g *play.Game, lang string) {
	text := b.texts.T(lang, "moves_none")
	if g.Ply() > 0 {
		text = b.texts.T(lang, "moves_so_far", "White", b.texts.PlayerName(lang, g.White()), "Black", b.texts.PlayerName(lang, g.Black()), "Record", g.Rules().Record())
	}
	b.text(msg.Chat, text, msg.MessageID)
}

func htmlName(s string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")
	return r.Replace(s)
}
