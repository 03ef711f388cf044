/*
 * LTTng live: reading a tracing session from lttng-relayd over its viewer
 * protocol, as babeltrace2's lttng-live source and Trace Compass do.  The
 * relay daemon is the transport; tview is one more viewer.  What arrives
 * is written to a local mirror directory, one CTF trace directory per
 * trace of the session (metadata and one file per stream, packets
 * appended in the order the relay gives them), so every reader of tview
 * (the index, the merger, --follow) reads it as it reads any CTF trace
 * that grows.
 *
 * URLs are babeltrace2's: net://HOST[:PORT] names a relay daemon (its
 * sessions are listed), net://HOST[:PORT]/host/HOSTNAME/SESSION one of
 * its sessions.  The live port defaults to 5344.
 */
#ifndef TVIEW_LIVE_H
#define TVIEW_LIVE_H

#include <stdio.h>

#include "tview/tview.h"
#include "tview/error.h"

/*
 * Below each trace directory of the mirror, one file per stream, named as
 * the stream: the clock value (decimal) before which the relay daemon
 * said the stream holds no event (its inactivity beacons), so that
 * --follow need not wait for an idle CPU's next packet.  A dot directory:
 * no reader takes it for a stream.
 */
#define TV_LIVE_BEACON_DIR	".tview-live"

/* The relay daemon's default live (viewer) port. */
#define TV_LIVE_DEFAULT_PORT	5344

/* A parsed net:// URL. */
struct tv_live_url {
	char	host[256];
	char	port[8];
	char	hostname[65];	/* "" when the URL names no session */
	char	session[256];
};

struct tv_live;

/** tv_live_is_url() - does @arg name a relay daemon (net:// or net4://)? */
bool		 tv_live_is_url(const char *arg);

/**
 * tv_live_parse_url() - split @arg into @u; a URL with a host part but no
 * "/host/HOSTNAME/SESSION" leaves hostname and session empty.
 */
enum tv_status	 tv_live_parse_url(const char *arg, struct tv_live_url *u,
		    struct tv_error *err);

/**
 * tv_live_list() - print the sessions of the relay daemon @u names, one
 * line each, in babeltrace2's form (the URL to open, then timer, streams
 * and clients).
 */
enum tv_status	 tv_live_list(const struct tv_live_url *u, FILE *out,
		    struct tv_error *err);

/**
 * tv_live_attach() - connect to the relay daemon, attach to the session @u
 * names (from its beginning) and mirror it below the existing, empty
 * directory @dir.  Nothing is fetched yet: see tv_live_poll().
 */
enum tv_status	 tv_live_attach(const struct tv_live_url *u, const char *dir,
		    struct tv_live **out, struct tv_error *err);

/**
 * tv_live_poll() - one round: new metadata, new streams and every packet
 * the relay has for each stream, appended to the mirror.  *@grew tells
 * whether any byte was added; *@ended turns true once every stream is
 * closed (the session was destroyed) and nothing more will come.
 */
enum tv_status	 tv_live_poll(struct tv_live *lv, bool *grew, bool *ended,
		    struct tv_error *err);

/**
 * tv_live_traces() - the trace directories of the mirror so far (one per
 * trace of the session that has metadata); borrowed, valid until the next
 * tv_live_poll().
 */
const char	*const *tv_live_traces(const struct tv_live *lv, size_t *n);

/** tv_live_close() - detach and free; the mirror stays on disk. */
void		 tv_live_close(struct tv_live *lv);

#endif /* TVIEW_LIVE_H */
