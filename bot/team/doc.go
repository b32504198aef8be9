// Package team is the Telegram side of the games a group plays against the
// AI by vote (play/team): a bot.Module with /team, /vote, the vote buttons
// on the card, the native polls a group may vote in instead, their
// answers, and what a game by vote adds to its card and to the message
// that tells its end. It speaks to the bot only through *bot.Kit.
package team
