/*
 * gen-ctf: the TSDL metadata, written the way lttng-modules 2.13 writes
 * it (typealiases, trace/env/clock blocks, the packet context and the
 * compact or large event header, then one block per event), as plain text
 * or split into metadata packets.
 */
#include "gen-ctf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S32	"integer { size = 32; align = 8; signed = 1; encoding = none; base = 10; }"
#define U32	"integer { size = 32; align = 8; signed = 0; encoding = none; base = 10; }"
#define S64	"integer { size = 64; align = 8; signed = 1; encoding = none; base = 10; }"
#define U64	"integer { size = 64; align = 8; signed = 0; encoding = none; base = 10; }"
#define X64	"integer { size = 64; align = 8; signed = 0; encoding = none; base = 16; }"
#define U16	"integer { size = 16; align = 8; signed = 0; encoding = none; base = 10; }"
#define U8	"integer { size = 8; align = 8; signed = 0; encoding = none; base = 10; }"
#define CHR	"integer { size = 8; align = 8; signed = 0; encoding = UTF8; base = 10; }"
#define F(t, n)	"\t\t" t " " n ";\n"

/* One event class: name, id and the TSDL of its payload members. */
struct gen_event_class {
	const char	*name;
	uint32_t	 id;
	const char	*fields;
};

static const struct gen_event_class gen_events[] = {
	{ "sched_switch", TV_GEN_SCHED_SWITCH,
	  F(CHR, "_prev_comm[16]") F(S32, "_prev_tid") F(S32, "_prev_prio")
	  F(S64, "_prev_state") F(CHR, "_next_comm[16]") F(S32, "_next_tid")
	  F(S32, "_next_prio") },
	{ "sched_waking", TV_GEN_SCHED_WAKING,
	  F(CHR, "_comm[16]") F(S32, "_tid") F(S32, "_prio")
	  F(S32, "_target_cpu") },
	{ "sched_wakeup", TV_GEN_SCHED_WAKEUP,
	  F(CHR, "_comm[16]") F(S32, "_tid") F(S32, "_prio")
	  F(S32, "_target_cpu") },
	{ "irq_handler_entry", TV_GEN_IRQ_ENTRY,
	  F(S32, "_irq") F("string", "_name") },
	{ "irq_handler_exit", TV_GEN_IRQ_EXIT,
	  F(S32, "_irq") F(S32, "_ret") },
	{ "irq_softirq_raise", TV_GEN_SOFTIRQ_RAISE, F(U32, "_vec") },
	{ "irq_softirq_entry", TV_GEN_SOFTIRQ_ENTRY, F(U32, "_vec") },
	{ "irq_softirq_exit", TV_GEN_SOFTIRQ_EXIT, F(U32, "_vec") },
	{ "syscall_entry_read", TV_GEN_SYS_READ,
	  F(U32, "_fd") F(U64, "_count") },
	{ "syscall_exit_read", TV_GEN_SYS_READ_EXIT,
	  F(S64, "_ret") F(X64, "_buf") },
	{ "syscall_entry_write", TV_GEN_SYS_WRITE,
	  F(U32, "_fd") F(X64, "_buf") F(U64, "_count") },
	{ "syscall_exit_write", TV_GEN_SYS_WRITE_EXIT, F(S64, "_ret") },
	{ "syscall_entry_openat", TV_GEN_SYS_OPENAT,
	  F(S32, "_dfd") F("string", "_filename") F(S32, "_flags")
	  F(U16, "_mode") },
	{ "syscall_exit_openat", TV_GEN_SYS_OPENAT_EXIT, F(S64, "_ret") },
	{ "syscall_entry_close", TV_GEN_SYS_CLOSE, F(U32, "_fd") },
	{ "syscall_exit_close", TV_GEN_SYS_CLOSE_EXIT, F(S64, "_ret") },
	{ "syscall_entry_futex", TV_GEN_SYS_FUTEX,
	  F(X64, "_uaddr") F(S32, "_op") F(U32, "_val") F(U64, "_utime")
	  F(X64, "_uaddr2") F(U32, "_val3") },
	{ "syscall_exit_futex", TV_GEN_SYS_FUTEX_EXIT,
	  F(S64, "_ret") F(X64, "_uaddr") F(X64, "_uaddr2") },
	{ "lttng_statedump_start", TV_GEN_STATEDUMP_START, "" },
	{ "lttng_statedump_process_state", TV_GEN_STATEDUMP_PROCESS,
	  F(S32, "_tid") F(S32, "_vtid") F(S32, "_pid") F(S32, "_vpid")
	  F(S32, "_ppid") F(S32, "_vppid") F(CHR, "_name[16]")
	  F("enum : " S32 " { \"USER_THREAD\" = 0, \"KERNEL_THREAD\" = 1, }",
	    "_type")
	  F("enum : " S32 " { \"UNKNOWN\" = 0, \"USER_MODE\" = 1, "
	    "\"SYSCALL\" = 2, \"TRAP\" = 3, \"IRQ\" = 4, }", "_mode")
	  F("enum : " S32 " { \"UNKNOWN\" = 0, \"NONE\" = 1, }", "_submode")
	  F("enum : " S32 " { \"UNNAMED\" = 0, \"WAIT_FORK\" = 1, "
	    "\"WAIT_CPU\" = 2, \"EXIT\" = 3, \"ZOMBIE\" = 4, \"WAIT\" = 5, "
	    "\"RUN\" = 6, \"DEAD\" = 7, }", "_status")
	  F(S32, "_cpu") F(U32, "_ns_inum") },
	{ "lttng_statedump_end", TV_GEN_STATEDUMP_END, "" },
	{ "sched_process_fork", TV_GEN_PROCESS_FORK,
	  F(CHR, "_parent_comm[16]") F(S32, "_parent_tid")
	  F(S32, "_parent_pid") F(U32, "_parent_ns_inum")
	  F(CHR, "_child_comm[16]") F(S32, "_child_tid")
	  F(U8, "__vtids_length") F(S32, "_vtids[ __vtids_length ]")
	  F(S32, "_child_pid") F(U32, "_child_ns_inum") },
	{ "sched_process_exec", TV_GEN_PROCESS_EXEC,
	  F("string", "_filename") F(S32, "_tid") F(S32, "_old_tid") },
	{ "sched_process_exit", TV_GEN_PROCESS_EXIT,
	  F(CHR, "_comm[16]") F(S32, "_tid") F(S32, "_prio") },
	{ "sched_process_free", TV_GEN_PROCESS_FREE,
	  F(CHR, "_comm[16]") F(S32, "_tid") F(S32, "_prio") },
	{ "sched_wakeup_new", TV_GEN_WAKEUP_NEW,
	  F(CHR, "_comm[16]") F(S32, "_tid") F(S32, "_prio")
	  F(S32, "_target_cpu") },
};

/* Append formatted text to a growing buffer; dies on exhaustion. */
static void TV_PRINTFLIKE(3, 4)
gen_addf(char **buf, size_t *len, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) {
		fputs("gen-ctf: out of memory\n", stderr);
		exit(1);
	}
	*buf = realloc(*buf, *len + (size_t)n + 1);
	if (!*buf) {
		fputs("gen-ctf: out of memory\n", stderr);
		exit(1);
	}
	memcpy(*buf + *len, s, (size_t)n + 1);
	*len += (size_t)n;
	free(s);
}

/* Format a uuid the way TSDL wants it. */
static void
gen_uuid_str(const uint8_t u[16], char out[37])
{
	snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
	    "%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2], u[3], u[4], u[5],
	    u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
}

/* The header part: everything before the event blocks. */
static void
gen_meta_header(const struct tv_gen_opts *o, const uint8_t uuid[16],
    char **buf, size_t *len)
{
	char us[37], cs[37];
	uint8_t cu[16];
	int i;

	gen_uuid_str(uuid, us);
	for (i = 0; i < 16; i++)
		cu[i] = (uint8_t)(uuid[15 - i] ^ 0x5a);
	cu[6] = (uint8_t)((cu[6] & 0x0f) | 0x40);
	cu[8] = (uint8_t)((cu[8] & 0x3f) | 0x80);
	gen_uuid_str(cu, cs);

	gen_addf(buf, len,
	    "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
	    "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
	    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
	    "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
	    "typealias integer { size = 64; align = 8; signed = false; } := unsigned long;\n"
	    "typealias integer { size = 5; align = 1; signed = false; } := uint5_t;\n"
	    "typealias integer { size = 27; align = 1; signed = false; } := uint27_t;\n"
	    "\n"
	    "trace {\n"
	    "\tmajor = 1;\n"
	    "\tminor = 8;\n"
	    "\tuuid = \"%s\";\n"
	    "\tbyte_order = %s;\n"
	    "\tpacket.header := struct {\n"
	    "\t\tuint32_t magic;\n"
	    "\t\tuint8_t  uuid[16];\n"
	    "\t\tuint32_t stream_id;\n"
	    "\t\tuint64_t stream_instance_id;\n"
	    "\t};\n"
	    "};\n"
	    "\n", us, o->big_endian ? "be" : "le");
	gen_addf(buf, len,
	    "env {\n"
	    "\thostname = \"tview-demo\";\n"
	    "\tdomain = \"kernel\";\n"
	    "\tsysname = \"Linux\";\n"
	    "\tkernel_release = \"6.1.0-13-amd64\";\n"
	    "\tkernel_version = \"#1 SMP PREEMPT_DYNAMIC Debian 6.1.55-1 (2023-09-29)\";\n"
	    "\ttracer_name = \"lttng-modules\";\n"
	    "\ttracer_major = 2;\n"
	    "\ttracer_minor = 13;\n"
	    "\ttracer_patchlevel = 9;\n"
	    "\ttrace_buffering_scheme = \"global\";\n"
	    "\ttrace_name = \"tview-demo\";\n"
	    "\ttrace_creation_datetime = \"20260314T082000+0000\";\n"
	    "\tgenerator = \"tview gen-ctf --seed %llu\";\n"
	    "};\n"
	    "\n"
	    "clock {\n"
	    "\tname = \"monotonic\";\n"
	    "\tuuid = \"%s\";\n"
	    "\tdescription = \"Monotonic Clock\";\n"
	    "\tfreq = 1000000000; /* Frequency, in Hz */\n"
	    "\t/* clock value offset from Epoch is: offset * (1/freq) */\n"
	    "\toffset = %llu;\n"
	    "};\n"
	    "\n", (unsigned long long)o->seed, cs,
	    (unsigned long long)TV_GEN_CLOCK_OFFSET);
	gen_addf(buf, len,
	    "typealias integer {\n"
	    "\tsize = 27; align = 1; signed = false;\n"
	    "\tmap = clock.monotonic.value;\n"
	    "} := uint27_clock_monotonic_t;\n"
	    "\n"
	    "typealias integer {\n"
	    "\tsize = 32; align = 8; signed = false;\n"
	    "\tmap = clock.monotonic.value;\n"
	    "} := uint32_clock_monotonic_t;\n"
	    "\n"
	    "typealias integer {\n"
	    "\tsize = 64; align = 8; signed = false;\n"
	    "\tmap = clock.monotonic.value;\n"
	    "} := uint64_clock_monotonic_t;\n"
	    "\n"
	    "struct packet_context {\n"
	    "\tuint64_clock_monotonic_t timestamp_begin;\n"
	    "\tuint64_clock_monotonic_t timestamp_end;\n"
	    "\tuint64_t content_size;\n"
	    "\tuint64_t packet_size;\n"
	    "\tuint64_t packet_seq_num;\n"
	    "\tunsigned long events_discarded;\n"
	    "\tuint32_t cpu_id;\n"
	    "};\n"
	    "\n"
	    "struct event_header_compact {\n"
	    "\tenum : uint5_t { compact = 0 ... 30, extended = 31 } id;\n"
	    "\tvariant <id> {\n"
	    "\t\tstruct {\n"
	    "\t\t\tuint27_clock_monotonic_t timestamp;\n"
	    "\t\t} compact;\n"
	    "\t\tstruct {\n"
	    "\t\t\tuint32_t id;\n"
	    "\t\t\tuint64_clock_monotonic_t timestamp;\n"
	    "\t\t} extended;\n"
	    "\t} v;\n"
	    "} align(8);\n"
	    "\n"
	    "struct event_header_large {\n"
	    "\tenum : uint16_t { compact = 0 ... 65534, extended = 65535 } id;\n"
	    "\tvariant <id> {\n"
	    "\t\tstruct {\n"
	    "\t\t\tuint32_clock_monotonic_t timestamp;\n"
	    "\t\t} compact;\n"
	    "\t\tstruct {\n"
	    "\t\t\tuint32_t id;\n"
	    "\t\t\tuint64_clock_monotonic_t timestamp;\n"
	    "\t\t} extended;\n"
	    "\t} v;\n"
	    "} align(8);\n"
	    "\n"
	    "stream {\n"
	    "\tid = %d;\n"
	    "\tevent.header := struct event_header_%s;\n"
	    "\tpacket.context := struct packet_context;\n"
	    "};\n"
	    "\n", TV_GEN_STREAM_ID, o->large_header ? "large" : "compact");
}

/* The whole metadata text, malloc'ed. */
static char *
gen_meta_text(const struct tv_gen_opts *o, const uint8_t uuid[16],
    size_t *len)
{
	char *buf = NULL;
	size_t i;

	*len = 0;
	gen_meta_header(o, uuid, &buf, len);
	for (i = 0; i < TV_ARRAY_SIZE(gen_events); i++)
		gen_addf(&buf, len,
		    "event {\n"
		    "\tname = \"%s\";\n"
		    "\tid = %u;\n"
		    "\tstream_id = %d;\n"
		    "\tfields := struct {\n"
		    "%s"
		    "\t};\n"
		    "};\n"
		    "\n", gen_events[i].name, gen_events[i].id,
		    TV_GEN_STREAM_ID, gen_events[i].fields);
	return buf;
}

/* Store @v in @p in the trace's byte order. */
static void
gen_meta_put32(uint8_t *p, uint32_t v, bool be)
{
	int i;

	for (i = 0; i < 4; i++)
		p[be ? 3 - i : i] = (uint8_t)(v >> (8 * i));
}

/* Write the metadata as packets of 4 KiB, each with its header. */
static bool
gen_meta_packets(FILE *fp, const struct tv_gen_opts *o,
    const uint8_t uuid[16], const char *text, size_t len)
{
	enum { PKT = 4096, HDR = 37 };
	uint8_t pkt[PKT];
	size_t off = 0, n;

	while (off < len) {
		n = TV_MIN(len - off, (size_t)(PKT - HDR));
		memset(pkt, 0, sizeof(pkt));
		gen_meta_put32(pkt, 0x75d11d57, o->big_endian);
		memcpy(pkt + 4, uuid, 16);
		gen_meta_put32(pkt + 20, 0, o->big_endian);	/* checksum */
		gen_meta_put32(pkt + 24, (uint32_t)((HDR + n) * 8),
		    o->big_endian);
		gen_meta_put32(pkt + 28, PKT * 8, o->big_endian);
		pkt[32] = 0;	/* compression */
		pkt[33] = 0;	/* encryption */
		pkt[34] = 0;	/* checksum scheme */
		pkt[35] = 1;	/* major */
		pkt[36] = 8;	/* minor */
		memcpy(pkt + HDR, text + off, n);
		if (fwrite(pkt, 1, PKT, fp) != PKT)
			return false;
		off += n;
	}
	return true;
}

/* Write OUT/metadata, as plain text with its signature or packetized. */
enum tv_status
tv_gen_write_metadata(const struct tv_gen_opts *o, const uint8_t uuid[16],
    struct tv_error *err)
{
	char path[4096];
	size_t len;
	char *text;
	FILE *fp;
	bool ok;

	snprintf(path, sizeof(path), "%s/metadata", o->out);
	fp = fopen(path, "wb");
	if (!fp)
		return tv_error_at(err, TV_IO, path, TV_NO_OFFSET, "%s",
		    strerror(errno));
	text = gen_meta_text(o, uuid, &len);
	if (o->packetized) {
		ok = gen_meta_packets(fp, o, uuid, text, len);
	} else {
		ok = fputs("/* CTF 1.8 */\n\n", fp) >= 0 &&
		    fwrite(text, 1, len, fp) == len;
	}
	free(text);
	if (fclose(fp) != 0)
		ok = false;
	if (!ok)
		return tv_error_at(err, TV_IO, path, TV_NO_OFFSET, "%s",
		    strerror(errno));
	return TV_OK;
}
