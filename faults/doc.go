// Package faults is courrier's fault suite: its tests start real `courrier
// serve` processes on a PostgreSQL server of their own, drive bot players
// over HTTP (each move with an Idempotency-Key), inject a fault (a kill -9
// of a serve process, a second process killed, the database crashed and
// restarted) and then check that nothing acknowledged was lost or doubled:
// every acknowledged move is in the log, a retry of any key returns its
// first receipt and writes nothing, every game re-derives from its log
// (`courrier audit -all`), the projections equal a rebuild, and no game
// waits on a pending entry nobody was prompted for.
//
// `go test ./faults/` runs a short version of each scenario; `go test
// ./faults/ -faults` the full one (RELIABILITY.md has its figures).
package faults
