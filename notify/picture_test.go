package notify_test

import (
	"bytes"
	"errors"
	"image"
	"image/png"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"

	gomessage "github.com/emersion/go-message"

	"github.com/courrier-games/courrier/notify"
)

// mimeNode is a part of a parsed mail: its type, header and body, or its
// children when it is multipart.
type mimeNode struct {
	Type     string
	Params   map[string]string
	Header   gomessage.Header
	Body     []byte
	Children []mimeNode
}

// mimeTree parses raw with go-message into its tree of parts.
func mimeTree(t *testing.T, raw []byte) mimeNode {
	t.Helper()
	e, err := gomessage.Read(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("read the mail: %v", err)
	}
	return mimeEntity(t, e)
}

func mimeEntity(t *testing.T, e *gomessage.Entity) mimeNode {
	t.Helper()
	typ, params, _ := e.Header.ContentType()
	n := mimeNode{Type: typ, Params: params, Header: e.Header}
	if mr := e.MultipartReader(); mr != nil {
		for {
			p, err := mr.NextPart()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("read a part of %s: %v", typ, err)
			}
			n.Children = append(n.Children, mimeEntity(t, p))
		}
		return n
	}
	body, err := io.ReadAll(e.Body)
	if err != nil {
		t.Fatalf("read a %s part: %v", typ, err)
	}
	n.Body = body
	return n
}

var imgRe = regexp.MustCompile(`<img src="cid:([^"]+)" width="(\d+)" height="(\d+)" alt="([^"]+)"`)

// checkBoardPicture checks that raw is text/plain (holding want) then a
// multipart/related of the HTML and the PNG its <img> shows by cid:, with
// alt text, the PNG decoding at the size the HTML gives it times the mail's
// scale.
func checkBoardPicture(t *testing.T, raw []byte, want string) {
	t.Helper()
	top := mimeTree(t, raw)
	if top.Type != "multipart/alternative" || len(top.Children) != 2 {
		t.Fatalf("the mail is %s of %d parts, want multipart/alternative of 2", top.Type, len(top.Children))
	}
	text, rel := top.Children[0], top.Children[1]
	if text.Type != "text/plain" || !strings.Contains(string(text.Body), want) {
		t.Fatalf("the first part is %s, without %q:\n%s", text.Type, want, text.Body)
	}
	if rel.Type != "multipart/related" || rel.Params["type"] != "text/html" || len(rel.Children) != 2 {
		t.Fatalf("the second part is %s (type %q) of %d parts, want multipart/related of the HTML and the picture", rel.Type, rel.Params["type"], len(rel.Children))
	}
	html, pic := rel.Children[0], rel.Children[1]
	m := imgRe.FindStringSubmatch(string(html.Body))
	if html.Type != "text/html" || m == nil {
		t.Fatalf("the related part's first part is %s, without <img src=cid:… alt=…>:\n%s", html.Type, html.Body)
	}
	disp, _, _ := pic.Header.ContentDisposition()
	if pic.Type != "image/png" || pic.Header.Get("Content-Id") != "<"+m[1]+">" || disp != "inline" {
		t.Fatalf("the picture is %s, Content-ID %q, %s; the HTML shows cid:%s", pic.Type, pic.Header.Get("Content-Id"), disp, m[1])
	}
	img, err := png.Decode(bytes.NewReader(pic.Body))
	if err != nil {
		t.Fatalf("the picture is no PNG: %v", err)
	}
	w, _ := strconv.Atoi(m[2])
	h, _ := strconv.Atoi(m[3])
	if got := img.Bounds().Size(); got.X != (w*3+1)/2 || got.Y != (h*3+1)/2 {
		t.Errorf("the PNG is %v, shown at %dx%d", got, w, h)
	}
	if len(pic.Body) > 80_000 {
		t.Errorf("the PNG is %d bytes", len(pic.Body))
	}
}

// A mail with an inline picture renders text/plain first, then the HTML
// and the picture together (multipart/related), the picture named by the
// Content-ID the HTML's <img> shows; with attachments, all that comes
// before them in multipart/mixed.
func TestRenderInlinePicture(t *testing.T) {
	r := msgRenderer(t)
	var pic bytes.Buffer
	if err := png.Encode(&pic, imageOf(90, 60)); err != nil {
		t.Fatal(err)
	}
	for _, attach := range []bool{false, true} {
		m := msgSamples()[0]
		if m.Kind != notify.KindPrompt {
			t.Fatalf("the first sample is a %s", m.Kind)
		}
		m.Inline = []notify.InlineImage{{CID: "board." + m.MessageID, ContentType: "image/png", Width: 60, Height: 40, Data: pic.Bytes()}}
		if attach {
			m.Attachments = []notify.Attachment{{Name: "game.txt", ContentType: "text/plain; charset=utf-8", Data: []byte("record")}}
		}
		raw, err := r.Render(m)
		if err != nil {
			t.Fatal(err)
		}
		if attach {
			top := mimeTree(t, raw)
			if top.Type != "multipart/mixed" || len(top.Children) != 2 || top.Children[0].Type != "multipart/alternative" || top.Children[1].Type != "text/plain" {
				t.Fatalf("with an attachment: %s of %d parts", top.Type, len(top.Children))
			}
			continue
		}
		checkBoardPicture(t, raw, "Ana bid 3.")
	}
}

// A prompt sent through the relay (real SMTP on loopback) shows the
// seat's board drawn in its HTML part, and tells it in its text part.
func TestPromptShowsTheBoardDrawn(t *testing.T) {
	w := newWorld(t, 32)
	_, prompt := startByMail(t, w, players[:3])
	checkBoardPicture(t, prompt.Raw, "Whose turn")
}

// imageOf is a blank picture of w×h pixels.
func imageOf(w, h int) *image.RGBA { return image.NewRGBA(image.Rect(0, 0, w, h)) }
