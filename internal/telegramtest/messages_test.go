package telegramtest

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

func TestSendMessageModel(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	kb := keyboard("a", "b")
	m1 := sendText(t, bot, alice.ID, "first", &kb)
	m2 := sendText(t, bot, alice.ID, "second", nil)
	other := sendText(t, bot, bob.ID, "other", nil)
	if m1.MessageID != 1 || m2.MessageID != 2 || other.MessageID != 1 {
		t.Errorf("message ids = %d, %d, other chat %d; want 1, 2 and 1 (per chat)", m1.MessageID, m2.MessageID, other.MessageID)
	}
	if m1.Chat.ID != alice.ID || m1.Text != "first" || m1.Date == 0 || m1.From.ID != srv.Bot().ID {
		t.Errorf("answer = %+v, want the sent message", m1)
	}
	if m1.ReplyMarkup == nil || len(m1.ReplyMarkup.InlineKeyboard[0]) != 2 {
		t.Errorf("answer markup = %+v, want the two buttons", m1.ReplyMarkup)
	}
	got, ok := srv.Message(alice.ID, 1)
	if !ok || got.Text != "first" || !got.FromBot || got.Kind != "text" || got.ReplyMarkup == nil {
		t.Errorf("Message(alice, 1) = %+v, %v, want the first text with its keyboard", got, ok)
	}
	if msgs := srv.Messages(alice.ID); len(msgs) != 2 || msgs[1].Text != "second" {
		t.Errorf("Messages(alice) = %+v, want first and second", msgs)
	}
	if _, ok := srv.Message(alice.ID, 3); ok {
		t.Error("Message(alice, 3) found, want none")
	}
}

func TestSendMessageRefusals(t *testing.T) {
	long := strings.Repeat("x", 4097)
	data65 := strings.Repeat("d", 65)
	tests := []struct {
		name string
		cfg  func() tgbotapi.MessageConfig
		want string
	}{
		{"empty text", func() tgbotapi.MessageConfig { return tgbotapi.NewMessage(1, " \n") }, "Bad Request: message text is empty"},
		{"too long", func() tgbotapi.MessageConfig { return tgbotapi.NewMessage(1, long) }, "Bad Request: message is too long"},
		{"no chat", func() tgbotapi.MessageConfig { return tgbotapi.NewMessage(0, "x") }, "Bad Request: chat_id is empty"},
		{"reply to nothing", func() tgbotapi.MessageConfig {
			c := tgbotapi.NewMessage(1, "x")
			c.ReplyToMessageID = 99
			return c
		}, "Bad Request: replied message not found"},
		{"callback data too long", func() tgbotapi.MessageConfig {
			c := tgbotapi.NewMessage(1, "x")
			c.ReplyMarkup = keyboard(data65)
			return c
		}, "Bad Request: BUTTON_DATA_INVALID"},
		{"bad HTML", func() tgbotapi.MessageConfig {
			c := tgbotapi.NewMessage(1, "Alice <3")
			c.ParseMode = tgbotapi.ModeHTML
			return c
		}, "Bad Request: can't parse entities: Can't find end of the tag starting at byte offset 6"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := New(t)
			bot := newBot(t, srv)
			_, err := bot.Send(tt.cfg())
			wantRefusal(t, err, tt.want)
			if msgs := srv.Messages(1); len(msgs) != 0 {
				t.Errorf("a refused send left messages %+v", msgs)
			}
		})
	}
}

func TestSendPhoto(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	img := PNG(640, 480)
	cfg := tgbotapi.NewPhoto(alice.ID, tgbotapi.FileBytes{Name: "board.png", Bytes: img})
	cfg.Caption = "<b>White</b> to move"
	cfg.ParseMode = tgbotapi.ModeHTML
	kb := keyboard("resign")
	cfg.ReplyMarkup = kb
	msg, err := bot.Send(cfg)
	if err != nil {
		t.Fatalf("sendPhoto: %v", err)
	}

	call := srv.CallsTo("sendPhoto")[0]
	if f := call.Files["photo"]; f.Name != "board.png" || !bytes.Equal(f.Data, img) {
		t.Errorf("recorded upload %q (%d bytes), want board.png (%d bytes)", f.Name, len(f.Data), len(img))
	}
	if len(msg.Photo) == 0 {
		t.Fatal("answer has no photo sizes")
	}
	largest := msg.Photo[len(msg.Photo)-1]
	if largest.Width != 640 || largest.Height != 480 || !strings.HasPrefix(largest.FileID, "photo-") {
		t.Errorf("largest size = %+v, want 640×480 photo-…", largest)
	}
	if msg.Caption != "White to move" {
		t.Errorf("caption = %q, want the parsed HTML", msg.Caption)
	}
	got, _ := srv.Message(alice.ID, msg.MessageID)
	if got.Kind != "photo" || got.FileID != largest.FileID || !bytes.Equal(got.Data, img) || got.Text != "White to move" {
		t.Errorf("model = %+v, want the photo with its bytes and caption", got)
	}

	// The file_id is reusable; a second upload gets a new one.
	again, err := bot.Send(tgbotapi.NewPhoto(bob.ID, tgbotapi.FileID(largest.FileID)))
	if err != nil || again.Photo[len(again.Photo)-1].FileID != largest.FileID {
		t.Errorf("resend by file_id = %+v, %v, want the same file", again.Photo, err)
	}
	second, err := bot.Send(tgbotapi.NewPhoto(bob.ID, tgbotapi.FileBytes{Name: "b.png", Bytes: img}))
	if err != nil || second.Photo[len(second.Photo)-1].FileID == largest.FileID {
		t.Errorf("second upload file_id = %+v, %v, want a new one", second.Photo, err)
	}
}

func TestSendPhotoRefusals(t *testing.T) {
	tests := []struct {
		name string
		file tgbotapi.RequestFileData
		want string
	}{
		{"not an image", tgbotapi.FileBytes{Name: "x.png", Bytes: []byte("not a png")}, "Bad Request: IMAGE_PROCESS_FAILED"},
		{"empty", tgbotapi.FileBytes{Name: "x.png"}, "Bad Request: file must be non-empty"},
		{"unknown file_id", tgbotapi.FileID("photo-999"), "Bad Request: wrong file identifier/HTTP URL specified"},
		{"too thin", tgbotapi.FileBytes{Name: "x.png", Bytes: PNG(400, 10)}, "Bad Request: PHOTO_INVALID_DIMENSIONS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := New(t)
			bot := newBot(t, srv)
			_, err := bot.Send(tgbotapi.NewPhoto(1, tt.file))
			wantRefusal(t, err, tt.want)
		})
	}
}

func TestFileTypeMismatch(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	doc, err := bot.Send(tgbotapi.NewDocument(1, tgbotapi.FileBytes{Name: "game.pdn", Bytes: []byte("1. c3-d4")}))
	if err != nil {
		t.Fatal(err)
	}
	_, err = bot.Send(tgbotapi.NewPhoto(1, tgbotapi.FileID(doc.Document.FileID)))
	wantRefusal(t, err, "Bad Request: type of file mismatch")
}

func TestGetFileAndDownload(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	doc, err := bot.Send(tgbotapi.NewDocument(1, tgbotapi.FileBytes{Name: "game.pdn", Bytes: []byte("1. c3-d4")}))
	if err != nil {
		t.Fatal(err)
	}
	f, err := bot.GetFile(tgbotapi.FileConfig{FileID: doc.Document.FileID})
	if err != nil || f.FilePath == "" || f.FileSize != 8 {
		t.Fatalf("getFile = %+v, %v", f, err)
	}
	resp, err := http.Get(srv.URL() + "/file/bot" + srv.Token() + "/" + f.FilePath)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if string(body) != "1. c3-d4" {
		t.Errorf("download = %q, want the document", body)
	}
	_, err = bot.GetFile(tgbotapi.FileConfig{FileID: "nope"})
	wantRefusal(t, err, "Bad Request: invalid file_id")
}

func TestAnimation(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	msg, err := bot.Send(tgbotapi.NewAnimation(1, tgbotapi.FileBytes{Name: "win.gif", Bytes: []byte("GIF89a…")}))
	if err != nil || msg.Animation == nil || msg.Document == nil {
		t.Fatalf("sendAnimation = %+v, %v, want animation and document", msg, err)
	}
}

func TestEditMessageMediaUpload(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	first, second := PNG(100, 100), PNG(120, 120)
	card, err := bot.Send(tgbotapi.NewPhoto(alice.ID, tgbotapi.FileBytes{Name: "a.png", Bytes: first}))
	if err != nil {
		t.Fatal(err)
	}

	media := tgbotapi.NewInputMediaPhoto(tgbotapi.FileBytes{Name: "b.png", Bytes: second})
	media.Caption = "Black to move"
	kb := keyboard("undo")
	edit := tgbotapi.EditMessageMediaConfig{
		BaseEdit: tgbotapi.BaseEdit{ChatID: alice.ID, MessageID: card.MessageID, ReplyMarkup: &kb},
		Media:    media, // a value: a pointer is silently dropped by tgbotapi
	}
	msg, err := bot.Send(edit)
	if err != nil {
		t.Fatalf("editMessageMedia: %v", err)
	}
	call := srv.CallsTo("editMessageMedia")[0]
	if f, ok := call.Files["file-0"]; !ok || !bytes.Equal(f.Data, second) {
		t.Errorf("recorded files = %v, want file-0 with the new image", call.Files)
	}
	if call.Text() != "Black to move" {
		t.Errorf("call text = %q, want the media caption", call.Text())
	}
	got, _ := srv.Message(alice.ID, card.MessageID)
	if !bytes.Equal(got.Data, second) || got.Text != "Black to move" || got.Edits != 1 || got.EditDate.IsZero() || got.ReplyMarkup == nil {
		t.Errorf("model = %+v, want the new image, caption and keyboard", got)
	}
	if msg.EditDate == 0 || msg.Photo[len(msg.Photo)-1].FileID != got.FileID {
		t.Errorf("answer = %+v, want the edited message", msg)
	}

	// The same file_id, caption and keyboard again change nothing.
	same := tgbotapi.EditMessageMediaConfig{
		BaseEdit: tgbotapi.BaseEdit{ChatID: alice.ID, MessageID: card.MessageID, ReplyMarkup: &kb},
		Media:    tgbotapi.InputMediaPhoto{BaseInputMedia: tgbotapi.BaseInputMedia{Type: "photo", Media: tgbotapi.FileID(got.FileID), Caption: "Black to move"}},
	}
	_, err = bot.Send(same)
	wantRefusal(t, err, "Bad Request: "+notModified)
}

// TestEditMessageMediaPointer shows the tgbotapi pitfall the fake exposes:
// media passed as a pointer is dropped from the request.
func TestEditMessageMediaPointer(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	card, err := bot.Send(tgbotapi.NewPhoto(alice.ID, tgbotapi.FileBytes{Name: "a.png", Bytes: PNG(10, 10)}))
	if err != nil {
		t.Fatal(err)
	}
	media := tgbotapi.NewInputMediaPhoto(tgbotapi.FileBytes{Name: "b.png", Bytes: PNG(20, 20)})
	_, err = bot.Send(tgbotapi.EditMessageMediaConfig{
		BaseEdit: tgbotapi.BaseEdit{ChatID: alice.ID, MessageID: card.MessageID},
		Media:    &media,
	})
	wantRefusal(t, err, "Bad Request: there is no media in the request")
}

func TestEdits(t *testing.T) {
	kb := keyboard("a")
	kb2 := keyboard("a", "b")
	tests := []struct {
		name   string
		edit   func(chatID int64, id int) tgbotapi.Chattable
		want   string // refusal; "" for success
		text   string
		hasKbd bool
	}{
		{"same text and keyboard", func(c int64, id int) tgbotapi.Chattable {
			return tgbotapi.NewEditMessageTextAndMarkup(c, id, "board", kb)
		}, "Bad Request: " + notModified, "board", true},
		{"same text, trailing space", func(c int64, id int) tgbotapi.Chattable {
			return tgbotapi.NewEditMessageTextAndMarkup(c, id, "board\n", kb)
		}, "Bad Request: " + notModified, "board", true},
		{"same text as bold", func(c int64, id int) tgbotapi.Chattable {
			e := tgbotapi.NewEditMessageTextAndMarkup(c, id, "<b>board</b>", kb)
			e.ParseMode = tgbotapi.ModeHTML
			return e
		}, "", "board", true},
		{"new text without markup drops the keyboard", func(c int64, id int) tgbotapi.Chattable {
			return tgbotapi.NewEditMessageText(c, id, "board 2")
		}, "", "board 2", false},
		{"same text without markup drops the keyboard", func(c int64, id int) tgbotapi.Chattable {
			return tgbotapi.NewEditMessageText(c, id, "board")
		}, "", "board", false},
		{"new keyboard", func(c int64, id int) tgbotapi.Chattable {
			return tgbotapi.NewEditMessageReplyMarkup(c, id, kb2)
		}, "", "board", true},
		{"same keyboard", func(c int64, id int) tgbotapi.Chattable {
			return tgbotapi.NewEditMessageReplyMarkup(c, id, kb)
		}, "Bad Request: " + notModified, "board", true},
		{"caption of a text", func(c int64, id int) tgbotapi.Chattable {
			return tgbotapi.NewEditMessageCaption(c, id, "x")
		}, "Bad Request: there is no caption in the message to edit", "board", true},
		{"unknown message", func(c int64, id int) tgbotapi.Chattable {
			return tgbotapi.NewEditMessageText(c, id+100, "x")
		}, "Bad Request: message to edit not found", "board", true},
		{"empty text", func(c int64, id int) tgbotapi.Chattable {
			return tgbotapi.NewEditMessageTextAndMarkup(c, id, "", kb)
		}, "Bad Request: message text is empty", "board", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := New(t)
			bot := newBot(t, srv)
			card := sendText(t, bot, alice.ID, "board", &kb)
			_, err := bot.Request(tt.edit(alice.ID, card.MessageID))
			if tt.want == "" && err != nil {
				t.Fatalf("edit: %v", err)
			}
			if tt.want != "" {
				wantRefusal(t, err, tt.want)
			}
			got, _ := srv.Message(alice.ID, card.MessageID)
			if got.Text != tt.text || (got.ReplyMarkup != nil) != tt.hasKbd {
				t.Errorf("model text %q keyboard %v, want %q keyboard %v", got.Text, got.ReplyMarkup != nil, tt.text, tt.hasKbd)
			}
		})
	}
}

func TestEditCaption(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	card, err := bot.Send(tgbotapi.NewPhoto(alice.ID, tgbotapi.FileBytes{Name: "a.png", Bytes: PNG(10, 10)}))
	if err != nil {
		t.Fatal(err)
	}
	msg, err := bot.Send(tgbotapi.NewEditMessageCaption(alice.ID, card.MessageID, "Draw offered"))
	if err != nil || msg.Caption != "Draw offered" {
		t.Fatalf("editMessageCaption = %q, %v", msg.Caption, err)
	}
	_, err = bot.Send(tgbotapi.NewEditMessageCaption(alice.ID, card.MessageID, "Draw offered"))
	wantRefusal(t, err, "Bad Request: "+notModified)
	_, err = bot.Send(tgbotapi.NewEditMessageText(alice.ID, card.MessageID, "x"))
	wantRefusal(t, err, "Bad Request: there is no text in the message to edit")
}

func TestDeleteMessage(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	card := sendText(t, bot, alice.ID, "board", nil)
	del := tgbotapi.NewDeleteMessage(alice.ID, card.MessageID)
	if _, err := bot.Request(del); err != nil {
		t.Fatalf("deleteMessage: %v", err)
	}
	if got, ok := srv.Message(alice.ID, card.MessageID); !ok || !got.Deleted {
		t.Errorf("model = %+v, %v, want it marked deleted", got, ok)
	}
	_, err := bot.Request(del)
	wantRefusal(t, err, "Bad Request: message to delete not found")
	_, err = bot.Request(tgbotapi.NewEditMessageText(alice.ID, card.MessageID, "x"))
	wantRefusal(t, err, "Bad Request: message to edit not found")

	// bot.Send expects a Message; deleteMessage answers true.
	card2 := sendText(t, bot, alice.ID, "board", nil)
	if _, err := bot.Send(tgbotapi.NewDeleteMessage(alice.ID, card2.MessageID)); err == nil {
		t.Error("bot.Send(deleteMessage) succeeded, want tgbotapi's unmarshal error for a true result")
	}
}

func TestUsersMessages(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	group := GroupChat(-77, "Club")
	id := srv.PushUpdate(srv.TextMessage(group, alice, "/new"))
	if id == 0 {
		t.Fatal("command dropped")
	}
	msgs := srv.Messages(group.ID)
	if len(msgs) != 1 || msgs[0].FromBot || msgs[0].FromID != alice.ID || msgs[0].Text != "/new" {
		t.Fatalf("messages = %+v, want Alice's command", msgs)
	}
	_, err := bot.Request(tgbotapi.NewEditMessageText(group.ID, msgs[0].ID, "x"))
	wantRefusal(t, err, "Bad Request: message can't be edited")
	_, err = bot.Request(tgbotapi.NewDeleteMessage(group.ID, msgs[0].ID))
	wantRefusal(t, err, "Bad Request: message can't be deleted")
	srv.SetChatMember(group.ID, srv.Bot().ID, "administrator")
	if _, err := bot.Request(tgbotapi.NewDeleteMessage(group.ID, msgs[0].ID)); err != nil {
		t.Errorf("delete as administrator: %v", err)
	}
}
