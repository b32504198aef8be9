// Package versus is the Telegram side of the matches between groups
// (play/versus): /versus and its link, the offer an administrator of the
// other group accepts, the season's table, a group's history and its
// administrators' choices. The games themselves are games by vote on both
// sides, drawn and voted by bot/team, and shown in both chats by the
// core's mirror card.
package versus
