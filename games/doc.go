// Package games is the rules contract every courrier game meets, the registry
// that names the games, and the type-erased adapter the command side uses.
//
// A game is a decider: pure functions over plain values. It never reads a
// clock, a database or a global; every random outcome is drawn from the
// generator passed to Setup or Decide and recorded in the events it returns,
// so folding the events with Evolve needs no generator at all.
//
// Each game package implements [Rules] with its own concrete state, move and
// event types; [Adapt] turns it into an [Engine], which speaks JSON events and
// text moves and is what the registry holds.
package games
