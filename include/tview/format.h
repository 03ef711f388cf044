/*
 * The driver vtable: one per trace format (CTF, trace.dat, LTT).  The core
 * reaches a format only through these operations.
 */
#ifndef TVIEW_FORMAT_H
#define TVIEW_FORMAT_H

#include "tview/state-rules.h"
#include "tview/trace.h"

struct tv_strbuf;

struct tv_format_ops {
	const char	*name;		/* "ctf", "tracedat", "ltt" */
	const char	*description;	/* N_() text for --info */
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
	 * traces already appended, those are still usable.
	 */
	enum tv_status	(*open)(const char *path, struct tv_trace ***out,
			    uint32_t *nout, struct tv_error *err);
	void		(*close)(struct tv_trace *trace);	/* free priv */
	/* Decode the record headers of packet @pkt of @s into @out. */
	enum tv_status	(*decode_packet)(struct tv_stream *s, uint64_t pkt,
			    struct tv_packet_events *out);
	/* Decode every scope of one event, lazily, into @arena. */
	enum tv_status	(*decode_fields)(const struct tv_event *ev,
			    struct tv_arena *arena,
			    struct tv_event_fields *out,
			    struct tv_error *err);
	/*
	 * Print one record as the format's reference reader prints it
	 * (babeltrace2 for CTF, trace-cmd report for trace.dat, LTTV
	 * textDump for LTT): this is --dump.  No newline at the end.
	 */
	enum tv_status	(*print_record)(const struct tv_event *ev,
			    struct tv_arena *arena, struct tv_strbuf *out,
			    struct tv_error *err);
	/*
	 * Optional (may be NULL): what the reference reader prints once
	 * before the records of @trace (trace-cmd report's "cpus=N"), for
	 * --dump.  Empty output prints nothing; no newline at the end.
	 */
	enum tv_status	(*print_header)(const struct tv_trace *trace,
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
