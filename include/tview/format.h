/*
 * The driver vtable: one per trace format (CTF, trace.dat, LTT).  The core
 * reaches a format only through these operations.
 */
#ifndef TVIEW_FORMAT_H
#define TVIEW_FORMAT_H

#include "tview/flat.h"
#include "tview/span.h"
#include "tview/state-rules.h"
#include "tview/time.h"
#include "tview/trace.h"

struct tv_strbuf;
struct tv_thread;

struct tv_format_ops {
	const char	*name;		/* "ctf", "tracedat", "ltt" */
	const char	*description;	/* N_() text for --info */
	/*
	 * How the reference reader shows the times of a clock that is not
	 * absolute (boot, local: seconds since boot): TV_TIME_WALL_UTC (0)
	 * as babeltrace2 does, TV_TIME_SECONDS as trace-cmd report does.
	 */
	enum tv_time_style	 plain_clock_style;
	/*
	 * The digits after the second the reference reader prints: 6 for
	 * trace-cmd report's microseconds; 0 stands for 9, the nanoseconds
	 * of babeltrace2 and LTTV.
	 */
	int			 time_digits;
	/*
	 * Cheap check of magic or layout.  TV_OK if this driver reads @path,
	 * TV_FORMAT if not (no message needed), anything else with a message
	 * if it is this format but cannot be read (e.g. CTF 2 for now).
	 */
	enum tv_status	(*probe)(const char *path, struct tv_error *err);
	/*
	 * Open @path and build the model, including every stream's packet
	 * index.  A directory may hold several traces: a driver appends one
	 * trace per trace it finds to @out (count in *nout).  On error with
	 * traces already appended, those are still usable.  @flags:
	 * TV_OPEN_FOLLOW (trace.h), the trace may still be written.
	 */
	enum tv_status	(*open)(const char *path, unsigned flags,
			    struct tv_trace ***out, uint32_t *nout,
			    struct tv_error *err);
	void		(*close)(struct tv_trace *trace);	/* free priv */
	/*
	 * Optional (NULL: the format cannot be followed): take in what was
	 * written to @trace since it was opened or last extended: packets
	 * appended to its stream files, stream files that appeared (new
	 * streams, or the next file of a rotated one), metadata that grew
	 * (new event classes).  Only appends: what is indexed stays as it
	 * is, new streams go at the end of trace->streams.  @flags as for
	 * open: with TV_OPEN_FOLLOW a trailing packet cut short is pending
	 * (and trace->pending_files counts files not readable yet); without
	 * it, the writer is done and it is an error.  *@grew true when
	 * anything was added.  No other thread reads the trace meanwhile.
	 */
	enum tv_status	(*extend)(struct tv_trace *trace, unsigned flags,
			    bool *grew, struct tv_error *err);
	/*
	 * Optional, while following: open the traces under @path that
	 * @set does not hold yet (a trace directory that appeared since:
	 * LTTng makes one per application or user as they register), into
	 * @out (see trace.h), with the directories walked that hold no
	 * trace.  @flags as for open; with TV_OPEN_FOLLOW a trace not
	 * readable yet (metadata empty or cut short) is only counted in
	 * out->pending.
	 */
	enum tv_status	(*discover)(const char *path, unsigned flags,
			    const struct tv_trace_set *set,
			    struct tv_discovery *out, struct tv_error *err);
	/* Decode the record headers of packet @pkt of @s into @out. */
	enum tv_status	(*decode_packet)(struct tv_stream *s, uint64_t pkt,
			    struct tv_packet_events *out);
	/*
	 * decode_packet reads every field of each record it yields (to
	 * find where the next one starts): decode_fields asked for no
	 * scope as a tree succeeds on those, so a pass that only needs
	 * that answer need not ask.
	 */
	bool		 walk_reads_fields;
	/*
	 * Decode the scopes of one event in @scopes (TV_SCOPE_BIT()s; more
	 * is allowed), lazily, into @arena.
	 */
	enum tv_status	(*decode_fields)(const struct tv_event *ev,
			    struct tv_arena *arena,
			    struct tv_event_fields *out, unsigned scopes,
			    struct tv_error *err);
	/*
	 * Optional (both or neither): tv_event_flat_plan() and
	 * tv_event_flat_read() (flat.h).  A plan is one tv_xmalloc'd block;
	 * flat_read is called from any thread and, like decode_fields, the
	 * core guards its reads of the mapping.
	 */
	void		*(*flat_plan)(const struct tv_event_class *ec,
			    const struct tv_flat_ask *asks, unsigned n);
	bool		 (*flat_read)(const struct tv_event *ev,
			    const void *plan, struct tv_flat_value *out);
	/*
	 * Optional: tv_event_visit_payload(), what a search that looks only
	 * at the payload's text needs: the payload's members that are not
	 * numbers, one at a time, with no tree for the payload nor values
	 * for its numbers.  Fails exactly when decode_fields would.  NULL:
	 * the core decodes the payload with decode_fields instead.
	 */
	enum tv_status	(*visit_payload)(const struct tv_event *ev,
			    struct tv_arena *arena, tv_member_fn fn,
			    void *ctx, struct tv_error *err);
	/*
	 * Print one record as the format's reference reader prints it
	 * (babeltrace2 for CTF, trace-cmd report for trace.dat, LTTV
	 * textDump for LTT): this is --dump.  No newline at the end.
	 */
	enum tv_status	(*print_record)(const struct tv_event *ev,
			    struct tv_arena *arena, struct tv_strbuf *out,
			    struct tv_error *err);
	/*
	 * print_record learns from the records it prints (trace.dat: the
	 * sched_switch plugin names tasks as it goes), so records must be
	 * printed one at a time in timeline order, never on worker threads.
	 */
	bool		 print_in_order;
	/*
	 * Optional (may be NULL): print_record for a reference reader that
	 * prints process columns from its own state engine (LTTV textDump):
	 * @run is the thread running on the record's CPU once the record
	 * is applied to the process state (tv_state_apply), NULL if none
	 * is known.  --dump calls it instead of print_record.  The driver
	 * may replay its reader's state from the records it is given, so
	 * --dump gives it every record from the trace start in timeline
	 * order, with @out NULL for those it does not print (before
	 * --begin, dropped by a filter): learn from them, print nothing.
	 */
	enum tv_status	(*print_record_state)(const struct tv_event *ev,
			    const struct tv_thread *run,
			    struct tv_arena *arena, struct tv_strbuf *out,
			    struct tv_error *err);
	/*
	 * Optional (may be NULL): the event's own text as the reference
	 * reader prints it after the event's name (trace-cmd report's
	 * info: function names, function_graph depth and durations,
	 * kernel stacks), the same text print_record prints, for the
	 * browser's rows, fields pane and search.  Lines separated by
	 * '\n' (a kernel stack), none at the end.
	 */
	enum tv_status	(*print_info)(const struct tv_event *ev,
			    struct tv_arena *arena, struct tv_strbuf *out,
			    struct tv_error *err);
	/*
	 * Optional (may be NULL): what the reference reader makes of one
	 * decoded value @v named @name (an array element: its array's
	 * name) in @scope of @ev: the symbol of a code address, the flags
	 * a flag word holds.  Appended to @out; false if nothing.
	 */
	bool		(*value_note)(const struct tv_event *ev,
			    enum tv_scope scope, const char *name,
			    const struct tv_value *v, struct tv_strbuf *out);
	/*
	 * Optional (may be NULL): what the reference reader prints once
	 * before the records of @trace (trace-cmd report's "cpus=N"), for
	 * --dump.  Empty output prints nothing; no newline at the end.
	 */
	enum tv_status	(*print_header)(const struct tv_trace *trace,
			    struct tv_strbuf *out, struct tv_error *err);
	/* Optional (may be NULL): the same, once after the records. */
	enum tv_status	(*print_footer)(const struct tv_trace *trace,
			    struct tv_strbuf *out, struct tv_error *err);
	/*
	 * Optional (may be NULL): a tv_xmalloc'd copy of packet @pkt's bytes
	 * (decompressed), *len of them, as record and value bit offsets
	 * count them; for the UI's hex dump.  When NULL, the packet's bytes
	 * are in its mapped file: tv_packet_bytes().
	 */
	enum tv_status	(*packet_copy)(const struct tv_stream *s, uint64_t pkt,
			    uint8_t **out, uint64_t *len, struct tv_error *err);
	/*
	 * Optional (may be NULL): the mapped bytes packet @pkt is read
	 * from, [*off, *off + *len) of *mf, for a sequential pass to give
	 * back (tv_packet_release); false when none are (decompressed
	 * data).  When NULL, [offset, offset + size) of the packet's file.
	 */
	bool		(*packet_span)(const struct tv_stream *s, uint64_t pkt,
			    const struct tv_mapfile **mf, uint64_t *off,
			    uint64_t *len);
	/*
	 * Optional (may be NULL): what this format's events do to the
	 * process state, a NULL-terminated list of rule tables (each ended
	 * by TV_SR_END), tried in order; the core matches and applies them
	 * (state-rules.h).  Without it the state layer only reads owners.
	 */
	const struct tv_state_rule *const *state_rules;
	/*
	 * Optional: for a rule whose action is TV_SA_HOOK, the action (enum
	 * tv_state_action, TV_SA_TASK_*) the decoded @payload of one event
	 * stands for; TV_SA_NONE when it changes nothing.
	 */
	uint8_t		(*state_hook)(const struct tv_state_rule *r,
			    const struct tv_value *payload);
	/*
	 * Optional: the spans this format records as entry and exit
	 * records (span.h), a table ended by TV_SPAN_RULE_END.
	 */
	const struct tv_span_rule *span_rules;
	/*
	 * Optional: the name of code address @addr in @trace (its symbol
	 * table, e.g. ftrace's kallsyms) into @buf; false if unknown.
	 * Safe to call from any thread.
	 */
	bool		(*symbol)(const struct tv_trace *trace, uint64_t addr,
			    char *buf, size_t size);
};

/**
 * tv_format_registry() - NULL-terminated list of the built-in drivers,
 * probe order (src/formats/format.c), for tv_trace_set_open.
 */
const struct tv_format_ops *const *tv_format_registry(void);

extern const struct tv_format_ops tv_ctf_format;
extern const struct tv_format_ops tv_ltt_format;
extern const struct tv_format_ops tv_tracedat_format;

#endif /* TVIEW_FORMAT_H */
