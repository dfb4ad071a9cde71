// Package notify is courrier's mail door. Out: the prompts, reminders,
// receipts, invitations and results that play's jobs ask for, written from
// templates and delivered through an SMTP relay (or kept in the dev
// mailbox). In: an SMTP server that takes replies to the addresses courrier
// signed and commands sent to its own address, reads each mail (package
// notify/incoming), checks who sent it, and calls play or api/auth, as the
// API and the pages do, then answers by mail. Every mail is written in its
// recipient's language, from notify's catalog (package notify/words), and
// the mail commands are read in every language courrier speaks.
package notify
