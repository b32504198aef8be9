package aiqueue

// The jobs and answers as they travel, and their wire format.

import (
	"errors"
	"time"
)

// Job is one position for an AI worker to answer.
//
// The wire format is JSON that only ever gains optional fields, so bots
// and workers of neighbouring versions understand each other; what a job
// asks for is its Kind. A worker that meets a kind it does not know
// answers with an error saying so (Result.Err), and a worker older than
// the kinds refuses a review job as well, since it carries no level.
type Job struct {
	ID string `json:"id"`
	// Kind is what is asked: KindMove (the empty string, the only kind
	// before there were kinds) or KindReview.
	Kind       string    `json:"kind,omitempty"`
	GameID     string    `json:"game,omitempty"` // for logs
	Position   string    `json:"pos"`            // the project's position format
	Variant    string    `json:"variant,omitempty"`
	History    []uint64  `json:"hist,omitempty"` // hashes of earlier positions, oldest first
	QuietPlies int       `json:"quiet,omitempty"`
	Level      int       `json:"level"`             // a move's AI level, 1 and up; 0 for a review
	Limits     *Limits   `json:"limits,omitempty"`  // a review's search limits
	Deadline   time.Time `json:"deadline,omitzero"` // zero: none; a job past it is dropped

	entry   string    // stream entry id, set by Take
	lane    *lane     // the stream it was read from, set by Take
	replyTo string    // the submitting Queue's instance
	lease   time.Time // set by Take
}

// Job kinds.
const (
	// KindMove asks for an AI player's move at the job's Level.
	KindMove = ""
	// KindReview asks for one position of a game's analysis: a search
	// within the job's Limits, with no level and no randomness, answered
	// with the best move and its score (Result.Score).
	KindReview = "review"
)

// Limits bound a review search; zero fields do not limit. They are the
// engine's limits (ai.Limits), which this package does not import.
type Limits struct {
	Depth    int           `json:"depth,omitempty"`
	Nodes    uint64        `json:"nodes,omitempty"`
	MoveTime time.Duration `json:"movetime,omitempty"` // nanoseconds on the wire
}

// LeaseEnds is when the visibility timeout of a job returned by Take runs
// out and other workers may take it again. A worker should have completed
// (or released) the job by then, or the job will be worked on twice.
func (j Job) LeaseEnds() time.Time { return j.lease }

// Result is a worker's answer to a job.
type Result struct {
	Move  string `json:"move,omitempty"`  // in notation
	Score int    `json:"score,omitempty"` // a review's: for the side to move, hundredths of a man
	Depth int    `json:"depth,omitempty"`
	Nodes uint64 `json:"nodes,omitempty"`
	// Err says why the worker could not answer (an invalid position, no
	// legal moves); Move is empty then.
	Err string `json:"err,omitempty"`
}

// jobWire is a job as stored in its lane's stream.
type jobWire struct {
	Job
	ReplyTo string `json:"reply"`
}

// replyWire is an answer as stored in a reply stream.
type replyWire struct {
	Job string `json:"job"`
	Result
}

// ErrUnknownKind is a job kind this version does not know (Job.Kind):
// Submit refuses it, and a worker answers it with this error's text.
var ErrUnknownKind = errors.New("aiqueue: unknown job kind")
