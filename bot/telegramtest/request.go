package telegramtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
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
	// The parts' bytes go to one buffer, the size of the body when it is
	// known, rather than to one growing buffer per part.
	var buf []byte
	if n := r.ContentLength; n > 0 && n <= maxUpload+1<<20 {
		buf = make([]byte, 0, n)
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		start := len(buf)
		if buf, err = readAppend(buf, part); err != nil {
			return err
		}
		data := buf[start:len(buf):len(buf)]
		name := part.FormName()
		_, dp, _ := mime.ParseMediaType(part.Header.Get("Content-Disposition"))
		if filename, isFile := dp["filename"]; isFile {
			files[name] = File{Name: filename, Data: data}
			continue
		}
		params[name] = string(data)
	}
}

// readAppend appends what r holds to buf, as io.ReadAll does to an empty
// slice. Slices of buf taken before stay valid when it grows.
func readAppend(buf []byte, r io.Reader) ([]byte, error) {
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}
