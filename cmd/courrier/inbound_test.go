package main

import (
	"errors"
	"testing"
	"time"
)

// The inbound SMTP settings are read from the environment, flags over
// them; empty is the default, off no limit, and what is not a limit is a
// usage error.
func TestInboundLimitSettings(t *testing.T) {
	cases := []struct {
		name                          string
		env                           map[string]string
		args                          []string
		trusted                       string
		conns, senders, replies, hour int
		refused                       bool
	}{
		{"defaults", nil, nil, "local", 0, 0, 0, 0, false},
		{"trust none, no limits", map[string]string{"COURRIER_SMTP_TRUSTED": "none", "COURRIER_SMTP_CONNECTION_LIMIT": "off",
			"COURRIER_SMTP_SENDER_LIMIT": "OFF", "COURRIER_SMTP_REPLY_LIMIT": " off ", "COURRIER_MAIL_HOURLY_LIMIT": "off"}, nil, "none", -1, -1, -1, -1, false},
		{"an MX elsewhere and this machine", map[string]string{"COURRIER_SMTP_TRUSTED": "192.0.2.25, local, 2001:db8::/32"}, nil,
			"local, 192.0.2.25, 2001:db8::/32", 0, 0, 0, 0, false},
		{"numbers, a flag over the environment", map[string]string{"COURRIER_SMTP_SENDER_LIMIT": "5"},
			[]string{"-smtp-sender-limit", "7", "-smtp-connection-limit", "12", "-smtp-reply-limit", "3", "-mail-hourly-limit", "100"}, "local", 12, 7, 3, 100, false},
		{"not an address", map[string]string{"COURRIER_SMTP_TRUSTED": "mx.example.org"}, nil, "", 0, 0, 0, 0, true},
		{"not a network", map[string]string{"COURRIER_SMTP_TRUSTED": "10.0.0.0/33"}, nil, "", 0, 0, 0, 0, true},
		{"zero is not a limit", map[string]string{"COURRIER_SMTP_CONNECTION_LIMIT": "0"}, nil, "", 0, 0, 0, 0, true},
		{"negative is not a limit", map[string]string{"COURRIER_SMTP_REPLY_LIMIT": "-3"}, nil, "", 0, 0, 0, 0, true},
		{"words are not a limit", map[string]string{"COURRIER_MAIL_HOURLY_LIMIT": "many"}, nil, "", 0, 0, 0, 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := loadConfig("serve", c.args, func(k string) string { return c.env[k] })
			if err != nil {
				t.Fatal(err)
			}
			l, hour, err := cfg.inboundLimits()
			if _, ok := errors.AsType[usageError](err); ok != c.refused {
				t.Fatalf("err = %v, want a usage error: %v", err, c.refused)
			}
			if c.refused {
				return
			}
			if got := l.Trusted.String(); got != c.trusted || l.ConnectionsPerMinute != c.conns || l.MailsPerSender != c.senders ||
				l.MailsPerReplyAddress != c.replies || hour != c.hour {
				t.Fatalf("trusted %q, %d connections, %d per sender, %d per reply address, %d an hour", got,
					l.ConnectionsPerMinute, l.MailsPerSender, l.MailsPerReplyAddress, hour)
			}
		})
	}
}

// The read timeout and the refusal limit: a duration of a second at least,
// and a count, off or the default.
func TestReadTimeoutAndRefusalLimitSettings(t *testing.T) {
	for _, tc := range []struct {
		name     string
		env      map[string]string
		timeout  time.Duration
		refusals int
		refused  bool
	}{
		{"defaults", nil, 2 * time.Minute, 0, false},
		{"set", map[string]string{"COURRIER_SMTP_READ_TIMEOUT": "30s", "COURRIER_MAIL_REFUSAL_LIMIT": "4"}, 30 * time.Second, 4, false},
		{"no refusal limit", map[string]string{"COURRIER_MAIL_REFUSAL_LIMIT": "off"}, 2 * time.Minute, -1, false},
		{"too short a timeout", map[string]string{"COURRIER_SMTP_READ_TIMEOUT": "10ms"}, 0, 0, true},
		{"not a duration", map[string]string{"COURRIER_SMTP_READ_TIMEOUT": "soon"}, 0, 0, true},
		{"not a count", map[string]string{"COURRIER_MAIL_REFUSAL_LIMIT": "few"}, 0, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := loadConfig("serve", nil, func(k string) string { return tc.env[k] })
			if err != nil {
				t.Fatal(err)
			}
			l, _, err := cfg.inboundLimits()
			n, rerr := cfg.refusalsPerHour()
			if got := err != nil || rerr != nil; got != tc.refused {
				t.Fatalf("errors %v, %v; want an error: %v", err, rerr, tc.refused)
			}
			if !tc.refused && (l.ReadTimeout != tc.timeout || n != tc.refusals) {
				t.Fatalf("read timeout %v, refusal limit %d", l.ReadTimeout, n)
			}
		})
	}
}
