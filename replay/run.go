package replay

import (
	"errors"

	"github.com/fixstep/fixstep/engine"
)

// Run is a run's recording or its replay, as a game's -record and -replay
// flags ask (package app runs them): Start makes it, Close ends it, Report
// says what it did. A nil *Run, for a run with neither, does nothing.
type Run struct {
	Recorder *Recorder // -record, or nil
	Player   *Player   // -replay, or nil
}

// Start records loop l's run to record, or plays the recording play back
// on it; at most one of them may be set, and with neither it returns nil.
// h is the game's parameters and seed (see Header). Call it before Run.
func Start(l *engine.Loop, record, play string, h Header) (*Run, error) {
	switch {
	case record != "" && play != "":
		return nil, errors.New("replay: -record and -replay together: a replay is not recorded again")
	case record != "":
		r, err := Record(record, l, h)
		if err != nil {
			return nil, err
		}
		return &Run{Recorder: r}, nil
	case play != "":
		p, err := Play(play, l, h)
		if err != nil {
			return nil, err
		}
		return &Run{Player: p}, nil
	}
	return nil, nil
}

// Close ends the recording or the replay with runErr, what the loop's Run
// returned (see Recorder.Close and Player.Close), and returns what the
// game should exit with: for a replay that ran to its end, nil, or why it
// failed.
func (r *Run) Close(runErr error) error {
	switch {
	case r == nil:
		return runErr
	case r.Recorder != nil:
		return errors.Join(runErr, r.Recorder.Close(runErr))
	default:
		return r.Player.Close(runErr)
	}
}

// Report says what was recorded or replayed, "" for neither.
func (r *Run) Report() string {
	switch {
	case r == nil:
		return ""
	case r.Recorder != nil:
		return r.Recorder.Report()
	default:
		return r.Player.Report()
	}
}

// Replaying reports whether the run plays a recording back.
func (r *Run) Replaying() bool { return r != nil && r.Player != nil }
