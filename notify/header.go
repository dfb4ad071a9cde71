package notify

import (
	"bufio"
	"bytes"
	"io"
	"mime"
	"net/textproto"
	"strings"

	"github.com/emersion/go-message/charset"
	"github.com/emersion/go-message/mail"
)

// readHeader reads a message's header block.
func readHeader(raw []byte) (textproto.MIMEHeader, error) {
	hdr, err := textproto.NewReader(bufio.NewReader(bytes.NewReader(raw))).ReadMIMEHeader()
	if hdr == nil {
		hdr = textproto.MIMEHeader{}
	}
	return hdr, err
}

// decodedSubject decodes RFC 2047 words of a header value.
func decodedSubject(v string) string {
	dec := mime.WordDecoder{CharsetReader: charset.Reader}
	if s, err := dec.DecodeHeader(v); err == nil {
		return s
	}
	return v
}

// TextOf returns the text/plain part of a message courrier rendered (the
// whole body when it has no such part), for the dev mailbox.
func TextOf(raw []byte) string {
	r, err := mail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		return string(raw)
	}
	defer func() { _ = r.Close() }()
	for {
		p, err := r.NextPart()
		if err != nil {
			return ""
		}
		if h, ok := p.Header.(*mail.InlineHeader); ok {
			if t, _, _ := h.ContentType(); strings.HasPrefix(t, "text/plain") {
				b, _ := io.ReadAll(p.Body)
				return string(b)
			}
		}
	}
}

// HeaderLines returns the named header fields of a message, decoded, one
// "Name: value" line each, for a person to read.
func HeaderLines(raw []byte, names ...string) string {
	hdr, _ := readHeader(raw)
	var b strings.Builder
	for _, n := range names {
		if v := hdr.Get(n); v != "" {
			b.WriteString(n + ": " + decodedSubject(v) + "\n")
		}
	}
	return b.String()
}
