#!/usr/bin/env bash
# The server soak (make server-soak): one headless demo server and four
# headless demo bot clients over loopback, each client's link through the
# simulator both ways (50 ms, 10 ms jitter, 5 % loss, 1 % duplication),
# while tools/udpflood floods the server with garbage. Two clients play
# from the start, one joins 20 s in, and one is killed with -9 at 12 s and
# started again at 16 s. The server's -ticks (3,600: a minute) ends the
# match for everyone. It checks that every client still running printed
# the server's state-hash with desyncs=0, that the server's recording
# replays to it, and that the server kept pace with real time.
#
#	tools/serversoak/soak.sh [BIN_DIR] [TICKS] [PORT]
set -u
bin=${1:-bin}
ticks=${2:-3600}
port=${3:-7360}
link=latency=50ms,jitter=10ms,loss=0.05,dup=0.01
addr=127.0.0.1:$port
out=$bin/soak
mkdir -p "$out"
rm -f "$out"/*

start=$(date +%s.%N)
"$bin/demo" -server "$addr" -players 4 -ticks "$ticks" -record "$out/server.fxr" -netsim "$link" >"$out/server.out" 2>"$out/server.err" &
server=$!
sleep 0.3
"$bin/udpflood" -for "$((ticks / 60 + 10))s" "$addr" >/dev/null 2>&1 &
flood=$!
client() { # client NAME SEED
	exec "$bin/demo" -headless -connect "$addr" -bot "$2" -netsim "$link" >"$out/$1.out" 2>"$out/$1.err"
}
client a 1 &
a=$!
client b 2 &
b=$!
client k 4 &
k=$!
sleep 12
kill -9 $k
sleep 4
client k2 5 &
k2=$!
sleep 4
client c 3 &
c=$!
wait $server
serverStatus=$?
end=$(date +%s.%N)
wait $a $b $c $k2
kill $flood 2>/dev/null

fail=0
want=$(sed -n 's/^state-hash=//p' "$out/server.out")
echo "server: exit $serverStatus, state-hash=$want, $(printf '%.1f' "$(echo "$end - $start" | bc)") s for $ticks ticks"
grep '^stats' "$out/server.err"
[ "$serverStatus" = 0 ] && [ -n "$want" ] || { echo "FAIL: the server"; cat "$out/server.err"; fail=1; }
for n in a b k2 c; do
	got=$(sed -n 's/^state-hash=//p' "$out/$n.out")
	line=$(grep '^stats' "$out/$n.err" | grep -o ' seat=.*')
	echo "client $n: state-hash=$got$line"
	if [ "$got" != "$want" ] || ! grep -q ' desyncs=0 ' "$out/$n.err"; then
		echo "FAIL: client $n"; cat "$out/$n.err"; fail=1
	fi
done
replayed=$("$bin/demo" -headless -replay "$out/server.fxr" 2>"$out/replay.err" | sed -n 's/^state-hash=//p')
echo "replay of the server's recording: state-hash=$replayed; $(grep '^replay' "$out/replay.err")"
[ "$replayed" = "$want" ] || { echo "FAIL: the replay"; cat "$out/replay.err"; fail=1; }
# Kept pace: ticks ran at 60 a second of wall time, within 3 %.
secs=$(echo "$end - $start" | bc)
if [ "$(echo "$secs > $ticks / 60 * 1.03 + 1" | bc)" = 1 ]; then
	echo "FAIL: the server took $secs s for $ticks ticks"; fail=1
fi
exit $fail
