#!/usr/bin/env python3
# The delay from a CTF packet written to a trace to its first event
# printed by `tview --dump --follow` (and, with --browser, shown by the
# browser under tmux): a gen-ctf trace (1 CPU, 4 KiB packets) is copied
# into a new directory one whole packet at a time, every --every seconds,
# by this script, which holds the stream file open for writing (as
# LTTng's consumer daemon does) and notes the monotonic time after each
# write().  The follower's output is read as it comes: the first line
# after a write is the first event of that packet (nothing else is new),
# so the delay is its arrival time minus the write's.  For the browser,
# the screen is captured every 10 ms until the packet's last event is
# the selected row.  Prints min / median / p90 / max over the packets.
#
# With --lttng RECORDER (the shared record-ust-trace.sh, as root): a
# real LTTng-UST session is recorded (2 threads, 64 KiB sub-buffers,
# --events N) and followed from its first packet; each line's delay is
# the wall-clock time it was read minus the event's own time stamp (the
# trace clock is the system's): what LTTng's buffering adds (a packet
# is written once its sub-buffer is full, or at lttng stop) plus tview's.
#
# usage: bench/follow-latency.py [--browser] [--packets N] [--every S]
#        bench/follow-latency.py --lttng RECORDER [--events N]
#        (from the build tree: ./tview and ./gen-ctf)
import os, subprocess, sys, tempfile, threading, time

def stats(name, d):
    d = sorted(d)
    if not d:
        print(f"{name}: no sample")
        return
    ms = lambda x: f"{x * 1000:.1f}"
    print(f"{name}: {len(d)} samples, delay ms min {ms(d[0])} "
          f"median {ms(d[len(d) // 2])} p90 {ms(d[int(len(d) * 0.9)])} "
          f"max {ms(d[-1])}")

def lttng(rec, nev):
    import calendar, glob
    tmp = tempfile.mkdtemp(prefix="tview-follow-bench.")
    out = f"{tmp}/t"
    r = subprocess.Popen([rec, "--no-verify", "--threads", "2",
                          "--subbuf-size", "64K", out, str(nev)],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while r.poll() is None:
        f = [p for p in glob.glob(f"{out}/**/ch0_*", recursive=True)
             if not p.endswith(".idx") and os.path.getsize(p) > 0]
        if f:
            break
        time.sleep(0.02)
    proc = subprocess.Popen(["./tview", "--dump", "--follow",
                             os.path.dirname(f[0])], stdout=subprocess.PIPE,
                            env=dict(os.environ, TZ="UTC"))
    day = time.strftime("%Y-%m-%d", time.gmtime())
    base = calendar.timegm(time.strptime(day, "%Y-%m-%d"))
    chunks = []
    while True:
        b = os.read(proc.stdout.fileno(), 1 << 20)
        if not b:
            break
        chunks.append((time.time(), b))	# parsed later: read fast
    delays, buf = [], b""
    for now, b in chunks:
        buf += b
        lines = buf.split(b"\n")
        buf = lines.pop()
        for l in lines:
            t = base + int(l[1:3]) * 3600 + int(l[4:6]) * 60 + \
                int(l[7:9]) + int(l[10:19]) / 1e9
            delays.append(now - t)
    proc.wait()
    r.wait()
    stats(f"LTTng-UST {nev} events, recorded to printed", delays)
    subprocess.run(["rm", "-rf", tmp])

def main():
    args = sys.argv[1:]
    if "--lttng" in args:
        nev = int(args[args.index("--events") + 1]) if "--events" in args \
            else 500000
        return lttng(args[args.index("--lttng") + 1], nev)
    browser = "--browser" in args
    n = int(args[args.index("--packets") + 1]) if "--packets" in args else 40
    every = float(args[args.index("--every") + 1]) if "--every" in args else 0.3
    tmp = tempfile.mkdtemp(prefix="tview-follow-bench.")
    src, live = f"{tmp}/src", f"{tmp}/live"
    subprocess.run(["./gen-ctf", "--quiet", "--cpus", "1", "--events",
                    "20000", "--packet-size", "4096", src], check=True)
    data = open(f"{src}/channel0_0", "rb").read()
    P = 4096
    n = min(n, len(data) // P - 1)
    os.mkdir(live)
    with open(f"{src}/metadata", "rb") as f, open(f"{live}/metadata", "wb") as g:
        g.write(f.read())
    fd = os.open(f"{live}/channel0_0", os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    os.write(fd, data[:P])
    delays = []
    if not browser:
        proc = subprocess.Popen(["./tview", "--dump", "--follow", live],
                                stdout=subprocess.PIPE)
        arrivals = []
        def reader():
            while True:
                b = os.read(proc.stdout.fileno(), 65536)
                if not b:
                    return
                arrivals.append(time.monotonic())
        t = threading.Thread(target=reader)
        t.start()
        time.sleep(1)
        for k in range(1, n + 1):
            seen = len(arrivals)
            os.write(fd, data[k * P:(k + 1) * P])
            w = time.monotonic()
            time.sleep(every)
            if len(arrivals) > seen:
                delays.append(arrivals[seen] - w)
        os.close(fd)
        proc.wait()
        t.join()
        stats("--dump --follow", delays)
    else:
        sock = f"tvbench{os.getpid()}"
        env = dict(os.environ, TZ="UTC", LC_ALL="C.UTF-8", TVIEW_STATE="off")
        subprocess.run(["tmux", "-L", sock, "-f", "/dev/null", "new-session",
                        "-d", "-x", "140", "-y", "20",
                        f"./tview --follow {live}; sleep 60"], env=env,
                       check=True)
        try:
            # the last event of packets [0, k], from a copy of them
            lasts = {}
            pre = f"{tmp}/pre"
            os.makedirs(pre, exist_ok=True)
            with open(f"{pre}/metadata", "wb") as g:
                g.write(open(f"{src}/metadata", "rb").read())
            for k in range(1, n + 1):
                with open(f"{pre}/channel0_0", "wb") as g:
                    g.write(data[:(k + 1) * P])
                lasts[k] = subprocess.run(["./tview", "--dump", pre],
                                          capture_output=True, text=True
                                          ).stdout.splitlines()[-1][1:19]
            time.sleep(1.5)
            for k in range(1, n + 1):
                os.write(fd, data[k * P:(k + 1) * P])
                w = time.monotonic()
                last = lasts[k]
                deadline = w + 5
                while time.monotonic() < deadline:
                    scr = subprocess.run(["tmux", "-L", sock, "capture-pane",
                                          "-p"], capture_output=True,
                                         text=True).stdout
                    if any(l.startswith(">" + last) for l in scr.splitlines()):
                        delays.append(time.monotonic() - w)
                        break
                    time.sleep(0.01)
                time.sleep(max(0, every - (time.monotonic() - w)))
        finally:
            subprocess.run(["tmux", "-L", sock, "kill-server"])
            os.close(fd)
        stats("browser (f)", delays)
    subprocess.run(["rm", "-rf", tmp])

main()
