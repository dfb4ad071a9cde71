// Package faults is courrier's fault suite: its tests start real `courrier
// serve` processes on a PostgreSQL server of their own, drive bot players
// over HTTP (each move with an Idempotency-Key) and by mail, inject a
// fault (a kill -9 of a serve process, a second process killed, the
// database crashed and restarted, the primary of a pg_auto_failover
// formation lost, a pgBackRest backup restored to a point in time into a
// new cluster, the outbound relay refusing or hanging,
// serve killed just after a mail or a reply changed hands, floods of junk
// from 64 connections) and then check that nothing acknowledged was lost
// or doubled: every acknowledged move is in the log, a retry of any key
// returns its first receipt and writes nothing, every game re-derives from
// its log (`courrier audit -all`), the projections equal a rebuild into
// empty tables, no game waits on a pending entry nobody was prompted for,
// every mail was delivered (with one Message-ID however often it was sent)
// or failed for good and listed, and every reply taken with 250 was
// processed once.
//
// `go test ./faults/` runs a short version of each scenario; `go test
// ./faults/ -faults` the full one (RELIABILITY.md has its figures).
package faults
