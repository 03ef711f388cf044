/*
 * --info: a summary of a trace set for people and scripts: format, path,
 * environment, clocks, streams with their files, packet counts and time
 * bounds, event classes with their event counts, lost data and the time
 * span.  The counts come from tv_trace_set_count() (the state cache, or
 * the record headers of every packet when cheap or asked for); the rest
 * from the metadata and the packet indexes.
 */
#include "tview/tview.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "tview/error.h"
#include "tview/format.h"
#include "tview/i18n.h"
#include "tview/trace.h"
#include "cli.h"

/* 1980-01-01 in ns: earlier times are shown as seconds, not dates. */
#define INFO_EPOCH_1980_NS	(315532800LL * 1000000000LL)

/* Totals over the packet index of one stream, or of the set. */
struct info_totals {
	uint64_t	 events;	/* the set's only */
	uint64_t	 discarded;
	uint64_t	 lost_packets;
	int64_t		 first;
	int64_t		 last;
};

/* Format @ns as a full date and time in @style (dates for wall styles). */
static const char *
info_time(int64_t ns, enum tv_time_style style, char *buf, size_t size)
{
	char part[64];
	struct tm tm;
	time_t secs;

	if (ns == TV_TIME_NONE) {
		snprintf(buf, size, "%s", _("unknown"));
		return buf;
	}
	/*
	 * Times before 1980 come from clocks that count from boot, not from
	 * the epoch (trace.dat's "local" clock): a date would mislead.
	 */
	if ((style != TV_TIME_WALL_UTC && style != TV_TIME_WALL_LOCAL) ||
	    ns < INFO_EPOCH_1980_NS)
		return tv_time_format(ns, TV_TIME_SECONDS, 0, buf, size);
	secs = (time_t)(ns / 1000000000);
	if (ns % 1000000000 < 0)
		secs--;
	if ((style == TV_TIME_WALL_UTC ? gmtime_r(&secs, &tm) :
	    localtime_r(&secs, &tm)) == NULL)
		return tv_time_format(ns, TV_TIME_SECONDS, 0, buf, size);
	tv_time_format(ns, style, 0, part, sizeof(part));
	snprintf(buf, size, "%04d-%02d-%02d %s%s", tm.tm_year + 1900,
	    tm.tm_mon + 1, tm.tm_mday, part,
	    style == TV_TIME_WALL_UTC ? " UTC" : "");
	return buf;
}

/*
 * Print text that comes from the trace (names, environment values) with
 * control bytes, quotes and backslashes escaped, so a hostile trace cannot
 * drive the terminal.
 */
static void
info_puts(const char *s)
{
	const unsigned char *p;

	if (s == NULL)
		return;
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '\\' || *p == '"')
			printf("\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			printf("\\x%02x", *p);
		else
			putchar(*p);
	}
}

/* The name of stream @s, relative to its trace's directory if inside. */
static const char *
info_stream_name(const struct tv_stream *s)
{
	const char *dir = s->trace->path;
	size_t n = strlen(dir);

	if (strncmp(s->name, dir, n) == 0 && s->name[n] == '/' &&
	    s->name[n + 1] != '\0')
		return s->name + n + 1;
	return s->name;
}

/* Sum what the packet index of @s says about lost data and time bounds. */
static void
info_stream_totals(const struct tv_stream *s, struct info_totals *t)
{
	uint64_t i, prev_seq = TV_COUNT_UNKNOWN;

	memset(t, 0, sizeof(*t));
	t->first = TV_TIME_NONE;
	t->last = TV_TIME_NONE;
	for (i = 0; i < s->npackets; i++) {
		const struct tv_packet *p = &s->packets[i];

		t->discarded += p->discarded;
		if (p->seq_num != TV_COUNT_UNKNOWN &&
		    prev_seq != TV_COUNT_UNKNOWN && p->seq_num > prev_seq + 1)
			t->lost_packets += p->seq_num - prev_seq - 1;
		else if (p->flags & TV_PACKET_LOST_BEFORE)
			t->lost_packets++;
		prev_seq = p->seq_num;
		if (p->ts_begin != TV_TIME_NONE &&
		    (t->first == TV_TIME_NONE || p->ts_begin < t->first))
			t->first = p->ts_begin;
		if (p->ts_end != TV_TIME_NONE &&
		    (t->last == TV_TIME_NONE || p->ts_end > t->last))
			t->last = p->ts_end;
	}
}

/* The metadata annotations of @trace, if any: "where: value" each. */
static void
info_attrs(const struct tv_trace *trace)
{
	uint32_t i;

	if (!trace->nattrs)
		return;
	printf("  %s (%" PRIu32 "):\n", _("Attributes and extensions"),
	    trace->nattrs);
	for (i = 0; i < trace->nattrs; i++) {
		fputs("    ", stdout);
		info_puts(trace->attrs[i].key);
		fputs(": ", stdout);
		info_puts(trace->attrs[i].str);
		putchar('\n');
	}
}

/* The environment of @trace: one "key = value" line each. */
static void
info_env(const struct tv_trace *trace)
{
	uint32_t i;

	printf("  %s (%" PRIu32 "):\n", _("Environment"), trace->nenv);
	for (i = 0; i < trace->nenv; i++) {
		const struct tv_env_entry *e = &trace->env[i];

		printf("    ");
		info_puts(e->key);
		if (e->str != NULL) {
			printf(" = \"");
			info_puts(e->str);
			printf("\"\n");
		} else {
			printf(" = %" PRId64 "\n", e->num);
		}
	}
}

/* The clocks of @trace: name, frequency and offset. */
static void
info_clocks(const struct tv_trace *trace)
{
	uint32_t i;

	printf("  %s (%" PRIu32 "):\n", _("Clocks"), trace->nclocks);
	for (i = 0; i < trace->nclocks; i++) {
		const struct tv_clock *c = &trace->clocks[i];

		printf("    ");
		info_puts(c->name);
		printf(": ");
		printf(_("frequency %" PRIu64 " Hz, offset %" PRId64
		    " s + %" PRId64 " cycles"), c->freq, c->offset_s,
		    c->offset_cycles);
		if (c->absolute)
			printf(", %s", _("absolute"));
		putchar('\n');
		if (c->description != NULL) {
			printf("      ");
			info_puts(c->description);
			putchar('\n');
		}
	}
}

/* The streams of @trace with their files, packets and bounds; adds up. */
static void
info_streams(const struct tv_trace *trace, enum tv_time_style style,
    struct info_totals *sum)
{
	char b1[96], b2[96];
	uint32_t i, f;

	printf("  %s (%" PRIu32 "):\n", _("Streams"), trace->nstreams);
	for (i = 0; i < trace->nstreams; i++) {
		const struct tv_stream *s = trace->streams[i];
		struct info_totals t;

		info_stream_totals(s, &t);
		sum->discarded += t.discarded;
		sum->lost_packets += t.lost_packets;
		printf("    ");
		info_puts(info_stream_name(s));
		printf(": ");
		printf(_("class %" PRIu64), s->class_id);
		if (s->cpu != TV_CPU_UNKNOWN)
			printf(_(", CPU %" PRId32), s->cpu);
		printf(P_(", %" PRIu64 " packet", ", %" PRIu64 " packets",
		    s->npackets), s->npackets);
		putchar('\n');
		for (f = 0; f < s->nfiles; f++) {
			printf("      %s: ", _("file"));
			info_puts(s->files[f].path);
			putchar('\n');
		}
		printf("      %s: %s\n", _("first event"),
		    info_time(s->ev_first, style, b1, sizeof(b1)));
		printf("      %s: %s\n", _("last event"),
		    info_time(s->ev_last, style, b2, sizeof(b2)));
		printf("      %s: %s - ", _("packets"),
		    info_time(t.first, style, b1, sizeof(b1)));
		printf("%s\n", info_time(t.last, style, b2, sizeof(b2)));
		if (t.discarded != 0 || t.lost_packets != 0)
			printf("      %s: %" PRIu64 ", %s: %" PRIu64 "\n",
			    _("discarded events"), t.discarded,
			    _("lost packets"), t.lost_packets);
	}
}

/*
 * Whether --info lists class @c.  A class with the id UINT64_MAX is not
 * the format's: a driver makes it for records whose type the trace does
 * not describe (trace.dat's "unknown"), so it is listed only when such
 * records exist.
 */
static bool
info_class_shown(const struct tv_event_class *c)
{
	return c->id != UINT64_MAX || (c->count != TV_COUNT_UNKNOWN &&
	    c->count != 0);
}

/*
 * The event classes of @trace: id, name, stream class and how many events
 * of it the trace holds; adds them up in *@total.
 */
static void
info_classes(const struct tv_trace *trace, uint64_t *total)
{
	uint32_t i, n = 0;

	for (i = 0; i < trace->nclasses; i++)
		n += info_class_shown(trace->classes[i]);
	printf("  %s (%" PRIu32 "):\n", _("Event classes"), n);
	for (i = 0; i < trace->nclasses; i++) {
		const struct tv_event_class *c = trace->classes[i];

		if (!info_class_shown(c))
			continue;
		if (c->id == UINT64_MAX)
			printf("    - ");
		else
			printf("    %" PRIu64 " ", c->id);
		info_puts(c->name);
		putchar(' ');
		if (c->id == UINT64_MAX)
			printf("%s", _("(records of no known type)"));
		else
			printf(_("(stream class %" PRIu64 ")"),
			    c->stream_class_id);
		if (c->count != TV_COUNT_UNKNOWN) {
			printf(": %" PRIu64, c->count);
			*total += c->count;
		}
		putchar('\n');
	}
}

/* Print one trace; add its lost data to @sum. */
static void
info_trace(const struct tv_trace *trace, enum tv_time_style style,
    struct info_totals *sum)
{
	char uuid[40];
	size_t n;
	int i;

	printf("%s: ", _("Trace"));
	info_puts(trace->name);
	printf("\n  %s: ", _("Path"));
	info_puts(trace->path);
	putchar('\n');
	printf("  %s: %s (%s)\n", _("Format"), trace->ops->name,
	    _(trace->ops->description));
	if (trace->version)
		printf("  %s: %s\n", _("Format version"), trace->version);
	if (trace->has_uuid) {
		for (i = 0, n = 0; i < 16; i++) {
			if (i == 4 || i == 6 || i == 8 || i == 10)
				uuid[n++] = '-';
			n += snprintf(uuid + n, sizeof(uuid) - n, "%02x",
			    trace->uuid[i]);
		}
		printf("  UUID: %s\n", uuid);
	}
	info_env(trace);
	info_attrs(trace);
	info_clocks(trace);
	info_streams(trace, style, sum);
	info_classes(trace, &sum->events);
}

/* "LABEL: BEGIN - END (D s)", the line of a span. */
static void
info_span(const char *label, int64_t b, int64_t e, enum tv_time_style style)
{
	char b1[96], b2[96], b3[96];

	printf("%s: %s - %s", label, info_time(b, style, b1, sizeof(b1)),
	    info_time(e, style, b2, sizeof(b2)));
	if (b != TV_TIME_NONE && e != TV_TIME_NONE)
		printf(" (%s s)", tv_time_format(e - b, TV_TIME_SECONDS, 0,
		    b3, sizeof(b3)));
	putchar('\n');
}

/* --info; see cli.h. */
int
tv_cli_info(struct tv_trace_set *set, const struct tv_cli_options *o)
{
	struct info_totals sum;
	struct tv_error err;
	enum tv_status st;
	bool counted;
	uint32_t i;

	tv_error_clear(&err);
	st = tv_trace_set_count(set, o->info_counts ? TV_COUNT_ALWAYS :
	    TV_COUNT_IF_CHEAP, &counted, &err);
	memset(&sum, 0, sizeof(sum));
	for (i = 0; i < set->ntraces; i++)
		info_trace(set->traces[i], o->time_style, &sum);
	if (counted)
		printf("%s: %" PRIu64 "\n", _("Events"), sum.events);
	else
		printf("%s: %s\n", _("Events"), _("not counted (tview "
		    "--info=counts counts them; the browser saves them when "
		    "it has read the trace once)"));
	printf("%s: %" PRIu64 "\n", _("Discarded events"), sum.discarded);
	printf("%s: %" PRIu64 "\n", _("Lost packets"), sum.lost_packets);
	info_span(_("Time span"), set->ts_begin, set->ts_end, o->time_style);
	info_span(_("Packets span"), set->pkt_begin, set->pkt_end,
	    o->time_style);
	if (fflush(stdout) != 0) {
		tv_error_set(&err, TV_IO, NULL, _("cannot write the output"));
		tv_cli_error(&err);
		return 1;
	}
	if (st != TV_OK) {
		/* The counts hold what was readable; say what was not. */
		tv_cli_error(&err);
		return 1;
	}
	return 0;
}
