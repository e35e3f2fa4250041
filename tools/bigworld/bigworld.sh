#!/usr/bin/env bash
# The big world (make bigworld): one headless demo server and CLIENTS
# headless demo bot clients over loopback, with BODIES bouncing bodies
# (the demo's -n), for TICKS ticks (1,200: 20 s). Every client's link goes
# through the simulator (-netsim, on the client's datagrams to the
# server: 150 ms, 10 ms jitter, 5 % loss, so a round trip of about
# 150 ms; LINK overrides it). The clients connect a second after the
# server starts, so each is sent the state and catches up. It prints the
# server's figures and, for each client, its frame rate and frame p99
# over the whole run (the stats line's fps and p99_ms, its catch-up
# included), its rollback depths, input delay, tick cost, catch-up and
# outcome, then one line: "one hash" when every client ended on the
# server's state hash, or how many were dropped. Issue 39's targets
# (BENCHMARKS.md, "Big worlds") are read from these lines.
#
#	tools/bigworld/bigworld.sh [DEMO] [CLIENTS] [BODIES] [TICKS] [PORT]
#
# DEMO is the demo's static build (make server: bin/demo-server; any
# build of the demo runs it). Every process runs under timeout, on
# 127.0.0.1 only; the outputs go to $(dirname DEMO)/bigworld. It exits 1
# when a client did not end on the server's hash, or the server failed.
# On a machine with a core for every process (16 cores: 4 clients), each
# process has one; on fewer, they share them, and the load average it
# prints says how much else ran.
set -u
demo=${1:-bin/demo-server}
clients=${2:-2}
bodies=${3:-300}
ticks=${4:-1200}
port=${5:-7370}
link=${LINK:-latency=150ms,jitter=10ms,loss=0.05}
addr=127.0.0.1:$port
out=$(dirname "$demo")/bigworld
mkdir -p "$out"
rm -f "$out"/*
limit=$((ticks / 60 + 60)) # seconds: the match, and a minute to join and end

[ -x "$demo" ] || { echo "bigworld: $demo is not built (make server)"; exit 1; }
echo "bigworld: $clients clients, $bodies bodies, $ticks ticks, link $link; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
timeout -k 5 "$limit" "$demo" -server "$addr" -players "$clients" -n "$bodies" -ticks "$ticks" >"$out/server.out" 2>"$out/server.err" &
server=$!
sleep 1
pids=()
for i in $(seq 1 "$clients"); do
	timeout -k 5 "$limit" "$demo" -headless -connect "$addr" -bot "$i" -netsim "$link" >"$out/client$i.out" 2>"$out/client$i.err" &
	pids+=($!)
done
wait $server
serverStatus=$?
for p in "${pids[@]}"; do wait "$p"; done

# field LINE NAME prints NAME's value in a stats line.
field() { grep -o " $2=[^ ]*" <<<"$1" | head -1 | cut -d= -f2; }
want=$(sed -n 's/^state-hash=//p' "$out/server.out")
sline=$(grep '^stats' "$out/server.err")
echo "server: exit $serverStatus state-hash=$want fps=$(field "$sline" fps) tick_us_p99=$(field "$sline" tick_us_p99) inputs_late=$(field "$sline" inputs_late) inputs_replaced=$(field "$sline" inputs_replaced)"
fail=0
[ "$serverStatus" = 0 ] && [ -n "$want" ] || { echo "FAIL: the server"; tail -5 "$out/server.err"; fail=1; }
dropped=0
for i in $(seq 1 "$clients"); do
	line=$(grep '^stats' "$out/client$i.err")
	got=$(sed -n 's/^state-hash=//p' "$out/client$i.out")
	outcome="state-hash=$got"
	if [ -z "$got" ] || [ "$got" != "$want" ]; then
		outcome="DROPPED ($(grep -v '^stats' "$out/client$i.err" | tail -1))"
		dropped=$((dropped + 1))
	fi
	printf 'client %d: fps=%s p99_ms=%s rollback_ticks_max=%s rollback_p99=%s input_delay=%s tick_cost_ms=%s catchup_ms=%s rtt_ms=%s allocs_per_frame=%s %s\n' "$i" \
		"$(field "$line" fps)" "$(field "$line" p99_ms)" "$(field "$line" rollback_ticks_max)" "$(field "$line" rollback_p99)" \
		"$(field "$line" input_delay)" "$(field "$line" tick_cost_ms)" "$(field "$line" catchup_ms)" "$(field "$line" rtt_ms)" \
		"$(field "$line" allocs_per_frame)" "$outcome"
done
if [ "$dropped" = 0 ] && [ "$fail" = 0 ]; then
	echo "outcome: one hash ($want), $clients of $clients clients"
else
	echo "outcome: $dropped of $clients clients dropped"
	fail=1
fi
exit $fail
