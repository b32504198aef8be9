package miniapp

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/play/manners"
	"github.com/bashni/bashni/play/review"
	"github.com/bashni/bashni/play/training"
	"github.com/bashni/bashni/texts"
)

//go:embed static
var static embed.FS

// Options configure a Server.
type Options struct {
	Token  string        // the bot's token: initData is signed with it
	MaxAge time.Duration // oldest initData accepted (MaxAge if 0)
	Logger *slog.Logger
	// Lang maps a Telegram language_code to one the texts speak.
	Lang func(code string) string
	// Heartbeat is how often an idle event stream sends a comment, so
	// proxies keep it open (25 s if 0).
	Heartbeat time.Duration
	// Streams bound the live event streams (StreamLimits' defaults if
	// zero).
	Streams StreamLimits
	// ClientAddr is the address a request counts against for
	// StreamLimits.PerAddr: the remote address if nil (see ClientAddrFrom
	// behind a reverse proxy).
	ClientAddr func(*http.Request) string
	// Refused, if set, hears each stream refused, by reason ("streams per
	// address", "streams").
	Refused func(reason string)
	// OnStreams, if set, hears how many streams are open after each one
	// opens or ends.
	OnStreams func(open int)
	// Puzzles, if set, serves the viewer's puzzle on the board
	// (puzzle.go).
	Puzzles *training.Puzzles
	// Streak, if set with Puzzles, has the board play Puzzle Streak too
	// (puzzlestreak.go).
	Streak *training.Streak
	// Course, if set, has the lobby show the viewer's progress in the
	// course (lobbycourse.go).
	Course *training.Course
	// Reviews analyses finished games (analysis.go); nil: no engine
	// reviews here, so there is never an analysis to show, and asking for
	// one is refused (review.ErrNoAnalysis).
	Reviews *review.Service
	// AnalysisWait is how long a request to analyse a game waits for the
	// analysis before it answers 202 and the page asks again (20 s if 0).
	AnalysisWait time.Duration
	// MaxGames is how many games in progress a user may have for the
	// lobby to start another (DefaultMaxGames if 0; lobby.go).
	MaxGames int
	// Admit, if set, is asked before a move or a draw action whether the
	// game's chat takes more of the bot's replies (door.go): refused, the
	// request is answered 429 with reason "chat_busy" and nothing changes.
	Admit func(chatID int64) error
	// Manners, if set, has the board leave conditional moves in games at
	// days per move (conditional.go).
	Manners *manners.Service
}

// Server serves the page and its API.
type Server struct {
	svc     *play.Service
	streams *streams
	texts   *texts.Catalog
	broker  *Broker
	check   *Checker
	opts    Options
	log     *slog.Logger
}

// New returns the app's server.
func New(svc *play.Service, words *texts.Catalog, broker *Broker, opts Options) *Server {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Lang == nil {
		opts.Lang = func(string) string { return "en" }
	}
	if opts.Heartbeat <= 0 {
		opts.Heartbeat = 25 * time.Second
	}
	if opts.AnalysisWait <= 0 {
		opts.AnalysisWait = 20 * time.Second
	}
	if opts.MaxGames <= 0 {
		opts.MaxGames = DefaultMaxGames
	}
	if opts.ClientAddr == nil {
		opts.ClientAddr = remoteHost
	}
	if opts.Refused == nil {
		opts.Refused = func(string) {}
	}
	return &Server{svc: svc, streams: newStreams(opts.Streams, opts.OnStreams), texts: words, broker: broker, check: NewChecker(opts.Token, opts.MaxAge), opts: opts, log: opts.Logger}
}

// Link is the direct link that opens game id in the Mini App registered as
// app with @BotFather for the bot @botUsername.
func Link(botUsername, app, gameID string) string {
	return "https://t.me/" + url.PathEscape(botUsername) + "/" + url.PathEscape(app) + "?startapp=" + url.QueryEscape(gameID)
}

// Handler serves the page at / and the API under /api/. Event streams end
// when ctx does, so a server shutting down is not held open by them.
func (s *Server) Handler(ctx context.Context) http.Handler {
	mux := http.NewServeMux()
	page, _ := fs.Sub(static, "static") // the directory is embedded above
	files := http.FileServerFS(page)
	mux.Handle("GET /", noCache(files))
	mux.HandleFunc("GET /api/lobby", s.authed(s.handleLobby))
	mux.HandleFunc("POST /api/lobby/ai", s.authed(s.handleNewAIGame))
	mux.HandleFunc("GET /api/games/{id}", s.authed(s.handleState))
	mux.HandleFunc("POST /api/games/{id}/move", s.authed(s.handleMove))
	mux.HandleFunc("POST /api/games/{id}/draw", s.authed(s.handleDraw))
	mux.HandleFunc("POST /api/games/{id}/resign", s.authed(s.handleResign))
	mux.HandleFunc("POST /api/games/{id}/flag", s.authed(s.handleFlag))
	mux.HandleFunc("GET /api/games/{id}/analysis", s.authed(s.handleAnalysis))
	mux.HandleFunc("POST /api/games/{id}/analysis", s.authed(s.handleAnalyse))
	mux.HandleFunc("GET /api/games/{id}/events", func(w http.ResponseWriter, r *http.Request) { s.handleEvents(ctx, w, r) })
	if s.opts.Manners != nil {
		mux.HandleFunc("POST /api/games/{id}/line", s.authed(s.handleLine))
		mux.HandleFunc("POST /api/games/{id}/line/try", s.authed(s.handleLineTry))
	}
	if s.opts.Puzzles != nil {
		mux.HandleFunc("GET /api/puzzle", s.authed(s.handlePuzzle))
		mux.HandleFunc("POST /api/puzzle/move", s.authed(s.handlePuzzleMove))
		mux.HandleFunc("POST /api/puzzle/next", s.authed(s.handlePuzzleNext))
	}
	return secured(mux)
}

// contentPolicy lets the page run its own script and Telegram's, talk to
// its own server only, and be framed only by Telegram's web clients
// (Telegram Web shows a Mini App in an iframe, so no X-Frame-Options).
// Styles may be inline: Telegram's script sets the theme on elements.
const contentPolicy = "default-src 'self'; script-src 'self' https://telegram.org; " +
	"style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; " +
	"base-uri 'none'; form-action 'none'; " +
	"frame-ancestors https://web.telegram.org https://webk.telegram.org https://webz.telegram.org"

// secured adds the security headers to every answer: the content policy,
// no sniffing of types (a JSON error must never run as a script), and no
// referrer (the page's URL carries the game).
func secured(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", contentPolicy)
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "no-referrer")
		h.ServeHTTP(w, r)
	})
}

// noCache makes webviews ask again for the page after a release (they
// cache hard otherwise); the files are small.
func noCache(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		h.ServeHTTP(w, r)
	})
}

// viewer is who is asking, from their checked initData.
type viewer struct {
	user User
	lang string
}

// auth checks the request's initData, sent in the Authorization header as
// "tma <initData>". Never in the URL: a URL ends up in proxies' logs, and
// the initData would let whoever reads them move for the user for a day
// (the page reads its event stream with fetch, not EventSource, for this).
func (s *Server) auth(r *http.Request) (viewer, error) {
	raw, _ := strings.CutPrefix(r.Header.Get("Authorization"), "tma ")
	d, err := s.check.Check(raw, s.svc.Now()) // the service's clock
	if err != nil {
		return viewer{}, err
	}
	return viewer{user: d.User, lang: s.opts.Lang(d.User.LanguageCode)}, nil
}

// authed runs h for a request whose initData checks out, and answers 401
// to any other: every API call needs it.
func (s *Server) authed(h func(http.ResponseWriter, *http.Request, viewer)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		v, err := s.auth(r)
		if err != nil {
			s.fail(w, viewer{}, err)
			return
		}
		h(w, r, v)
	}
}

// maxBody bounds a request body: a move is a few dozen bytes.
const maxBody = 4 << 10

// maxMoveText bounds a move's text: the longest capture in Bashni lands
// on fewer than 16 squares, written in 3 bytes each.
const maxMoveText = 64

func (s *Server) handleState(w http.ResponseWriter, r *http.Request, v viewer) {
	g, err := s.svc.Game(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, v, err)
		return
	}
	writeJSON(w, http.StatusOK, s.state(g, v))
}

// moveRequest is the body of a move: the move in notation, on the board
// the player saw (its ply).
type moveRequest struct {
	Ply  int    `json:"ply"`
	Move string `json:"move"`
}

// errBadRequest is a body that is not a well-formed request.
var errBadRequest = errors.New("miniapp: bad request")

// decodeMove reads a move request, refusing anything but one small JSON
// object with a ply and a short move.
func decodeMove(body []byte) (moveRequest, error) {
	var req moveRequest
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return req, errBadRequest
	}
	if dec.More() || req.Ply < 0 || req.Move == "" || len(req.Move) > maxMoveText {
		return req, errBadRequest
	}
	return req, nil
}

// readMove reads a move request, answering a bad one itself (false).
func (s *Server) readMove(w http.ResponseWriter, r *http.Request, v viewer) (moveRequest, bool) {
	body, err := readBody(w, r)
	if err == nil {
		var req moveRequest
		if req, err = decodeMove(body); err == nil {
			return req, true
		}
	}
	s.fail(w, v, err)
	return moveRequest{}, false
}

func (s *Server) handleMove(w http.ResponseWriter, r *http.Request, v viewer) {
	req, ok := s.readMove(w, r, v)
	if !ok || !s.admit(w, r, v) {
		return
	}
	out, err := s.svc.Move(play.Detached(r.Context()), r.PathValue("id"), v.user.ID, req.Ply, req.Move)
	if err != nil {
		s.failWithState(w, r, v, err)
		return
	}
	writeJSON(w, http.StatusOK, s.state(out.Game, v))
}

// drawRequest is the body of a draw action: offer, accept or decline.
type drawRequest struct {
	Action string `json:"action"`
}

func (s *Server) handleDraw(w http.ResponseWriter, r *http.Request, v viewer) {
	body, err := readBody(w, r)
	if err != nil {
		s.fail(w, v, err)
		return
	}
	var req drawRequest
	if json.Unmarshal(body, &req) != nil {
		s.fail(w, v, errBadRequest)
		return
	}
	if !s.admit(w, r, v) {
		return
	}
	// The chat hears of it from the event stored with the change.
	ctx, id := play.Detached(r.Context()), r.PathValue("id")
	var out *play.Outcome
	switch req.Action {
	case "offer":
		out, err = s.svc.OfferDraw(ctx, id, v.user.ID)
	case "accept", "decline":
		out, err = s.svc.AnswerDraw(ctx, id, v.user.ID, req.Action == "accept")
	default:
		err = errBadRequest
	}
	if err != nil {
		s.failWithState(w, r, v, err)
		return
	}
	writeJSON(w, http.StatusOK, s.state(out.Game, v))
}

func (s *Server) handleResign(w http.ResponseWriter, r *http.Request, v viewer) {
	out, err := s.svc.Resign(play.Detached(r.Context()), r.PathValue("id"), v.user.ID)
	if err != nil {
		s.failWithState(w, r, v, err)
		return
	}
	writeJSON(w, http.StatusOK, s.state(out.Game, v))
}

// handleFlag is a board whose clock shows zero asking the server to end
// the game on time. The server decides by its own clock and the stored
// deadline; anyone watching may ask, and only the first claim (or the
// bot's clock tick) ends the game.
func (s *Server) handleFlag(w http.ResponseWriter, r *http.Request, v viewer) {
	id := r.PathValue("id")
	if _, err := s.svc.ClaimTimeout(play.Detached(context.WithoutCancel(r.Context())), id); err != nil {
		s.fail(w, v, err)
		return
	}
	g, err := s.svc.Game(r.Context(), id)
	if err != nil {
		s.fail(w, v, err)
		return
	}
	writeJSON(w, http.StatusOK, s.state(g, v))
}

func readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		return nil, errBadRequest
	}
	return body, nil
}

// errorBody is what a refused request gets: the reason in the viewer's
// language, and the game as it is now when the request came too late.
type errorBody struct {
	Error string `json:"error"`
	// Reason names a refusal the page may tell apart (reasonChatBusy).
	Reason string `json:"reason,omitempty"`
	State  *state `json:"state,omitempty"`
}

// failWithState refuses a request on a game, sending the game as it is so
// the board can catch up (a stale move, a game already over).
func (s *Server) failWithState(w http.ResponseWriter, r *http.Request, v viewer, err error) {
	code := statusOf(err)
	body := errorBody{Error: s.texts.Error(v.lang, err, false)}
	if code != http.StatusNotFound && code != http.StatusServiceUnavailable {
		if g, gerr := s.svc.Game(r.Context(), r.PathValue("id")); gerr == nil {
			st := s.state(g, v)
			body.State = &st
		}
	}
	writeJSON(w, code, body)
}

func (s *Server) fail(w http.ResponseWriter, v viewer, err error) {
	msg := ""
	switch {
	case errors.Is(err, ErrUnauthorized):
		msg = s.texts.T(v.lang, "app_unauthorized")
	case errors.Is(err, errTooManyStreams):
		msg = s.texts.T(v.lang, "app_too_many_streams")
	case errors.Is(err, errStreamsFull):
		msg = s.texts.T(v.lang, "err_unavailable")
	case errors.Is(err, errBadRequest):
		msg = "bad request"
	default:
		msg = s.texts.Error(v.lang, err, false)
	}
	writeJSON(w, statusOf(err), errorBody{Error: msg})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}
