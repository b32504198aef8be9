// Package texts is every word a player reads, in English and Russian, for
// both doors to a game: the bot's messages and the Mini App's page. The
// catalogues are data files (catalog/*.yaml, one per feature and
// language, the language in the file name) embedded in the binary and
// loaded by go-i18n, which also knows each language's plural forms
// (Russian has one/few/many: 1 ход, 2 хода, 5 ходов, 21 ход).
//
// A translator edits the YAML files only: every id must be in every
// language (TestEveryTextInEveryLanguage), and a template that does not
// parse fails the tests, not a player's message.
package texts
