package netplay

import (
	"fmt"
	"time"
)

// A role that predicts pays for every wrong prediction: the ticks since
// it run again, within the frame. When a tick costs more than a frame can
// hold that many times (a big world, a slow or a loaded machine), each
// frame overruns, the loop runs more ticks to make up for the time, the
// role runs further past what is final and rolls back further still: a
// death spiral, which no number of cores ends, only moves. workload is
// the account that keeps a role out of it. The rollback core times every
// tick it runs on the role's clock (the game's Save and Update; a
// rerun's Load too, spread over its ticks), and from that cost and the
// frame's budget the role
//
//   - predicts no further past the last final tick than the budget can
//     run again in one frame (limit): it waits for final inputs instead,
//     so no rollback costs more than a frame;
//   - runs one rollback a frame, and a second only if the frame has room
//     for it (canRerun): a frame that the loop gives several ticks, to
//     make up for a slow one, does not run the same ticks again for each;
//   - runs the ticks it catches up with (a joiner's, a client's jump to
//     where it should be, a spectator's) only while the frame has room
//     for them, at least one a loop tick (room); a client runs no tick
//     past its frame's budget but the frame's first (canRun), however
//     many loop ticks a late frame brings, and runs those it put off
//     when a frame has room: a frame that a stall of the machine made
//     long does not make the next longer;
//   - delays its input by as many ticks as it would otherwise run past
//     that limit (steer), so that it runs less far ahead of what is final
//     and need not wait: a client its own (held at the limit, its input
//     would reach the server late: it then runs closer behind the
//     server); a peer its input for the others, taking their cost for its
//     own, as the same game costs them the same (a peer's rollbacks come
//     from the others' inputs).
//
// Time decides only pacing: when a tick runs, whether a rollback waits a
// frame, how early a local input is read. What a tick computes is a
// function of its inputs alone, so the roles' hashes stay equal however
// the machines' clocks run.
type workload struct {
	budget   time.Duration // the real time a frame may spend running ticks
	cost     time.Duration // one tick's, smoothed; 0 until measured
	frameAt  time.Duration // when the frame began (Begin)
	inFrame  bool          // between the role's Begin and Draw
	reran    bool          // the frame ran a rollback
	ran      int           // ticks the frame ran for the first time (a client's: see canRun)
	peak     float64       // the ticks run past the last final one, at their recent peak
	delay    int           // ticks of input delay added for the cost
	changed  time.Duration // when it last moved
	raised   bool          // it moved
	lowSince time.Duration // since when the delay needed is below it
	depths   [maxDepth + 1]uint64
}

const (
	// maxDepth is the deepest rollback a role runs: the largest
	// prediction any role's settings allow.
	maxDepth = 96
	// raiseEvery is the least time between two raises of the input
	// delay: time for the last one to show in how far ahead the role
	// runs. lowerEvery is how long the delay needed stays below the
	// delay before it falls by a tick: rarely, so it does not see-saw.
	raiseEvery = 500 * time.Millisecond
	lowerEvery = 2 * time.Second
)

// frameBudget returns the budget of a frame: budget when set, else three
// quarters of a tick at tps (12.5 ms at 60 TPS), which leaves a quarter
// of the frame to drawing and the rest of the machine.
func frameBudget(budget time.Duration, tps int) time.Duration {
	if budget > 0 {
		return budget
	}
	return time.Second * 3 / 4 / time.Duration(tps)
}

// begin starts a frame at now: the role's Begin.
func (w *workload) begin(now time.Duration) {
	w.frameAt, w.inFrame, w.reran, w.ran = now, true, false, 0
}

// update starts a loop tick at now: one outside a frame (a caller with no
// Begin) is a frame of its own.
func (w *workload) update(now time.Duration) {
	if !w.inFrame {
		w.frameAt, w.reran, w.ran = now, false, 0
	}
}

// end ends the frame: the role's Draw.
func (w *workload) end() { w.inFrame = false }

// took counts d of real time spent running n ticks.
func (w *workload) took(d time.Duration, n int) {
	if n <= 0 || d < 0 {
		return
	}
	c := d / time.Duration(n)
	if w.cost == 0 {
		w.cost = c
		return
	}
	w.cost += (c - w.cost) / 8
}

// limit returns how many ticks past the last final one the role may run,
// at most maxPred: as many as one frame's budget can run again, the next
// tick included; maxPred before a tick was timed.
func (w *workload) limit(maxPred int) int {
	if w.cost <= 0 {
		return maxPred
	}
	return max(0, min(maxPred, int(w.budget/w.cost)-1))
}

// room returns how many more ticks the frame's budget holds at now.
func (w *workload) room(now time.Duration) int {
	left := w.budget - (now - w.frameAt)
	switch {
	case left <= 0:
		return 0
	case w.cost <= 0:
		return maxDepth
	}
	return int(min(left/w.cost, maxDepth))
}

// canRerun reports whether a rollback of depth ticks may run now: the
// frame's first, or one the frame has room for.
func (w *workload) canRerun(now time.Duration, depth int) bool {
	return !w.reran || w.room(now) >= depth
}

// canRun reports whether the frame may run a tick for the first time at
// now: its first, so that a frame moves on, unless a rollback ran in it
// (it moved the frame on, and the next frame runs none unless a final
// input showed a prediction wrong), or one its budget has room for.
func (w *workload) canRun(now time.Duration) bool {
	return (w.ran == 0 && !w.reran) || w.room(now) >= 1
}

// rolled counts a rollback of depth ticks.
func (w *workload) rolled(depth int) {
	w.reran = true
	w.depths[min(max(depth, 0), maxDepth)]++
}

// p99 returns the depth 99 % of the rollbacks were no deeper than.
func (w *workload) p99() int {
	var n uint64
	for _, c := range w.depths {
		n += c
	}
	if n == 0 {
		return 0
	}
	want := n - n/100 // the rank of the 99th percentile, from the shallowest
	var seen uint64
	for d, c := range w.depths {
		if seen += c; seen >= want {
			return d
		}
	}
	return maxDepth
}

// ahead takes how many ticks past the last final one the role runs now,
// and returns their recent peak: the most, decaying by a tick in 32
// samples.
func (w *workload) ahead(n int) float64 {
	if a := float64(n); a > w.peak {
		w.peak = a
	} else {
		w.peak += (a - w.peak) / 32 //fixvet:ignore pacing only: a tick's inputs and the world never depend on it
	}
	return w.peak
}

// steer moves the input delay the cost adds toward need ticks, between
// 0 and maxDelay: up by at most two ticks a raiseEvery (for a raise to
// show in how late the role's input is before the next), down a tick at
// a time, once need has stayed below the delay for lowerEvery, so that a
// cost near a limit's edge does not make it see-saw. It reports whether
// it moved.
func (w *workload) steer(now time.Duration, need, maxDelay int) bool {
	maxDelay = max(maxDelay, 0)
	need = min(max(need, 0), maxDelay)
	switch {
	case w.delay > maxDelay: // the role's own delay grew
		w.delay = maxDelay
	case need > w.delay && (!w.raised || now-w.changed >= raiseEvery):
		w.delay = min(need, w.delay+2)
	case need < w.delay && now-w.lowSince >= lowerEvery:
		w.delay--
	default:
		if need >= w.delay {
			w.lowSince = now
		}
		return false
	}
	w.changed, w.lowSince, w.raised = now, now, true
	return true
}

// budgetReport is the fields of a stats line that say what a role's
// ticks cost and what it did about it (see MatchStats.TickCost).
func (st *MatchStats) budgetReport() string {
	return fmt.Sprintf(" input_delay=%d delay_changes=%d tick_cost_ms=%.3f deferred=%d",
		st.InputDelay, st.DelayChanges, float64(st.TickCost)/1e6, st.Deferred)
}
