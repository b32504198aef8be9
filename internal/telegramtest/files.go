package telegramtest

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	_ "image/gif" // decoders for uploaded photos
	_ "image/jpeg"
	"image/png"
	"mime"
	"net/http"
	"path"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// storedFile is a file the fake holds, uploaded or sent by URL.
type storedFile struct {
	id, uniqueID string
	kind         string // "photo", "document", "animation", ...
	name, mime   string
	url          string
	path         string // file_path for getFile and downloads
	data         []byte
	width        int
	height       int
	sizes        []string // a photo's file ids, smallest first, itself last
}

const maxUpload = 50 << 20 // Telegram's limit for bots

// addFile stores a new file, of the size given when it is an image, and
// returns it. Callers hold s.mu.
func (s *Server) addFile(kind, name string, data []byte, url string, size image.Config) *storedFile {
	n := s.nextSeq()
	f := &storedFile{
		id: fmt.Sprintf("%s-%d", kind, n), kind: kind, name: name, url: url, data: data,
		mime: mime.TypeByExtension(path.Ext(name)),
	}
	f.uniqueID = "u" + f.id
	if f.mime == "" {
		f.mime = "application/octet-stream"
	}
	ext := path.Ext(name)
	if kind == "photo" {
		ext = ".jpg" // Telegram recompresses photos to JPEG
	}
	f.path = fmt.Sprintf("%ss/file_%d%s", kind, n, ext)
	f.width, f.height = size.Width, size.Height
	s.files[f.id] = f
	f.sizes = []string{f.id}
	if kind == "photo" {
		if f.width > 1280 || f.height > 1280 {
			f.width, f.height = scaleTo(f.width, f.height, 1280)
		}
		if f.width > 90 || f.height > 90 {
			thumb := &storedFile{id: f.id + "-s", kind: kind, mime: "image/jpeg", path: fmt.Sprintf("photos/file_%d_s.jpg", n)}
			thumb.uniqueID = "u" + thumb.id
			thumb.width, thumb.height = scaleTo(f.width, f.height, 90)
			thumb.sizes = []string{thumb.id}
			s.files[thumb.id] = thumb
			f.sizes = []string{thumb.id, f.id}
		}
	}
	return f
}

func scaleTo(w, h, side int) (int, int) {
	if w >= h {
		return side, max(1, h*side/w)
	}
	return max(1, w*side/h), side
}

// upload checks an uploaded file the way Telegram does and stores it.
// Callers hold s.mu.
func (s *Server) upload(kind string, up File) (*storedFile, *Failure) {
	if len(up.Data) == 0 {
		return nil, badRequest("file must be non-empty")
	}
	if len(up.Data) > maxUpload {
		return nil, &Failure{Code: http.StatusRequestEntityTooLarge, Description: "Request Entity Too Large"}
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(up.Data))
	if kind == "photo" {
		if err != nil {
			return nil, badRequest("IMAGE_PROCESS_FAILED")
		}
		w, h := cfg.Width, cfg.Height
		if w+h > 10000 || w > 20*h || h > 20*w {
			return nil, badRequest("PHOTO_INVALID_DIMENSIONS")
		}
	}
	if err != nil {
		cfg = image.Config{} // not an image: no size
	}
	return s.addFile(kind, up.Name, up.Data, "", cfg), nil
}

// inputFile resolves a file parameter: an upload in the field, an
// attach://name reference to one, a URL or a file_id. Callers hold s.mu.
func (s *Server) inputFile(c *Call, field, kind string) (*storedFile, *Failure) {
	if up, ok := c.Files[field]; ok {
		return s.upload(kind, up)
	}
	return s.inputFileRef(c, c.Params[field], kind)
}

// inputFileRef resolves a file reference given as a string. Callers hold
// s.mu.
func (s *Server) inputFileRef(c *Call, ref, kind string) (*storedFile, *Failure) {
	switch {
	case ref == "":
		return nil, badRequest("there is no %s in the request", kind)
	case strings.HasPrefix(ref, "attach://"):
		up, ok := c.Files[strings.TrimPrefix(ref, "attach://")]
		if !ok {
			return nil, badRequest("can't find attached file %q", ref)
		}
		return s.upload(kind, up)
	case strings.HasPrefix(ref, "http://") || strings.HasPrefix(ref, "https://"):
		return s.addFile(kind, path.Base(ref), nil, ref, image.Config{}), nil
	}
	f, ok := s.files[ref]
	if !ok {
		return nil, badRequest("wrong file identifier/HTTP URL specified")
	}
	if f.kind != kind {
		return nil, badRequest("type of file mismatch")
	}
	return f, nil
}

// photoSizes renders a photo as the Bot API's size array. Callers hold s.mu.
func (s *Server) photoSizes(fileID string) []tgbotapi.PhotoSize {
	f, ok := s.files[fileID]
	if !ok {
		return nil
	}
	var out []tgbotapi.PhotoSize
	for _, id := range f.sizes {
		sz := s.files[id]
		out = append(out, tgbotapi.PhotoSize{
			FileID: sz.id, FileUniqueID: sz.uniqueID, Width: sz.width, Height: sz.height, FileSize: len(sz.data),
		})
	}
	return out
}

// document renders a file as the Bot API's Document. Callers hold s.mu.
func (s *Server) document(fileID string) *tgbotapi.Document {
	f, ok := s.files[fileID]
	if !ok {
		return nil
	}
	return &tgbotapi.Document{FileID: f.id, FileUniqueID: f.uniqueID, FileName: f.name, MimeType: f.mime, FileSize: len(f.data)}
}

// animation renders a file as the Bot API's Animation. Callers hold s.mu.
func (s *Server) animation(fileID string) *tgbotapi.Animation {
	f, ok := s.files[fileID]
	if !ok {
		return nil
	}
	return &tgbotapi.Animation{
		FileID: f.id, FileUniqueID: f.uniqueID, Width: f.width, Height: f.height,
		FileName: f.name, MimeType: f.mime, FileSize: len(f.data),
	}
}

func (s *Server) getFile(c *Call) (any, *Failure) {
	f, ok := s.files[c.Params["file_id"]]
	if !ok {
		return nil, badRequest("invalid file_id")
	}
	return tgbotapi.File{FileID: f.id, FileUniqueID: f.uniqueID, FileSize: len(f.data), FilePath: f.path}, nil
}

// serveFile answers downloads at /file/bot<token>/<file_path>, where
// Telegram serves the files getFile describes.
func (s *Server) serveFile(w http.ResponseWriter, r *http.Request, rest string) {
	token, filePath, _ := strings.Cut(rest, "/")
	if token != s.opts.token {
		writeFailure(w, &Failure{Code: http.StatusUnauthorized, Description: "Unauthorized"})
		return
	}
	s.mu.Lock()
	var data []byte
	found := false
	for _, f := range s.files {
		if f.path == filePath && f.data != nil {
			data, found = f.data, true
			break
		}
	}
	s.mu.Unlock()
	if !found {
		writeFailure(w, &Failure{Code: http.StatusNotFound, Description: "Not Found"})
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	_, _ = w.Write(data)
}

// PNG returns a valid w×h PNG image, for tests that send photos: the fake,
// like Telegram, refuses photo bytes that are not an image.
func PNG(w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{R: uint8(x), G: uint8(y), B: 128, A: 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic("telegramtest: encoding PNG: " + err.Error())
	}
	return b.Bytes()
}
