package updates

import (
	"fmt"
	"strconv"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot/telegram"
)

// DeleteWebhook removes the webhook, so that Poll can be used; with
// dropPending the updates Telegram holds are discarded. The bot never
// does (it is set to poll or to serve a webhook for good); the tests
// undo the webhook they set.
func DeleteWebhook(api *tgbotapi.BotAPI, dropPending bool) error {
	params := tgbotapi.Params{"drop_pending_updates": strconv.FormatBool(dropPending)}
	if _, err := api.MakeRequest("deleteWebhook", params); err != nil {
		return fmt.Errorf("updates: deleteWebhook: %w", telegram.Redact(err, api.Token))
	}
	return nil
}
