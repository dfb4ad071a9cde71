package notify_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/courrier-games/courrier/play"
)

// words joins a text's words with single spaces: mail wraps its lines.
func words(s string) string { return strings.Join(strings.Fields(s), " ") }

// A mail acts in its From's name only when its envelope sender is that
// address and the trusted relay's DMARC check did not fail; what was
// checked is kept beside the events it wrote. Bounces stay ignored.
func TestMailIdentity(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t, 12) // the trusted authserv-id is the mail domain, courrier.test
	addrs := players[:3]
	who, prompt := startByMail(t, w, addrs)
	game := gameIDOf(prompt.Subject)
	other := addrs[0]
	if other == who {
		other = addrs[1]
	}
	events := w.countEvents(game)

	t.Run("refused or ignored, nothing written", func(t *testing.T) {
		for _, tc := range []struct {
			name     string
			envelope string // MAIL FROM; "" is the null sender <>
			rcpt     string // "": the prompt's reply address
			header   string // header lines above the reply's own
			body     string // "": a legal move
			outcome  string // the start of the mail's outcome
			answer   string // in the refusal mailed to the From; "": none is sent
		}{
			{
				name: "the envelope is a stranger's", envelope: "mallory@elsewhere.test",
				outcome: "refused: not played: your mail was sent from the address mallory@elsewhere.test but says it is from " + who,
				answer:  "courrier acts only on mail whose sender (the address your mail server sends it from, where bounces go) is the address in its From line",
			},
			{
				name: "the envelope is another player's", envelope: other,
				outcome: "refused: not played: your mail was sent from the address " + other,
				answer:  "If you write from an alias or through another account, send from the account of " + who + " itself.",
			},
			{
				name: "a lobby command too", envelope: "mallory@elsewhere.test", rcpt: "play@" + domain, body: "resign " + game,
				outcome: "refused: not played: your mail was sent from the address mallory@elsewhere.test",
				answer:  "says it is from " + who,
			},
			{
				name: "a bounce is ignored, unanswered", envelope: "",
				outcome: "ignored: null sender",
			},
			{
				name: "dmarc=fail from the trusted relay", envelope: who,
				header: "Authentication-Results: courrier.test; spf=pass smtp.mailfrom=players.test;\n" +
					"\tdkim=none; dmarc=fail (p=reject; dis=none) header.from=players.test\n",
				outcome: "refused: not played: your mail failed the DMARC check of players.test at courrier's mail server",
				answer:  "the domain of your address does not vouch for it, so courrier cannot be sure it is from you",
			},
			{
				name: "the topmost header of the trusted relay counts", envelope: who,
				header: "Authentication-Results: COURRIER.TEST 1; dmarc=fail header.from=players.test\n" +
					"Authentication-Results: courrier.test; dmarc=pass header.from=players.test\n",
				outcome: "refused: not played: your mail failed the DMARC check",
				answer:  "failed the DMARC check of players.test",
			},
			{
				name: "the trusted relay checked another From", envelope: who,
				header:  "Authentication-Results: courrier.test; dmarc=pass header.from=elsewhere.test\n",
				outcome: "refused: not played: courrier's mail server checked your mail as coming from elsewhere.test, yet its From line says " + who,
				answer:  "Send it again with your own address alone in the From line.",
			},
		} {
			t.Run(tc.name, func(t *testing.T) {
				// An hour passes: refusals are answered once an hour per
				// sender, and each case's answer is read.
				if _, err := w.pool.Exec(ctx, `update inbound_mail set processed_at = processed_at - interval '2 hours'`); err != nil {
					t.Fatal(err)
				}
				had, refusals := len(w.mailTo(who)), len(ofKind(w.mailTo(who), "refusal"))
				rcpt, body := tc.rcpt, tc.body
				if rcpt == "" {
					rcpt = prompt.ReplyTo
				}
				if body == "" {
					body = choose(t, nil, numbered(prompt.Text))
				}
				raw := reply(who, prompt, body, "gmail")
				raw = strings.Replace(raw, "To: "+prompt.ReplyTo, "To: "+rcpt, 1)
				w.mustSend(tc.envelope, rcpt, tc.header+raw)
				if out := w.inboundDone(); !strings.HasPrefix(out, tc.outcome) {
					t.Fatalf("outcome %q, want it to start %q", out, tc.outcome)
				}
				if tc.answer == "" {
					w.quiet(who, had)
				} else {
					ref := w.waitKind(who, "refusal", refusals+1)
					text := words(ref.Text)
					if !strings.Contains(text, words(tc.answer)) {
						t.Errorf("the refusal does not say %q:\n%s", tc.answer, ref.Text)
					}
					// Nothing of the game to a sender not known to be its player.
					if strings.Contains(text, game) || strings.Contains(ref.Subject, game) || ref.ReplyTo != "play@"+domain {
						t.Errorf("the refusal tells of the game (reply to %s):\n%s\n%s", ref.ReplyTo, ref.Subject, ref.Text)
					}
				}
				if n := w.countEvents(game); n != events {
					t.Fatalf("%d events written", n-events)
				}
			})
		}
	})

	t.Run("played, and what was checked is kept", func(t *testing.T) {
		answered := map[string]bool{}
		for _, tc := range []struct {
			name     string
			envelope func(who string) string
			header   string
			auth     string // the start of the event's event_context.mail_auth
		}{
			{
				name:     "an untrusted authserv-id's dmarc=fail is not trusted",
				envelope: func(who string) string { return who },
				header:   "Authentication-Results: mx.elsewhere.test; dmarc=fail header.from=players.test\n",
				auth:     "envelope=match; dmarc=unchecked (no Authentication-Results by courrier.test); dkim=none\nmx.elsewhere.test; dmarc=fail",
			},
			{
				name:     "dmarc=pass from the trusted relay is recorded",
				envelope: func(who string) string { return who },
				header: "Authentication-Results: courrier.test (Postfix; mx1) 1;\n\tspf=pass smtp.mailfrom=players.test;\n" +
					"\tdkim=pass header.d=players.test; dmarc=pass (p=reject; dis=none) header.from=players.test\n",
				auth: "envelope=match; dmarc=pass header.from=players.test (by courrier.test); dkim=none\ncourrier.test",
			},
			{
				name:     "the trusted relay gave no DMARC result",
				envelope: func(who string) string { return who },
				header:   "Authentication-Results: courrier.test; spf=pass smtp.mailfrom=players.test\n",
				auth:     "envelope=match; dmarc=unchecked (courrier.test gave no dmarc result); dkim=none",
			},
			{
				name:     "the envelope in capitals, with a subaddress",
				envelope: func(who string) string { return strings.Replace(strings.ToUpper(who), "@", "+games@", 1) },
				auth:     "envelope=match (subaddress); dmarc=unchecked (no Authentication-Results by courrier.test); dkim=none",
			},
			{
				name: "the envelope rewritten by a forwarder (SRS)",
				envelope: func(who string) string {
					local, dom, _ := strings.Cut(who, "@")
					return "SRS0=HHH=TT=" + dom + "=" + local + "@forwarder.test"
				},
				auth: "envelope=match (SRS via forwarder.test); dmarc=unchecked",
			},
		} {
			t.Run(tc.name, func(t *testing.T) {
				who, prompt := w.nextPrompt(addrs, answered)
				answered[prompt.MessageID] = true
				game := gameIDOf(prompt.Subject)
				sm := versionRe.FindStringSubmatch(prompt.Subject)
				if sm == nil {
					t.Fatalf("prompt subject %q has no version", prompt.Subject)
				}
				version, _ := strconv.Atoi(sm[1])
				w.mustSend(tc.envelope(who), prompt.ReplyTo, tc.header+reply(who, prompt, choose(t, nil, numbered(prompt.Text)), "gmail"))
				if out := w.inboundDone(); !strings.Contains(out, "played 1 line(s)") {
					t.Fatalf("outcome %q\n%s", out, w.trace())
				}
				var auth string
				if err := w.pool.QueryRow(ctx, `select coalesce(c.mail_auth, '') from event_context c join events e using (position)
					where e.stream = $1 and e.version = $2`, play.Stream(game), version+1).Scan(&auth); err != nil {
					t.Fatalf("the move's context: %v", err)
				}
				if !strings.HasPrefix(auth, tc.auth) {
					t.Errorf("mail_auth %q, want it to start %q", auth, tc.auth)
				}
				// The check is kept beside the event, never in its hashed meta.
				var inMeta bool
				if err := w.pool.QueryRow(ctx, `select meta::text like '%envelope=%' or meta::text like '%dmarc%' from events where stream = $1 and version = $2`,
					play.Stream(game), version+1).Scan(&inMeta); err != nil || inMeta {
					t.Errorf("the event's meta holds the mail check (%v)", err)
				}
			})
		}
	})
}
