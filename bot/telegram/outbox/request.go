package outbox

import (
	"reflect"
	"strconv"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// tgbotapi keeps a Chattable's method name unexported, so the outbox names
// the requests the bot sends itself; others are named by their type.
var methodNames = map[reflect.Type]string{
	reflect.TypeFor[tgbotapi.MessageConfig]():                "sendMessage",
	reflect.TypeFor[tgbotapi.PhotoConfig]():                  "sendPhoto",
	reflect.TypeFor[tgbotapi.DocumentConfig]():               "sendDocument",
	reflect.TypeFor[tgbotapi.AnimationConfig]():              "sendAnimation",
	reflect.TypeFor[tgbotapi.MediaGroupConfig]():             "sendMediaGroup",
	reflect.TypeFor[tgbotapi.ChatActionConfig]():             "sendChatAction",
	reflect.TypeFor[tgbotapi.CopyMessageConfig]():            "copyMessage",
	reflect.TypeFor[tgbotapi.ForwardConfig]():                "forwardMessage",
	reflect.TypeFor[tgbotapi.EditMessageTextConfig]():        "editMessageText",
	reflect.TypeFor[tgbotapi.EditMessageCaptionConfig]():     "editMessageCaption",
	reflect.TypeFor[tgbotapi.EditMessageMediaConfig]():       "editMessageMedia",
	reflect.TypeFor[tgbotapi.EditMessageReplyMarkupConfig](): "editMessageReplyMarkup",
	reflect.TypeFor[tgbotapi.DeleteMessageConfig]():          "deleteMessage",
	reflect.TypeFor[tgbotapi.PinChatMessageConfig]():         "pinChatMessage",
	reflect.TypeFor[tgbotapi.UnpinChatMessageConfig]():       "unpinChatMessage",
	reflect.TypeFor[tgbotapi.CallbackConfig]():               "answerCallbackQuery",
	reflect.TypeFor[tgbotapi.InlineConfig]():                 "answerInlineQuery",
	reflect.TypeFor[tgbotapi.ShippingConfig]():               "answerShippingQuery",
	reflect.TypeFor[tgbotapi.PreCheckoutConfig]():            "answerPreCheckoutQuery",
	reflect.TypeFor[tgbotapi.SetMyCommandsConfig]():          "setMyCommands",
	reflect.TypeFor[tgbotapi.DeleteMyCommandsConfig]():       "deleteMyCommands",
}

// Answers to queries: the user is looking at a spinner until they arrive,
// and they are not messages, so chat pacing does not apply.
var priorityMethods = map[string]bool{
	"answerCallbackQuery":    true,
	"answerInlineQuery":      true,
	"answerShippingQuery":    true,
	"answerPreCheckoutQuery": true,
}

// Requests that are not messages: Telegram's limits of about one message a
// second per chat and twenty a minute per group count messages sent and
// edited, and these are neither. Telegram's maintainers say deletions have
// limits "high enough to cover all reasonable usages" (tdlib/telegram-bot-api
// #572), and callback answers none at all (#648); sending and editing share
// the per-chat limit (tdlib/td #2592, #3034). They keep their place in their
// chat's order but spend none of its pace.
//
// Nor is a reaction: it sends no message and edits none, and
// the 20 a minute Telegram documents for a group are messages (Bots FAQ,
// "My bot is hitting limits"). No maintainer has said more that we know
// of; a 429 on one is waited out like any other.
var unpacedMethods = map[string]bool{
	"deleteMessage":      true,
	"sendChatAction":     true,
	"setMessageReaction": true,
}

// request is what the outbox learns about a Chattable before sending it.
type request struct {
	method   string
	unpaced  bool   // not a message: no chat or group pacing
	chatID   int64  // from a ChatID field, 0 if none
	inlineID string // from an InlineMessageID field
}

func describe(c tgbotapi.Chattable) request {
	v := reflect.ValueOf(c)
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return request{method: methodName(v.Type())}
		}
		v = v.Elem()
	}
	r := request{method: methodName(v.Type())}
	r.unpaced = unpacedMethods[r.method]
	if v.Kind() != reflect.Struct {
		return r
	}
	// FieldByName finds the fields promoted from BaseChat, BaseFile and
	// BaseEdit, and reports an ambiguous name as not found.
	if f := v.FieldByName("ChatID"); f.IsValid() && f.Kind() == reflect.Int64 {
		r.chatID = f.Int()
	}
	if f := v.FieldByName("InlineMessageID"); f.IsValid() && f.Kind() == reflect.String {
		r.inlineID = f.String()
	}
	return r
}

// describeCall is describe for a request by name.
func describeCall(c *Call) request {
	r := request{method: c.Method, unpaced: unpacedMethods[c.Method]}
	r.chatID, _ = strconv.ParseInt(c.Params["chat_id"], 10, 64)
	return r
}

func methodName(t reflect.Type) string {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if name, ok := methodNames[t]; ok {
		return name
	}
	return strings.TrimSuffix(t.Name(), "Config")
}

// silenced returns a copy of c with DisableNotification set, or c itself
// when the request has no such field (edits, answers). The caller's value
// is never changed, pointer or not.
func silenced(c tgbotapi.Chattable) tgbotapi.Chattable {
	v := reflect.ValueOf(c)
	ptr := v.Kind() == reflect.Pointer
	if ptr {
		if v.IsNil() {
			return c
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return c
	}
	cp := reflect.New(v.Type()).Elem()
	cp.Set(v)
	f := cp.FieldByName("DisableNotification")
	if !f.IsValid() || f.Kind() != reflect.Bool || !f.CanSet() {
		return c
	}
	f.SetBool(true)
	out := cp
	if ptr {
		out = cp.Addr()
	}
	if s, ok := out.Interface().(tgbotapi.Chattable); ok {
		return s
	}
	return c
}
