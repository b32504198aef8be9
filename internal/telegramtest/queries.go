package telegramtest

import (
	"encoding/json"
	"slices"
)

// queryInvalid is Telegram's answer to a second answer of a query, or of a
// query it never sent.
const queryInvalid = "query is too old and response timeout expired or query ID is invalid"

type callbackState struct {
	answered  bool
	text      string
	showAlert bool
	url       string
}

type inlineState struct {
	answered bool
	seq      int // order of answers, to find the latest
	results  []json.RawMessage
}

func (s *Server) answerCallbackQuery(c *Call) (any, *Failure) {
	q, ok := s.callbacks[c.Params["callback_query_id"]]
	if !ok || q.answered {
		return nil, badRequest(queryInvalid)
	}
	q.answered = true
	q.text, q.showAlert, q.url = c.Params["text"], c.Params["show_alert"] == "true", c.Params["url"]
	return true, nil
}

// CallbackAnswer reports how the bot answered a callback query.
func (s *Server) CallbackAnswer(queryID string) (text string, showAlert bool, answered bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q, ok := s.callbacks[queryID]
	if !ok || !q.answered {
		return "", false, false
	}
	return q.text, q.showAlert, true
}

func (s *Server) answerInlineQuery(c *Call) (any, *Failure) {
	q, ok := s.inlineQueries[c.Params["inline_query_id"]]
	if !ok || q.answered {
		return nil, badRequest(queryInvalid)
	}
	var results []json.RawMessage
	if err := json.Unmarshal([]byte(c.Params["results"]), &results); err != nil {
		return nil, badRequest("can't parse JSON array of inline query results")
	}
	if len(results) > 50 {
		return nil, badRequest("RESULTS_TOO_MUCH")
	}
	var ids []string
	for _, raw := range results {
		var r struct {
			Type string `json:"type"`
			ID   string `json:"id"`
		}
		if err := json.Unmarshal(raw, &r); err != nil || r.Type == "" {
			return nil, badRequest("can't parse inline query result")
		}
		if r.ID == "" || len(r.ID) > 64 {
			return nil, badRequest("RESULT_ID_INVALID")
		}
		if slices.Contains(ids, r.ID) {
			return nil, badRequest("RESULT_ID_DUPLICATE")
		}
		ids = append(ids, r.ID)
	}
	q.answered, q.results, q.seq = true, results, s.nextSeq()
	return true, nil
}

// InlineAnswer returns the results the bot answered an inline query with.
func (s *Server) InlineAnswer(queryID string) (results []json.RawMessage, answered bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q, ok := s.inlineQueries[queryID]
	if !ok || !q.answered {
		return nil, false
	}
	return slices.Clone(q.results), true
}

// inlineResult finds the latest answered result with the id, for a chosen
// inline result. Callers hold s.mu.
func (s *Server) inlineResult(resultID string) (json.RawMessage, bool) {
	var (
		found json.RawMessage
		seq   int
	)
	for _, q := range s.inlineQueries {
		for _, raw := range q.results {
			var r struct {
				ID string `json:"id"`
			}
			if json.Unmarshal(raw, &r) == nil && r.ID == resultID && q.seq > seq {
				found, seq = raw, q.seq
			}
		}
	}
	return found, found != nil
}
