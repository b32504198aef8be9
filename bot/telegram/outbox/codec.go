package outbox

import (
	"encoding/json"
	"errors"
	"fmt"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// A reply kept in the store (Options.Journal) is the request's own struct
// as JSON, with its file taken out beside it: a file is an interface value
// that JSON cannot bring back. Only the requests the bot sends are known;
// others are sent without being kept (errNotKept).

// storedReply is a Reply as the journal keeps it. Done is a function of
// the process that enqueued the reply and is not kept: a reply sent after a
// crash tells nobody it was sent.
type storedReply struct {
	Type   string          `json:"t"`
	Req    json.RawMessage `json:"r"`
	File   *storedFile     `json:"f,omitempty"`
	ChatID int64           `json:"c,omitzero"`
	Group  bool            `json:"g,omitzero"`
	UserID int64           `json:"u,omitzero"`
	Silent bool            `json:"s,omitzero"`
	Key    string          `json:"k,omitzero"`
	Ver    int64           `json:"v,omitzero"`
	Rec    json.RawMessage `json:"rec,omitempty"`
	Inline string          `json:"i,omitzero"` // a Lazy reply's inline message
}

type storedFile struct {
	Name  string `json:"n,omitzero"`
	Bytes []byte `json:"b,omitempty"`
	ID    string `json:"id,omitzero"`
	URL   string `json:"url,omitzero"`
}

var errNotKept = errors.New("outbox: request not kept")

func keepFile(f tgbotapi.RequestFileData) (*storedFile, error) {
	switch f := f.(type) {
	case nil:
		return nil, nil
	case tgbotapi.FileBytes:
		return &storedFile{Name: f.Name, Bytes: f.Bytes}, nil
	case tgbotapi.FileID:
		return &storedFile{ID: string(f)}, nil
	case tgbotapi.FileURL:
		return &storedFile{URL: string(f)}, nil
	}
	return nil, fmt.Errorf("%w: file %T", errNotKept, f)
}

// takeFile keeps *f and clears it, for the request to be kept without it.
func takeFile(f *tgbotapi.RequestFileData) (*storedFile, error) {
	kept, err := keepFile(*f)
	*f = nil
	return kept, err
}

func (f *storedFile) data() tgbotapi.RequestFileData {
	switch {
	case f == nil:
		return nil
	case f.ID != "":
		return tgbotapi.FileID(f.ID)
	case f.URL != "":
		return tgbotapi.FileURL(f.URL)
	}
	return tgbotapi.FileBytes{Name: f.Name, Bytes: f.Bytes}
}

// editMedia is EditMessageMediaConfig with its media typed, so that JSON
// brings the photo's fields back.
type editMedia struct {
	tgbotapi.BaseEdit
	Media tgbotapi.InputMediaPhoto
}

// encodeReply turns r into what the journal keeps, or errNotKept.
func encodeReply(r Reply) ([]byte, error) {
	s := storedReply{ChatID: r.ChatID, Group: r.Group, UserID: r.UserID, Silent: r.Silent, Key: r.Key, Ver: r.Version, Rec: r.Record}
	var body any
	var err error
	if r.Req == nil && r.Call == nil && r.Lazy != nil {
		// Kept as it is: made when it is sent.
		s.Type, s.Req, s.Inline = "lazy", r.Lazy, r.InlineMessageID
		return json.Marshal(s)
	}
	if r.Call != nil {
		// A request by name is its method and params, strings both.
		s.Type, body = "call", r.Call
		if s.Req, err = json.Marshal(body); err != nil {
			return nil, fmt.Errorf("outbox: keeping %s: %w", s.Type, err)
		}
		return json.Marshal(s)
	}
	switch req := r.Req.(type) {
	case tgbotapi.MessageConfig:
		s.Type, body = "message", req
	case tgbotapi.EditMessageTextConfig:
		s.Type, body = "editText", req
	case tgbotapi.EditMessageCaptionConfig:
		s.Type, body = "editCaption", req
	case tgbotapi.EditMessageReplyMarkupConfig:
		s.Type, body = "editMarkup", req
	case tgbotapi.DeleteMessageConfig:
		s.Type, body = "delete", req
	case tgbotapi.PhotoConfig:
		s.File, err = takeFile(&req.File)
		s.Type, body = "photo", req
	case tgbotapi.DocumentConfig:
		s.File, err = takeFile(&req.File)
		s.Type, body = "document", req
	case tgbotapi.AnimationConfig:
		s.File, err = takeFile(&req.File)
		s.Type, body = "animation", req
	case tgbotapi.EditMessageMediaConfig:
		photo, ok := req.Media.(tgbotapi.InputMediaPhoto)
		if !ok {
			return nil, fmt.Errorf("%w: media %T", errNotKept, req.Media)
		}
		s.Type = "editMedia"
		s.File, err = keepFile(photo.Media)
		photo.Media = nil
		body = editMedia{BaseEdit: req.BaseEdit, Media: photo}
	default:
		return nil, fmt.Errorf("%w: %T", errNotKept, r.Req)
	}
	if err != nil {
		return nil, err
	}
	if s.Req, err = json.Marshal(body); err != nil {
		return nil, fmt.Errorf("outbox: keeping %s: %w", s.Type, err)
	}
	return json.Marshal(s)
}

func decodeInto[T any](raw json.RawMessage) (T, error) {
	var v T
	err := json.Unmarshal(raw, &v)
	return v, err
}

// decodeWithFile decodes a request kept without its file and puts the
// file back with set.
func decodeWithFile[T tgbotapi.Chattable](raw json.RawMessage, f *storedFile, set func(*T, tgbotapi.RequestFileData)) (tgbotapi.Chattable, error) {
	v, err := decodeInto[T](raw)
	if err != nil {
		return nil, err
	}
	set(&v, f.data())
	return v, nil
}

// decodeReply brings back a reply encodeReply kept.
func decodeReply(data []byte) (Reply, error) {
	var s storedReply
	if err := json.Unmarshal(data, &s); err != nil {
		return Reply{}, fmt.Errorf("outbox: kept reply: %w", err)
	}
	var req tgbotapi.Chattable
	var err error
	switch s.Type {
	case "lazy":
		return Reply{Lazy: s.Req, InlineMessageID: s.Inline, ChatID: s.ChatID, Group: s.Group, UserID: s.UserID, Silent: s.Silent, Key: s.Key, Version: s.Ver, Record: s.Rec}, nil
	case "call":
		c, err := decodeInto[Call](s.Req)
		if err != nil {
			return Reply{}, fmt.Errorf("outbox: kept %s: %w", s.Type, err)
		}
		return Reply{Call: &c, ChatID: s.ChatID, Group: s.Group, UserID: s.UserID, Silent: s.Silent, Key: s.Key, Record: s.Rec}, nil
	case "message":
		req, err = decodeInto[tgbotapi.MessageConfig](s.Req)
	case "editText":
		req, err = decodeInto[tgbotapi.EditMessageTextConfig](s.Req)
	case "editCaption":
		req, err = decodeInto[tgbotapi.EditMessageCaptionConfig](s.Req)
	case "editMarkup":
		req, err = decodeInto[tgbotapi.EditMessageReplyMarkupConfig](s.Req)
	case "delete":
		req, err = decodeInto[tgbotapi.DeleteMessageConfig](s.Req)
	case "photo":
		req, err = decodeWithFile(s.Req, s.File, func(p *tgbotapi.PhotoConfig, f tgbotapi.RequestFileData) { p.File = f })
	case "document":
		req, err = decodeWithFile(s.Req, s.File, func(d *tgbotapi.DocumentConfig, f tgbotapi.RequestFileData) { d.File = f })
	case "animation":
		req, err = decodeWithFile(s.Req, s.File, func(a *tgbotapi.AnimationConfig, f tgbotapi.RequestFileData) { a.File = f })
	case "editMedia":
		var m editMedia
		if m, err = decodeInto[editMedia](s.Req); err == nil {
			m.Media.Media = s.File.data()
			req = tgbotapi.EditMessageMediaConfig{BaseEdit: m.BaseEdit, Media: m.Media}
		}
	default:
		return Reply{}, fmt.Errorf("outbox: kept reply of unknown type %q", s.Type)
	}
	if err != nil {
		return Reply{}, fmt.Errorf("outbox: kept %s: %w", s.Type, err)
	}
	return Reply{Req: req, ChatID: s.ChatID, Group: s.Group, UserID: s.UserID, Silent: s.Silent, Key: s.Key, Version: s.Ver, Record: s.Rec}, nil
}
