// Package coyote implements Coyote (Spartaco Albertarelli), rules page
// RULES.md: every player wears a feather that everyone else
// sees but they do not; players bid ever higher on the total of all feathers
// or call "Coyote!" against the last bid; whoever is wrong takes a coyote
// token, and enough tokens eliminate.
//
// The decks (feathers-30, first-edition-36) and the variant tokens are
// replaceable data tables in data/*.csv (face, colour, value, count). The
// deck of a game is copied into its setup event, so a game replays with the
// table it was played with. Feathers are identified by their index in that
// table; the count is recorded step by step in a "count" event.
//
// RULES.md in this directory is the game's rules page: every rule id with
// the [HOUSE] decisions (CY-31 to CY-33 and the clarifications) in their
// places, the notation and the prompt's list of choices; RULES.fr.md is the
// same page in French, with the same rule ids and the French words of the
// notation.
//
// Every word the game says is in its catalog, words/<language>.toml: the
// boards' and options' words, the refusals ("refusal.…"), what happened
// ("said.…", with a "…_you" form for the reader's own moves) and the words
// of the notation ("notation.…"), which the engine reads in any language
// ("enchère 14", "Coyote !", "deviner nuit") before Parse.
package coyote
