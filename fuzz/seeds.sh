#!/bin/sh
# seeds.sh OUTROOT TARGET...: the seed corpus of each fuzz target in
# OUTROOT/NAME, made by the project's own generators (gen-ctf, gen-ltt,
# td-gen, test-ltt-synth --write) in $BUILDDIR; never copied traces.
# trace-cmd, when installed, converts td-gen's files to version 7.
set -eu
out=$1
shift
b=${BUILDDIR:-.}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pack() { $SHELL "$here/pack.sh" "$@"; }

# Small traces: a few packets, so that an execution stays short.
ctf() {	# NAME gen-ctf options...
	n=$1
	shift
	"$b/gen-ctf" --quiet --cpus 2 --events 60 --packet-size 4096 "$@" \
	    "$tmp/ctf-$n" >/dev/null
}
ctf plain
ctf idx --index --discard --seq-gap
ctf be --big-endian --large-header
ctf pkt --packetized
ctf pktbe --packetized --big-endian --cpus 3
# CTF 2 traces of every field class (gen-ctf2 prints their expected dump)
"$b/gen-ctf2" "$tmp/ctf2-le" >/dev/null
"$b/gen-ctf2" --big-endian "$tmp/ctf2-be" >/dev/null
for v in "" --big-endian; do
	"$b/gen-ltt" --format fac --cpus 2 --events 40 $v \
	    --expect "$tmp/x" "$tmp/fac$v" >/dev/null
	"$b/gen-ltt" --format new --cpus 2 --events 40 $v \
	    --expect "$tmp/x" "$tmp/new$v" >/dev/null
done
"$b/gen-ltt" --format fac --cpus 2 --events 40 --lp64 --heartbeat \
    --alignment 8 --lost --minor 6 --expect "$tmp/x" "$tmp/fac-hb" >/dev/null
"$b/gen-ltt" --format new --cpus 2 --events 40 --lp64 --lost \
    --expect "$tmp/x" "$tmp/new-lp64" >/dev/null
mkdir "$tmp/ltt-le" "$tmp/ltt-be"
"$b/tests/unit/test-ltt-synth" --write "$tmp/ltt-le" >/dev/null
"$b/tests/unit/test-ltt-synth" --write "$tmp/ltt-be" be >/dev/null

for t in "$@"; do
	n=${t##*/fuzz-}
	d=$out/$n
	rm -rf "$d"
	mkdir -p "$d"
	case $n in
	tsdl)
		for c in plain idx be; do
			cp "$tmp/ctf-$c/metadata" "$d/$c"
		done ;;
	ctf-meta)
		for c in plain pkt pktbe; do
			cp "$tmp/ctf-$c/metadata" "$d/$c"
		done
		# CTF 2: JSON metadata, both byte orders
		for c in le be; do
			cp "$tmp/ctf2-$c/metadata" "$d/ctf2-$c"
		done ;;
	ctf2)
		# JSON metadata of every field class, both byte orders, and
		# gen-ctf2's mistakes: one error path each
		for c in le be; do
			cp "$tmp/ctf2-$c/metadata" "$d/$c"
		done
		for e in $("$b/gen-ctf2" --list-errors); do
			"$b/gen-ctf2" --error "$e" "$tmp/ctf2-e" >/dev/null
			cp "$tmp/ctf2-e/metadata" "$d/error-$e"
		done ;;
	ctf)
		for c in plain idx be pkt pktbe; do
			pack "$tmp/ctf-$c" "$d/$c"
		done
		for c in le be; do
			pack "$tmp/ctf2-$c" "$d/ctf2-$c"
		done ;;
	tracedat)
		"$b/td-gen" "$d/le64"
		"$b/td-gen" --be "$d/be64"
		"$b/td-gen" --long4 "$d/le32"
		"$b/td-gen" --be --long4 --events 300 "$d/be32"
		if command -v trace-cmd >/dev/null 2>&1; then
			for c in none zlib zstd; do
				trace-cmd convert -i "$d/le64" -o "$d/v7-$c" \
				    --file-version 7 --compression "$c" \
				    >/dev/null 2>&1 || rm -f "$d/v7-$c"
			done
		fi ;;
	ltt)
		for c in ltt-le ltt-be fac fac--big-endian fac-hb; do
			pack "$tmp/$c" "$d/$c"
		done ;;
	ltt2004)
		for c in new new--big-endian new-lp64; do
			pack "$tmp/$c" "$d/$c"
		done ;;
	ltt-xml)
		for f in "$tmp"/fac/eventdefs/*.xml "$tmp"/new/eventdefs/*.xml \
		    "$tmp/new/info/system.xml"; do
			cp "$f" "$d/$(basename "$(dirname "$f")")-${f##*/}"
		done ;;
	bookmark)
		# the forms bookmark.h lists, written here
		printf '%s\n' '<?xml version="1.0"?>' '<bookmarks>' \
		    '  <location name="spike" cpu="2" start_time="1.5"' \
		    '   end_time="1.600000001">a &amp; b</location>' \
		    '  <location time="0.000000042"/>' \
		    '  <!-- kept --><other keep="yes"/>' \
		    '  <location name=bare start_cycle=10 end_cycle=20>t' \
		    '  </location>' '</bookmarks>' >"$d/forms"
		printf '<bookmarks/>\n' >"$d/empty"
		printf '%s\n' '<?xml version="1.0" encoding="UTF-8"?>' \
		    '<!DOCTYPE bookmarks>' '<bookmarks><location cycle="7"' \
		    ' name="&#233;t&#233;">&lt;x&gt;</location></bookmarks>' \
		    >"$d/entities" ;;
	filter)
		# one filter per line of the forms filter.h lists
		i=0
		while IFS= read -r f; do
			i=$((i + 1))
			printf '%s' "$f" >"$d/f$i"
		done <<-'EOF'
		sched_switch: prev_tid == 1 && next_comm =~ "^sw"
		sched_*: prev_tid != 0 || next_tid > 0x10, irq_*: irq < 3
		cpu == 1 && !(tid == 0)
		comm ~ "k*" || pid >= 2
		time >= 40% && time <= "60%"
		time > +1.5ms && trace == 0
		syscall_exit_read: ret * 2 + 1 > 3 % 2 && (ret & 0xff) << 1
		irq_handler_entry: name !~ "eth[0-9]"
		$tid == vtid && $comm != comm
		sched_process_fork: child_tid == _vtids_length - 1
		prev_state / 0 == 1
		'a' == 'b'
		EOF
		;;
	*)
		# a new target without seeds starts from nothing
		: ;;
	esac
done
