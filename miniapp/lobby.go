package miniapp

import (
	"cmp"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
)

// The lobby: the page opened with no game (the app's direct link without
// startapp, or the bot's menu button) starts one. A game against the AI is
// made by the same service call the bot's AI menu makes (play.NewAIGame),
// in the player's private chat with the bot, under a detached receipt with
// its first card owed: the bot posts the card there as it does for an
// accepted challenge (the app never calls into the bot), and the page
// opens the new game's board. A friend is challenged through the bot's
// inline mode (the page asks Telegram to switch to it in a chat the
// player picks), so those offers are the ones "@bot" makes anywhere.

// DefaultMaxGames is how many games in progress a user may have for the
// lobby to start another (Options.MaxGames).
const DefaultMaxGames = 10

// maxLobbyGames bounds the games in progress the lobby lists.
const maxLobbyGames = 20

// lobby is what the lobby page shows a viewer.
type lobby struct {
	Lang   string     `json:"lang"`
	Texts  textsOfApp `json:"texts"`
	Rules  []choice   `json:"rules"`
	Levels []choice   `json:"levels"`
	Colors []choice   `json:"colors"`
	Games  []gameItem `json:"games"` // the viewer's games in progress: theirs to move first, newest first
	// Course is the viewer's progress in the course (lobbycourse.go);
	// absent when the app serves none.
	Course *courseItem `json:"course,omitempty"`
}

// choice is one option of the lobby: what the API takes and what the
// player reads.
type choice struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Long is a fuller description, where the name is short.
	Long string `json:"long,omitempty"`
}

// gameItem is one game in progress in the lobby's list.
type gameItem struct {
	ID       string `json:"id"`
	Opponent string `json:"opponent"`
	Rules    string `json:"rules,omitempty"` // when not Bashni
	YourMove bool   `json:"your_move"`
}

// lobbyTexts are the lobby's words, from the catalogue.
var lobbyTexts = []string{
	"app_lobby_title", "app_lobby_rules", "app_lobby_level", "app_lobby_color", "app_lobby_start",
	"app_lobby_friend", "app_lobby_friend_hint", "app_lobby_friend_off", "app_lobby_games", "app_lobby_starting",
	"app_your_move", "app_lobby_their_move", "app_new_game",
}

func (s *Server) handleLobby(w http.ResponseWriter, r *http.Request, v viewer) {
	lang := v.lang
	lb := lobby{Lang: lang, Texts: textsOfApp{}, Rules: []choice{}, Levels: []choice{}, Games: []gameItem{}}
	for _, id := range lobbyTexts {
		lb.Texts[id] = s.texts.T(lang, id)
	}
	for _, rv := range rules.Variants {
		lb.Rules = append(lb.Rules, choice{ID: rv.String(), Name: s.texts.T(lang, "btn_rules_"+rv.String()), Long: s.texts.T(lang, "app_lobby_about_"+rv.String())})
	}
	for l := 1; l <= s.svc.Config().MaxLevel; l++ {
		lb.Levels = append(lb.Levels, choice{ID: strconv.Itoa(l), Name: s.texts.LevelName(lang, l)})
	}
	for _, c := range []string{play.ColorWhite, play.ColorBlack, play.ColorRandom} {
		lb.Colors = append(lb.Colors, choice{ID: c, Name: s.texts.T(lang, "app_lobby_"+c)})
	}
	games, err := s.svc.ActiveGames(r.Context(), v.user.ID, 0)
	if err == nil {
		lb.Course, err = s.courseOf(r.Context(), v.user.ID, lang)
	}
	if err != nil {
		s.fail(w, v, err)
		return
	}
	// Newest first, and those waiting for the viewer's move before them.
	slices.SortStableFunc(games, func(a, b *play.Game) int { return b.CreatedAt().Compare(a.CreatedAt()) })
	for _, g := range games[:min(len(games), maxLobbyGames)] {
		lb.Games = append(lb.Games, s.gameItem(g, v))
	}
	slices.SortStableFunc(lb.Games, func(a, b gameItem) int {
		switch {
		case a.YourMove == b.YourMove:
			return 0
		case a.YourMove:
			return -1
		}
		return 1
	})
	writeJSON(w, http.StatusOK, lb)
}

// gameItem is g in the viewer's list of games in progress.
func (s *Server) gameItem(g *play.Game, v viewer) gameItem {
	it := gameItem{ID: g.ID()}
	opp := g.White()
	if c, ok := g.ColorOf(v.user.ID); ok && c == rules.White {
		opp = g.Black()
	}
	it.Opponent = s.texts.PlayerName(v.lang, opp)
	if _, p := g.ToMove(); p.UserID == v.user.ID && p.Human() {
		it.YourMove = true
	}
	if start := g.Rules().StartPosition(); start.Variant() != rules.Bashni {
		rv := start.Variant()
		it.Rules = s.texts.T(v.lang, "btn_rules_"+rv.String())
	}
	return it
}

// aiGameRequest is the body of a new game against the AI: the rules by
// their name (rules.Variant.String), the AI's level and the player's
// colour (white, black or random).
type aiGameRequest struct {
	Rules string `json:"rules"`
	Level int    `json:"level"`
	Color string `json:"color"`
}

// decodeAIGame reads a new game's request: one small JSON object with
// nothing but its three fields.
func decodeAIGame(body []byte) (aiGameRequest, error) {
	var req aiGameRequest
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil || dec.More() {
		return req, errBadRequest
	}
	return req, nil
}

// handleNewAIGame starts a game against the AI in the viewer's private
// chat and answers with its state, as GET /api/games/{id} would.
func (s *Server) handleNewAIGame(w http.ResponseWriter, r *http.Request, v viewer) {
	body, err := readBody(w, r)
	var req aiGameRequest
	if err == nil {
		req, err = decodeAIGame(body)
	}
	var variant rules.Variant
	if err == nil {
		variant, err = play.VariantNamed(req.Rules)
	}
	if err != nil {
		s.fail(w, v, err)
		return
	}
	// Detached: the bot, hearing of the game from the service, posts its
	// card in the private chat (a user's private chat has their id).
	g, err := s.svc.NewAIGame(play.Detached(r.Context()), play.AIGameRequest{
		ChatID: v.user.ID, Human: play.Player{UserID: v.user.ID, Name: cmp.Or(v.user.Name(), "?")},
		Level: req.Level, Color: req.Color, Variant: variant, Lang: v.lang,
		OwesCard: true, MaxActive: s.opts.MaxGames,
	})
	if err != nil {
		s.fail(w, v, err)
		return
	}
	writeJSON(w, http.StatusOK, s.state(g, v))
}
