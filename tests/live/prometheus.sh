#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: --prometheus scraped by a real Prometheus (Debian's: 2.42 on 12, 2.53 on
#              13; unpacked by scripts/install-deps.sh, run on loopback, 1 s scrapes):
#              after a burst of known run-queue waits (tests/workloads/burst) and in the
#              quiet time after it, Prometheus's _count, its 36 buckets and
#              histogram_quantile(0.99) against the histogram, count and p99 ftscope
#              prints at the end; OpenMetrics negotiated; cumulative across interval
#              resets; --prometheus-file replaced whole (inotify), linted by promtool,
#              from a live run and from -i; --max-series; -P, -L and --per-cpu labels (a
#              thread name that is not UTF-8 scraped); bad specs, a port in use, a
#              stalled or flooding client.
# requires: root, sched tracepoints; /var/cache/ftscope-deps/prometheus (install-deps.sh)
. tests/live/lib.sh
plan 17
need_root prometheus || exit 0
PY=tests/live/prom_check.py
PB=/var/cache/ftscope-deps/prometheus/usr/bin
if [ ! -x $PB/prometheus ] || [ ! -x $PB/promtool ]; then
	fail prometheus "no $PB/prometheus or $PB/promtool: run scripts/install-deps.sh --tests"
	skip_rest "no Prometheus"
	exit 0
fi

# this test's leaks (global_state in lib.sh leaves all instances out): instances whose
# owner has ended
leaked() {
	orphans | sed 's|.*/||'
}
before=$(global_state)
leaks_before=$(leaked)

D=$(mktemp -d /tmp/ftscope-prom.XXXXXX)
BG=()
trap bg_cleanup EXIT

read -r PPORT FPORT < <(python3 $PY ports)
PURL=http://127.0.0.1:$PPORT
cat > $D/prom.yml <<EOF
global: { scrape_interval: 1s, scrape_timeout: 1s }
scrape_configs:
  - job_name: ftscope
    static_configs: [ { targets: [ '127.0.0.1:$FPORT' ] } ]
EOF
$PB/prometheus --config.file=$D/prom.yml --storage.tsdb.path=$D/data \
	--web.listen-address=127.0.0.1:$PPORT --log.level=warn > $D/prom.log 2>&1 &
BG+=($!)
if ! wait_for 30 curl -sf -o /dev/null $PURL/-/ready; then
	fail prometheus "Prometheus did not start: $(tail -1 $D/prom.log)"
	skip_rest "no Prometheus"
	exit 0
fi

# burst N COUNT QUIET [NAME0]: the workload, waiting for $D/gate; its pid in W
burst() {
	rm -f $D/gate $D/gate.done
	$WL/burst "$1" "$2" $D/gate "$3" ${4:+"$4"} 2>/dev/null &
	W=$!
	BG+=($W)
}
# go FTSCOPE_PID: once it traces, open the gate; then wait for the burst's threads to end (GATE.done)
go() {
	wait_for 20 grep -q Tracing $D/err || return 1
	touch $D/gate
	wait_for 30 test -e $D/gate.done
}

# scraped: go, then wait for Prometheus's first scrape after the workload's end; tq:
# the time after it, which the checks ask Prometheus's API about
scraped() {
	go || return 1
	local mark=$(date +%s.%N)
	python3 $PY wait-scrape $PURL "$mark" > /dev/null
	tq=$(date +%s.%N)
}

# 1. a live scrape: 4 threads x 200 waits behind each other on CPU 0, then 30 s of
# quiet; ftscope ends 12 s in, Prometheus's samples from the quiet time are the final
# state, so its count and buckets equal the printed ones exactly
burst 4 200 30
# $D/err emptied before each run in the background: the child opens it, and
# go() or a wait for "Tracing" could find the last run's line there first
: > $D/err
$FTSCOPE runqlat -p $W --prometheus $FPORT -d 12 > $OUT/prom-live.txt 2> $D/err &
F=$!
BG+=($F)
if scraped; then
	# which format each Accept gets (Prometheus 2.42's Accept first)
	A='application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1'
	for acc in "$A" "" "text/plain" "application/openmetrics-text; q=0, text/plain" \
		   "text/plain;q=1,application/openmetrics-text;q=0.9"; do
		ct=$(curl -s -o $D/body -D - ${acc:+-H "Accept: $acc"} http://127.0.0.1:$FPORT/metrics |
		     tr -d '\r' | sed -n 's/^Content-Type: //p')
		echo "$ct $(tail -1 $D/body | cut -c1-5)"
	done > $D/formats
	python3 - $FPORT > $D/head <<'PYEOF'
import socket, sys
def ask(method):
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
    s.sendall(method + b" /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
    got = b""
    while b := s.recv(65536):
        got += b
    hdr, _, body = got.partition(b"\r\n\r\n")
    ln = [l for l in hdr.split(b"\r\n") if l.lower().startswith(b"content-length:")]
    return int(ln[0].split(b":")[1]), len(body)
get, head = ask(b"GET"), ask(b"HEAD")
print(f"GET length {get[0]} body {get[1]}, HEAD length {head[0]} body {head[1]}")
PYEOF
	curl -s -o /dev/null -w '%{http_code}\n' http://127.0.0.1:$FPORT/other > $D/404
fi
ft_wait prom_scrape 0 $F
rc=$?
if [ $rc -ne 0 ] || ! grep -q "^count " $OUT/prom-live.txt; then
	fail prom_scrape "ftscope exited $rc: $(tail -1 $D/err)"
	for n in prom_openmetrics prom_accept prom_http; do
		skip $n "the run failed (prom_scrape)"
	done
else
	check prom_scrape scrape $OUT/prom-live.txt $PURL "$tq"
	check prom_openmetrics metadata $PURL
	# Accept: Prometheus's -> OpenMetrics with # EOF; none, text/plain, OpenMetrics
	# at q=0 or below text/plain -> 0.0.4, whose last line is a sample
	exp="application/openmetrics-text; version=1.0.0; charset=utf-8 # EOF
text/plain; version=0.0.4; charset=utf-8 ftsco
text/plain; version=0.0.4; charset=utf-8 ftsco
text/plain; version=0.0.4; charset=utf-8 ftsco
text/plain; version=0.0.4; charset=utf-8 ftsco"
	if [ "$(cat $D/formats)" = "$exp" ]; then
		pass prom_accept
	else
		fail prom_accept "$(tr '\n' '|' < $D/formats)"
	fi
	# HEAD: the headers of a GET (a Content-Length as long: nothing came in
	# between, the run is quiet), no body; elsewhere 404
	if grep -qE '^GET length ([0-9]+) body \1, HEAD length \1 body 0$' $D/head &&
	   [ "$(cat $D/404)" = 404 ]; then
		pass prom_http
	else
		fail prom_http "$(cat $D/head), /other $(cat $D/404)"
	fi
fi
kill $W 2>/dev/null

# 2. interval reports: each resets runqlat's histogram; Prometheus's _count is the sum
# of all reports' counts, and so is --prometheus-file's (replaced each second, watched
# by inotify: only ever renamed in whole, its count never going down)
burst 4 200 30
python3 $PY watch $D rq.prom 13 > $D/watch.out &
WP=$!
BG+=($WP)
wait_for 10 grep -q watching $D/watch.out
: > $D/err
$FTSCOPE runqlat 1 -p $W --prometheus $FPORT --prometheus-file $D/rq.prom -o $D/rq.dat \
	-d 10 > $OUT/prom-int.txt 2> $D/err &
F=$!
BG+=($F)
scraped
ft_wait prom_cumulative 0 $F
rc=$?
wait $WP
wrc=$?
kill $W 2>/dev/null
if [ $rc -ne 0 ] || [ "$(grep -c '^count ' $OUT/prom-int.txt)" -lt 8 ]; then
	fail prom_cumulative "ftscope exited $rc: $(tail -1 $D/err)"
	for n in prom_file_interval prom_file_atomic prom_promtool; do
		skip $n "the run failed (prom_cumulative)"
	done
else
	check prom_cumulative scrape $OUT/prom-int.txt $PURL "$tq"
	check prom_file_interval file $OUT/prom-int.txt $D/rq.prom
	if [ $wrc -eq 0 ]; then
		pass prom_file_atomic
	else
		fail prom_file_atomic "$(tail -1 $D/watch.out)"
	fi
	echo "# prom_file_atomic: $(tail -1 $D/watch.out)"
	if r=$($PB/promtool check metrics < $D/rq.prom 2>&1); then
		pass prom_promtool
	else
		fail prom_promtool "$(echo "$r" | head -1)"
	fi
fi

# 3. -i FILE: the recording of 2, read back with --prometheus-file, once whole and
# once in intervals
for iv in "" 1; do
	n=prom_file_input${iv:+_interval}
	if ft $n 0 runqlat $iv -i $D/rq.dat --prometheus-file $D/in.prom > $OUT/$n.txt 2> $D/err; then
		check $n file $OUT/$n.txt $D/in.prom
	else
		fail $n "$(tail -1 $D/err)"
	fi
done

# 4. --max-series 3 over 8 threads (-L): 3 series of their own, one "other" with the rest
burst 8 50 5
: > $D/err
$FTSCOPE runqlat -L -p $W --max-series 3 --prometheus-file $D/ms.prom -d 4 \
	> $OUT/prom-ms.txt 2> $D/err &
F=$!
BG+=($F)
go
ft_wait prom_max_series 0 $F
kill $W 2>/dev/null
check prom_max_series groups $OUT/prom-ms.txt $D/ms.prom 3

# 5. -L scraped: a thread named "ét" and half a euro sign (a comm cut inside a UTF-8
# character): each stray byte becomes U+FFFD in its label, else Prometheus refuses
# the whole scrape ("invalid UTF-8 label value")
burst 3 50 30 $'\xc3\xa9t\xe2\x82'
: > $D/err
$FTSCOPE runqlat -L -p $W --prometheus $FPORT -d 8 > $OUT/prom-utf8.txt 2> $D/err &
F=$!
BG+=($F)
scraped
ft_wait prom_labels_utf8 0 $F
kill $W 2>/dev/null
check prom_labels_utf8 threads $OUT/prom-utf8.txt $PURL "$tq"

# 6. the groups as labels, system-wide: -P {comm, pid}, --per-cpu {cpu}
for g in -P --per-cpu; do
	n=prom_labels_$([ $g = -P ] && echo pids || echo per_cpu)
	if ft $n 0 runqlat $g --prometheus-file $D/g.prom -d 2 > $OUT/$n.txt 2> $D/err; then
		check $n groups $OUT/$n.txt $D/g.prom
	else
		fail $n "$(tail -1 $D/err)"
	fi
done

# 7. the server under bad clients: one sends 10 KB of header (dropped unanswered at
# 8 KB), then 8 stall after part of a request line and take every connection; a scrape
# waits in the listen queue until they are dropped 10 s after they connected
# (answered 10-12 s later: the drop is seen at the next round), then is answered whole
: > $D/err
$FTSCOPE runqlat --prometheus "[::1]:$FPORT" -d 25 > /dev/null 2> $D/err &
F=$!
BG+=($F)
wait_for 20 grep -q Tracing $D/err
r=$(python3 - "$FPORT" <<'EOF'
import socket, sys, time
port = int(sys.argv[1])
flood = socket.create_connection(("::1", port))
try:
    flood.sendall(b"GET /metrics HTTP/1.1\r\n" + b"X: " + b"y" * 10000 + b"\r\n\r\n")
    flood_got = flood.recv(100)
except ConnectionResetError:
    flood_got = b""
stalls = []
for _ in range(8):
    s = socket.create_connection(("::1", port))
    s.sendall(b"GET /metr")
    stalls.append(s)
time.sleep(0.5)
t0 = time.time()
ok = socket.create_connection(("::1", port))
ok.sendall(b"GET /metrics HTTP/1.0\r\nHost: x\r\n\r\n")
ok.settimeout(20)
got = b""
try:
    while b := ok.recv(65536):
        got += b
except socket.timeout:
    pass
wait = time.time() - t0
closed = 0
for s in stalls:
    s.settimeout(1)
    try:
        closed += s.recv(100) == b""
    except (socket.timeout, ConnectionResetError):
        pass
late = "10-12 s" if 9.4 <= wait <= 12.5 else f"{wait:.1f} s"
print(f"flood {len(flood_got)} bytes; {closed} of 8 stalled dropped; scrape "
      f"{got[:15]!r} {got.count(b'_bucket')} buckets after {late}")
EOF
)
kill -INT $F
ft_wait prom_bad_clients 0 $F
if [ "$r" = "flood 0 bytes; 8 of 8 stalled dropped; scrape b'HTTP/1.1 200 OK' 37 buckets after 10-12 s" ]; then
	pass prom_bad_clients
else
	fail prom_bad_clients "$r"
fi
echo "# prom_bad_clients: $r"

# 8. bad input: one line each, exit 1 (a port in use), 2 (a bad spec: usage), nothing left behind
bad=""
for spec in "127.0.0.1:$PPORT" abc 0 70000 "127.0.0.1:" "::1:$FPORT" "[::1]" \
	    "localhost:$FPORT" "1.2.3:$FPORT"; do
	want=2
	[ "$spec" = "127.0.0.1:$PPORT" ] && want=1
	ft prom_bad_input $want runqlat --prometheus "$spec" -d 1 > /dev/null 2> $D/err
	rc=$?
	if [ $rc -ne $want ] || [ "$(wc -l < $D/err)" -ne 1 ] ||
	   ! grep -qF -- "--prometheus $spec:" $D/err; then
		bad+="$spec: rc $rc (want $want), $(head -2 $D/err | tr '\n' '|'); "
	fi
	echo "# prom_bad_input: $(cat $D/err)"
done
ft prom_bad_input 1 runqlat --prometheus "127.0.0.1:$PPORT" -d 1 > /dev/null 2> $D/err
grep -q "127.0.0.1:$PPORT: Address already in use" $D/err || bad+="in use: $(cat $D/err); "
# a file that cannot be written: said before tracing starts (no "Tracing...")
ft prom_bad_input 1 runqlat --prometheus-file $D/no/such/dir.prom -d 1 > /dev/null 2> $D/err
rc=$?
[ $rc -eq 1 ] && [ "$(wc -l < $D/err)" -eq 1 ] &&
	grep -qF -- "--prometheus-file $D/no/such/dir.prom: No such file or directory" $D/err ||
	bad+="file: rc $rc $(cat $D/err); "
echo "# prom_bad_input: $(cat $D/err)"
# (a live-only option with -i: a usage error)
ft prom_bad_input 2 runqlat -i $D/rq.dat --prometheus $FPORT > /dev/null 2> $D/err
rc=$?
[ $rc -ne 0 ] && [ "$(wc -l < $D/err)" -eq 1 ] || bad+="-i: rc $rc $(cat $D/err); "
echo "# prom_bad_input: $(cat $D/err)"
if [ -z "$bad" ]; then
	pass prom_bad_input
else
	fail prom_bad_input "$bad"
fi

kill "${BG[0]}"
wait "${BG[0]}" 2>/dev/null
after=$(global_state)
if [ "$before" = "$after" ] && [ "$leaks_before" = "$(leaked)" ]; then
	pass prom_state
else
	fail prom_state "$(state_diff "$before" "$after") $(leaked)"
fi
