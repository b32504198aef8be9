package telegramtest

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http/httptest"
	"strings"
	"testing"
)

// Multipart bodies are read part by part through reused buffers: with or
// without a Content-Length, every value and file comes out whole and
// apart, and stays so when the next body is read.
func TestReadMultipart(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789"), 10_000)
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	_ = mw.WriteField("chat_id", "42")
	fw, _ := mw.CreateFormFile("photo", "a.png")
	_, _ = fw.Write(big)
	_ = mw.WriteField("caption", "board")
	fw, _ = mw.CreateFormFile("document", "")
	_, _ = fw.Write([]byte("small"))
	_ = mw.WriteField("empty", "")
	_ = mw.Close()

	type kept struct{ got, want []byte }
	var earlier []kept
	for _, known := range []bool{true, false, true} {
		r := httptest.NewRequest("POST", "/bot123456:TEST/sendPhoto", bytes.NewReader(body.Bytes()))
		r.Header.Set("Content-Type", mw.FormDataContentType())
		if known {
			r.ContentLength = int64(body.Len())
		} else {
			r.ContentLength = -1
			r.Body = io.NopCloser(struct{ io.Reader }{bytes.NewReader(body.Bytes())})
		}
		params, files, f := parseRequest(r)
		if f != nil {
			t.Fatalf("known length %v: %v", known, f.Description)
		}
		if params["chat_id"] != "42" || params["caption"] != "board" || params["empty"] != "" || len(params) != 3 {
			t.Errorf("known length %v: params %v", known, params)
		}
		photo, doc := files["photo"], files["document"]
		if photo.Name != "a.png" || !bytes.Equal(photo.Data, big) || doc.Name != "" || string(doc.Data) != "small" {
			t.Errorf("known length %v: files %q (%d bytes) and %q %q", known, photo.Name, len(photo.Data), doc.Name, doc.Data)
		}
		// Appending to one file's bytes does not reach another's.
		_ = append(photo.Data, strings.Repeat("x", 10)...)
		if string(files["document"].Data) != "small" {
			t.Errorf("known length %v: the files share bytes", known)
		}
		for _, k := range earlier {
			if !bytes.Equal(k.got, k.want) {
				t.Errorf("known length %v: a file read before changed", known)
			}
		}
		earlier = append(earlier, kept{photo.Data, big}, kept{doc.Data, []byte("small")})
	}
}
