package match

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/rules"
)

// The external protocol is the output of `bashni think`, which every
// release has: the match runs
//
//	EXE think -fen POSITION [-level N] [-depth N] [-nodes N] [-movetime D] [-hash MB] [-threads N] -seed S
//
// once per move and reads the move, in the notation of docs/rules.md, from the
// first line of its output; the lines after it are "key value" pairs, of
// which "nodes N" is counted. So any build, the previous release included,
// can be a player without knowing about matches. It sees only the position:
// the game's repetitions and 15-move counter are judged by the match but
// unknown to it, and it keeps no transposition table between moves. For a
// fair comparison of two versions, play both as external players.

// externalSlack is how much longer than its move time an external player
// may take (process start, table allocation) before the match gives up.
const externalSlack = 30 * time.Second

// thinkArgs are the arguments of one external move.
func (p Player) thinkArgs(pos rules.Position, seed int64) []string {
	args := []string{"think", "-fen", pos.String()}
	if v := pos.Variant(); v != rules.Bashni {
		// Older builds do not know -variant and say so, as with -threads.
		args = append(args, "-variant", v.String())
	}
	if p.Level > 0 {
		args = append(args, "-level", strconv.Itoa(p.Level))
	}
	if p.Limits.Depth > 0 {
		args = append(args, "-depth", strconv.Itoa(p.Limits.Depth))
	}
	if p.Limits.Nodes > 0 {
		args = append(args, "-nodes", strconv.FormatUint(p.Limits.Nodes, 10))
	}
	if p.Limits.MoveTime > 0 {
		args = append(args, "-movetime", p.Limits.MoveTime.String())
	}
	if p.Options.HashMB > 0 {
		args = append(args, "-hash", strconv.Itoa(p.Options.HashMB))
	}
	if p.Options.Threads > 1 {
		// Older builds do not know -threads and say so: the match stops
		// with their message rather than playing something else.
		args = append(args, "-threads", strconv.Itoa(p.Options.Threads))
	}
	return append(args, "-seed", strconv.FormatInt(seed, 10))
}

// thinkExternal asks the external binary for a move in pos.
func (p Player) thinkExternal(ctx context.Context, pos rules.Position, seed int64) (ai.Result, error) {
	limit := externalSlack
	if p.Limits.MoveTime > 0 {
		limit += p.Limits.MoveTime
	} else if p.Level > 0 {
		limit += ai.Levels[len(ai.Levels)-1].Limits.MoveTime
	}
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, p.Exe, p.thinkArgs(pos, seed)...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return ai.Result{}, fmt.Errorf("match: %s: %w: %s", p.Exe, err, strings.TrimSpace(stderr.String()))
	}
	res, err := parseThink(pos, stdout.Bytes())
	if err != nil {
		return ai.Result{}, fmt.Errorf("match: %s: %w", p.Exe, err)
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// parseThink reads think's output: the move on the first line, then
// "key value" lines (nodes, depth).
func parseThink(pos rules.Position, out []byte) (ai.Result, error) {
	var res ai.Result
	sc := bufio.NewScanner(bytes.NewReader(out))
	if !sc.Scan() {
		return res, fmt.Errorf("no move in the output")
	}
	m, err := rules.ParseMove(&pos, strings.TrimSpace(sc.Text()))
	if err != nil {
		return res, fmt.Errorf("its move: %w", err)
	}
	res.Move = m
	for sc.Scan() {
		key, val, _ := strings.Cut(sc.Text(), " ")
		switch key {
		case "nodes":
			res.Nodes, _ = strconv.ParseUint(val, 10, 64)
		case "depth":
			res.Depth, _ = strconv.Atoi(val)
		}
	}
	return res, nil
}
