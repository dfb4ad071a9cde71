package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/courrier-games/courrier/notify"
)

// inboundLimits reads the inbound SMTP settings (COURRIER_SMTP_TRUSTED,
// COURRIER_SMTP_CONNECTION_LIMIT, COURRIER_SMTP_SENDER_LIMIT,
// COURRIER_SMTP_REPLY_LIMIT, COURRIER_SMTP_READ_TIMEOUT) and
// COURRIER_MAIL_HOURLY_LIMIT, in the form notify.Config takes them: 0 for
// a default, negative for no limit.
func (c config) inboundLimits() (limits notify.InboundLimits, hourly int, err error) {
	limits.Trusted, err = notify.ParseTrustedRelays(c.SMTPTrusted)
	if err != nil {
		return limits, 0, usageError{msg: fmt.Sprintf("smtp-trusted %q: %v", c.SMTPTrusted, err)}
	}
	if v := strings.TrimSpace(c.SMTPTimeout); v != "" {
		limits.ReadTimeout, err = time.ParseDuration(v)
		if err != nil || limits.ReadTimeout < time.Second {
			return limits, 0, usageError{msg: fmt.Sprintf("smtp-read-timeout %q: give a duration of at least a second, such as 2m or 30s", c.SMTPTimeout)}
		}
	}
	for _, l := range []struct {
		flag, value string
		dst         *int
	}{
		{"smtp-connection-limit", c.SMTPConns, &limits.ConnectionsPerMinute},
		{"smtp-sender-limit", c.SMTPSenders, &limits.MailsPerSender},
		{"smtp-reply-limit", c.SMTPReplies, &limits.MailsPerReplyAddress},
		{"mail-hourly-limit", c.MailHourly, &hourly},
	} {
		if *l.dst, err = countLimit(l.flag, l.value); err != nil {
			return limits, 0, err
		}
	}
	return limits, hourly, nil
}

// refusalsPerHour reads COURRIER_MAIL_REFUSAL_LIMIT as notify.Config
// takes it.
func (c config) refusalsPerHour() (int, error) {
	return countLimit("mail-refusal-limit", c.MailRefuse)
}

// countLimit reads a limit that counts: empty, the default (0); "off", no
// limit (-1); else a positive whole number.
func countLimit(flag, v string) (int, error) {
	v = strings.TrimSpace(v)
	switch {
	case v == "":
		return 0, nil
	case strings.EqualFold(v, "off"):
		return -1, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return 0, usageError{msg: fmt.Sprintf("%s %q: give a positive whole number, off for no limit, or nothing for the default", flag, v)}
	}
	return n, nil
}
