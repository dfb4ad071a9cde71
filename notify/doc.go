// Package notify is courrier's email: prompts, reminders and receipts out
// through an SMTP relay (or the dev mailbox), and moves in by reply through
// an SMTP server. Today it holds the outbound relay client; the rest arrives
// with the email issue (DESIGN.md, "Email").
package notify
