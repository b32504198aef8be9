// Package tournament is the bot's side of the groups' arena tournaments
// (package play/tournament decides; here is what the group and the players
// see), plugged into the bot as a bot.Module and speaking to it only
// through *bot.Kit.
//
// The group sees one card (standings, time left, Join / Leave / Pause),
// edited at most every few seconds (the domain claims each edit in the
// stored tournament), and the final standings. The games are played in
// the players' private chats, where Telegram paces each chat on its own
// and a group's 20 messages a minute do not slow anyone's board: each
// player gets the game's card in their own chat with the bot (White's is
// the game's card, Black's its mirror, edited with it: Kit.PostCards), and
// plays by its buttons, by typed moves or on the Mini App board it links.
// Its texts are texts/catalog/tournament.{en,ru}.yaml.
package tournament
