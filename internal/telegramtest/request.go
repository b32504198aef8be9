package telegramtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"sync"
)

// parseRequest reads a Bot API request in any of the encodings Telegram
// accepts: query string, application/x-www-form-urlencoded,
// multipart/form-data and application/json. Body values win over the query
// string. JSON string values are kept as the string, other JSON values as
// their raw text, which is how tgbotapi form-encodes objects anyway.
func parseRequest(r *http.Request) (map[string]string, map[string]File, *Failure) {
	params := make(map[string]string)
	files := make(map[string]File)
	for k, v := range r.URL.Query() {
		params[k] = v[0]
	}
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return params, files, nil
	}
	mt, mp, err := mime.ParseMediaType(ct)
	if err != nil {
		return params, files, badRequest("can't parse Content-Type %q", ct)
	}
	switch mt {
	case "application/x-www-form-urlencoded":
		if err := r.ParseForm(); err != nil {
			return params, files, badRequest("can't parse form: %v", err)
		}
		for k, v := range r.PostForm {
			params[k] = v[0]
		}
	case "multipart/form-data":
		if err := readMultipart(r, mp["boundary"], params, files); err != nil {
			return params, files, badRequest("can't parse multipart body: %v", err)
		}
	case "application/json":
		var body map[string]json.RawMessage
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil && !errors.Is(err, io.EOF) {
			return params, files, badRequest("can't parse JSON body: %v", err)
		}
		for k, raw := range body {
			var s string
			switch {
			case bytes.Equal(raw, []byte("null")):
			case json.Unmarshal(raw, &s) == nil:
				params[k] = s
			default:
				params[k] = string(raw)
			}
		}
	}
	return params, files, nil
}

// readMultipart reads every part itself rather than through ParseMultipartForm,
// which treats a part with an empty filename as a plain value; tgbotapi sends
// FileBytes{Name: ""} that way and Telegram still takes it as a file.
func readMultipart(r *http.Request, boundary string, params map[string]string, files map[string]File) error {
	if boundary == "" {
		return errors.New("no boundary")
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return err
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		data, err := readPart(part)
		if err != nil {
			return err
		}
		name := part.FormName()
		_, dp, _ := mime.ParseMediaType(part.Header.Get("Content-Disposition"))
		if filename, isFile := dp["filename"]; isFile {
			files[name] = File{Name: filename, Data: data}
			continue
		}
		params[name] = string(data)
	}
}

// partBuffers hold parts while they are read. tgbotapi streams its uploads,
// without a Content-Length, so their size is known only at their end:
// reading into a buffer grown for earlier requests and copying the part
// out once costs less than growing a new buffer for every part.
var partBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// readPart returns what r holds, in a slice of its own.
func readPart(r io.Reader) ([]byte, error) {
	buf := partBuffers.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= 8<<20 { // a rare big upload's buffer is let go
			buf.Reset()
			partBuffers.Put(buf)
		}
	}()
	buf.Reset()
	if _, err := buf.ReadFrom(r); err != nil {
		return nil, err
	}
	return append(make([]byte, 0, buf.Len()), buf.Bytes()...), nil
}
