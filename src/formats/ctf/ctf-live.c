/*
 * The LTTng live viewer protocol (lttng-relayd's live port), client side,
 * and the mirror it fills.  See live.h for what it is for.
 *
 * The protocol, version 2.4: every command is a 16-byte header (payload
 * size, command, command version, big-endian like every integer on the
 * wire) and a fixed payload; every reply is a fixed structure, sometimes
 * followed by records or bytes whose count it gives.  A viewer connects,
 * creates its viewer session, lists or attaches to a tracing session,
 * then asks, stream by stream, for the next index entry and the packet
 * it describes, and for new metadata and new streams when a reply's
 * flags say so.
 *
 * The relay is a peer on the network, so nothing it says is trusted: each
 * count and length is checked against a named cap before anything is
 * allocated or read, fixed-size strings are cut at their size, and paths
 * are reduced to plain components below the mirror.  A socket that stops
 * answering fails after LIVE_IO_TIMEOUT_S.
 */
#include "tview/tview.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "tview/bytes.h"
#include "tview/dir.h"
#include "tview/error.h"
#include "tview/fdio.h"
#include "tview/i18n.h"
#include "tview/live.h"
#include "tview/util.h"

/* Commands and reply codes of the viewer protocol. */
enum {
	LIVE_CMD_CONNECT = 1,
	LIVE_CMD_LIST_SESSIONS = 2,
	LIVE_CMD_ATTACH_SESSION = 3,
	LIVE_CMD_GET_NEXT_INDEX = 4,
	LIVE_CMD_GET_PACKET = 5,
	LIVE_CMD_GET_METADATA = 6,
	LIVE_CMD_GET_NEW_STREAMS = 7,
	LIVE_CMD_CREATE_SESSION = 8,
};
enum { LIVE_FLAG_NEW_METADATA = 1, LIVE_FLAG_NEW_STREAM = 2 };
enum { LIVE_ATTACH_OK = 1 };
enum {
	LIVE_INDEX_OK = 1, LIVE_INDEX_RETRY, LIVE_INDEX_HUP, LIVE_INDEX_ERR,
	LIVE_INDEX_INACTIVE, LIVE_INDEX_EOF
};
enum {
	LIVE_PACKET_OK = 1, LIVE_PACKET_RETRY, LIVE_PACKET_ERR,
	LIVE_PACKET_EOF
};
enum { LIVE_META_OK = 1, LIVE_META_NONE, LIVE_META_ERR };
enum {
	LIVE_STREAMS_OK = 1, LIVE_STREAMS_NONE, LIVE_STREAMS_ERR,
	LIVE_STREAMS_HUP
};

/* Sizes of the packed wire structures. */
#define LIVE_HDR_SIZE		16
#define LIVE_CONNECT_SIZE	20
#define LIVE_SESSION_SIZE	(8 + 4 + 4 + 4 + 64 + 255)
#define LIVE_STREAM_SIZE	(8 + 8 + 4 + 4096 + 255)
#define LIVE_INDEX_SIZE		(7 * 8 + 4 + 4)
#define LIVE_PATH_MAX		4096
#define LIVE_NAME_MAX		255

/* The protocol version spoken: 2.4 needs a viewer session first. */
#define LIVE_MAJOR		2
#define LIVE_MINOR		4

/* Caps on what the relay may make tview hold or do. */
#define LIVE_MAX_SESSIONS	65536u
#define LIVE_MAX_STREAMS	65536u
#define LIVE_MAX_META_CHUNK	(64u << 20)
#define LIVE_MAX_PACKET		(256u << 20)
#define LIVE_PACKETS_PER_ROUND	1024
#define LIVE_RETRIES		200
#define LIVE_IO_TIMEOUT_S	30

struct live_stream {
	uint64_t	 id;
	uint64_t	 trace_id;
	bool		 metadata;
	bool		 hup;
	int		 fd;		/* the mirror file, appended to */
	char		*path;		/* owned: its trace directory */
	char		*name;		/* owned: its file's name */
	uint64_t	 beacon;	/* the last beacon written, 0: none */
};

struct tv_live {
	int			 fd;
	struct tv_live_url	 u;
	char			 where[300];	/* "HOST:PORT" for errors */
	char			*dir;		/* owned: the mirror */
	uint64_t		 session_id;
	struct live_stream	*streams;	/* owned */
	size_t			 nstreams;
	bool			 session_hup;
	char			**traces;	/* owned: trace dirs, metadata seen */
	size_t			 ntraces;
};

/* Fail with a message about the relay at @lv->where. */
static enum tv_status
live_fail(const struct tv_live *lv, struct tv_error *err, enum tv_status st,
    const char *what)
{
	return tv_error_set(err, st, NULL, "net://%s: %s", lv->where, what);
}

/* Fail on an errno from the socket or the mirror. */
static enum tv_status
live_fail_errno(const struct tv_live *lv, struct tv_error *err,
    const char *what, int e)
{
	char msg[400];

	snprintf(msg, sizeof(msg), "%s: %s", what, e ? strerror(e) :
	    _("the relay daemon closed the connection"));
	return live_fail(lv, err, TV_IO, msg);
}

/* See live.h. */
bool
tv_live_is_url(const char *arg)
{
	return strncmp(arg, "net://", 6) == 0 ||
	    strncmp(arg, "net4://", 7) == 0;
}

/* Copy [@b, @e) into @dst of @size bytes; false if it does not fit. */
static bool
live_copy(char *dst, size_t size, const char *b, const char *e)
{
	if (e < b || (size_t)(e - b) >= size)
		return false;
	memcpy(dst, b, (size_t)(e - b));
	dst[e - b] = '\0';
	return true;
}

/* See live.h. */
enum tv_status
tv_live_parse_url(const char *arg, struct tv_live_url *u,
    struct tv_error *err)
{
	const char *p = strstr(arg, "://"), *host, *end, *colon;
	const char *hn, *se;

	memset(u, 0, sizeof(*u));
	if (!p || !tv_live_is_url(arg))
		goto bad;
	host = p + 3;
	end = strchr(host, '/');
	if (!end)
		end = host + strlen(host);
	colon = memchr(host, ':', (size_t)(end - host));
	if (!live_copy(u->host, sizeof(u->host), host, colon ? colon : end) ||
	    u->host[0] == '\0')
		goto bad;
	if (colon) {
		const char *c;

		if (!live_copy(u->port, sizeof(u->port), colon + 1, end) ||
		    u->port[0] == '\0')
			goto bad;
		for (c = u->port; *c; c++)
			if (*c < '0' || *c > '9')
				goto bad;
	} else {
		snprintf(u->port, sizeof(u->port), "%d", TV_LIVE_DEFAULT_PORT);
	}
	if (*end == '\0' || strcmp(end, "/") == 0)
		return TV_OK;
	if (strncmp(end, "/host/", 6) != 0)
		goto bad;
	hn = end + 6;
	se = strchr(hn, '/');
	if (!se || !live_copy(u->hostname, sizeof(u->hostname), hn, se) ||
	    u->hostname[0] == '\0' || se[1] == '\0' || strchr(se + 1, '/') ||
	    !live_copy(u->session, sizeof(u->session), se + 1,
	    se + 1 + strlen(se + 1)))
		goto bad;
	return TV_OK;
bad:
	return tv_error_set(err, TV_SYNTAX, NULL,
	    _("%s: not a relay daemon URL (net://HOST[:PORT] or "
	    "net://HOST[:PORT]/host/HOSTNAME/SESSION)"), arg);
}

/* Send all of @buf. */
static enum tv_status
live_send(struct tv_live *lv, const uint8_t *buf, size_t len,
    struct tv_error *err)
{
	while (len > 0) {
		ssize_t n = send(lv->fd, buf, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return live_fail_errno(lv, err, _("send"),
			    n < 0 ? errno : 0);
		buf += n;
		len -= (size_t)n;
	}
	return TV_OK;
}

/* Receive exactly @len bytes into @buf. */
static enum tv_status
live_recv(struct tv_live *lv, void *buf, size_t len, struct tv_error *err)
{
	uint8_t *p = buf;

	while (len > 0) {
		ssize_t n = recv(lv->fd, p, len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return live_fail_errno(lv, err, _("receive"),
			    n < 0 ? errno : 0);
		p += n;
		len -= (size_t)n;
	}
	return TV_OK;
}

/* Put the big-endian @v of @size bytes at @p. */
static void
live_put(uint8_t *p, uint64_t v, unsigned size)
{
	while (size-- > 0) {
		p[size] = (uint8_t)v;
		v >>= 8;
	}
}

/* Send command @cmd with the @len bytes of @payload. */
static enum tv_status
live_cmd(struct tv_live *lv, uint32_t cmd, const uint8_t *payload,
    size_t len, struct tv_error *err)
{
	uint8_t buf[LIVE_HDR_SIZE + 32];

	live_put(buf, len, 8);
	live_put(buf + 8, cmd, 4);
	live_put(buf + 12, 0, 4);
	if (len > 0)
		memcpy(buf + LIVE_HDR_SIZE, payload, len);
	return live_send(lv, buf, LIVE_HDR_SIZE + len, err);
}

/* Connect to the relay and open a viewer session on it. */
static enum tv_status
live_connect(struct tv_live *lv, struct tv_error *err)
{
	struct addrinfo hints, *res, *ai;
	struct timeval tmo = { LIVE_IO_TIMEOUT_S, 0 };
	uint8_t b[LIVE_CONNECT_SIZE];
	enum tv_status st;
	int rc, e = 0;

	snprintf(lv->where, sizeof(lv->where), "%s:%s", lv->u.host, lv->u.port);
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	rc = getaddrinfo(lv->u.host, lv->u.port, &hints, &res);
	if (rc != 0)
		return live_fail(lv, err, TV_IO, gai_strerror(rc));
	lv->fd = -1;
	for (ai = res; ai && lv->fd < 0; ai = ai->ai_next) {
		lv->fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
		    ai->ai_protocol);
		if (lv->fd < 0) {
			e = errno;
			continue;
		}
		(void)setsockopt(lv->fd, SOL_SOCKET, SO_RCVTIMEO, &tmo,
		    sizeof(tmo));
		(void)setsockopt(lv->fd, SOL_SOCKET, SO_SNDTIMEO, &tmo,
		    sizeof(tmo));
		if (connect(lv->fd, ai->ai_addr, ai->ai_addrlen) != 0) {
			e = errno;
			close(lv->fd);
			lv->fd = -1;
		}
	}
	freeaddrinfo(res);
	if (lv->fd < 0)
		return live_fail_errno(lv, err, _("connect"), e);
	memset(b, 0, sizeof(b));
	live_put(b + 8, LIVE_MAJOR, 4);
	live_put(b + 12, LIVE_MINOR, 4);
	live_put(b + 16, 1, 4);		/* a command connection */
	if ((st = live_cmd(lv, LIVE_CMD_CONNECT, b, sizeof(b), err)) ||
	    (st = live_recv(lv, b, sizeof(b), err)))
		return st;
	if (tv_be32(b + 8) != LIVE_MAJOR)
		return live_fail(lv, err, TV_UNSUPPORTED,
		    _("the relay daemon speaks another major version of the "
		    "live protocol"));
	if (tv_be32(b + 12) < LIVE_MINOR)
		return TV_OK;	/* older relays have no viewer sessions */
	if ((st = live_cmd(lv, LIVE_CMD_CREATE_SESSION, NULL, 0, err)) ||
	    (st = live_recv(lv, b, 4, err)))
		return st;
	if (tv_be32(b) != 1)
		return live_fail(lv, err, TV_IO,
		    _("the relay daemon refused a viewer session"));
	return TV_OK;
}

/* A fixed-size string of the wire, cut at @size. */
static void
live_str(char *dst, const uint8_t *src, size_t size)
{
	memcpy(dst, src, size);
	dst[size] = '\0';
}

/* Session record fields. */
struct live_session {
	uint64_t	id;
	uint32_t	timer, clients, streams;
	char		hostname[65];
	char		name[LIVE_NAME_MAX + 1];
};

/* List the relay's sessions into *@out (owned) and *@n. */
static enum tv_status
live_sessions(struct tv_live *lv, struct live_session **out, size_t *n,
    struct tv_error *err)
{
	uint8_t b[LIVE_SESSION_SIZE];
	enum tv_status st;
	uint32_t count, i;

	*out = NULL;
	*n = 0;
	if ((st = live_cmd(lv, LIVE_CMD_LIST_SESSIONS, NULL, 0, err)) ||
	    (st = live_recv(lv, b, 4, err)))
		return st;
	count = tv_be32(b);
	if (count > LIVE_MAX_SESSIONS)
		return live_fail(lv, err, TV_CORRUPT,
		    _("the relay daemon lists too many sessions"));
	*out = tv_xcalloc(count ? count : 1, sizeof(**out));
	for (i = 0; i < count; i++) {
		struct live_session *s = &(*out)[i];

		if ((st = live_recv(lv, b, sizeof(b), err)))
			return st;
		s->id = tv_be64(b);
		s->timer = tv_be32(b + 8);
		s->clients = tv_be32(b + 12);
		s->streams = tv_be32(b + 16);
		live_str(s->hostname, b + 20, 64);
		live_str(s->name, b + 84, LIVE_NAME_MAX);
		(*n)++;
	}
	return TV_OK;
}

/* See live.h. */
enum tv_status
tv_live_list(const struct tv_live_url *u, FILE *out, struct tv_error *err)
{
	struct tv_live lv;
	struct live_session *ss = NULL;
	enum tv_status st;
	size_t n = 0, i;

	memset(&lv, 0, sizeof(lv));
	lv.u = *u;
	lv.fd = -1;
	st = live_connect(&lv, err);
	if (st == TV_OK)
		st = live_sessions(&lv, &ss, &n, err);
	for (i = 0; st == TV_OK && i < n; i++)
		fprintf(out, "net://%s/host/%s/%s (timer = %u, %u stream(s), "
		    "%u client(s) connected)\n", lv.where, ss[i].hostname,
		    ss[i].name, ss[i].timer, ss[i].streams, ss[i].clients);
	free(ss);
	if (lv.fd >= 0)
		close(lv.fd);
	return st;
}

/*
 * The directory of the mirror for relay path @path: its components below
 * @lv->dir, without empty, "." and ".." ones; NULL when none is left.
 */
static char *
live_trace_dir(const struct tv_live *lv, const char *path)
{
	struct tv_strbuf sb;
	const char *p = path;

	tv_strbuf_init(&sb);
	tv_strbuf_adds(&sb, lv->dir);
	while (*p) {
		size_t len = strcspn(p, "/");

		if (len > 0 && !(len == 1 && p[0] == '.') &&
		    !(len == 2 && p[0] == '.' && p[1] == '.')) {
			tv_strbuf_addc(&sb, '/');
			tv_strbuf_add(&sb, p, len);
		}
		p += len;
		if (*p == '/')
			p++;
	}
	return sb.buf;	/* owned by the caller now */
}

/* Add @path to the trace directories if it is not there. */
static void
live_add_trace(struct tv_live *lv, const char *path)
{
	size_t i;

	for (i = 0; i < lv->ntraces; i++)
		if (strcmp(lv->traces[i], path) == 0)
			return;
	lv->traces = tv_xrealloc(lv->traces,
	    (lv->ntraces + 2) * sizeof(*lv->traces));
	lv->traces[lv->ntraces++] = tv_xstrdup(path);
	lv->traces[lv->ntraces] = NULL;
}

/* Read @count stream records and open their mirror files. */
static enum tv_status
live_read_streams(struct tv_live *lv, uint32_t count, struct tv_error *err)
{
	uint8_t *b;
	enum tv_status st = TV_OK;
	uint32_t i;

	if (count > LIVE_MAX_STREAMS - lv->nstreams)
		return live_fail(lv, err, TV_CORRUPT,
		    _("the relay daemon announces too many streams"));
	b = tv_xmalloc(LIVE_STREAM_SIZE);
	lv->streams = tv_xrealloc(lv->streams,
	    (lv->nstreams + count + 1) * sizeof(*lv->streams));
	for (i = 0; i < count; i++) {
		struct live_stream *s = &lv->streams[lv->nstreams];
		char path[LIVE_PATH_MAX + 1], name[LIVE_NAME_MAX + 1];
		char *file;

		if ((st = live_recv(lv, b, LIVE_STREAM_SIZE, err)))
			break;
		live_str(path, b + 20, LIVE_PATH_MAX);
		live_str(name, b + 20 + LIVE_PATH_MAX, LIVE_NAME_MAX);
		memset(s, 0, sizeof(*s));
		s->id = tv_be64(b);
		s->trace_id = tv_be64(b + 8);
		s->metadata = tv_be32(b + 16) != 0;
		if (name[0] == '\0' || strchr(name, '/') ||
		    strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
			st = live_fail(lv, err, TV_CORRUPT,
			    _("the relay daemon names a stream badly"));
			break;
		}
		s->path = live_trace_dir(lv, path);
		if (!tv_dir_make(s->path, 0755)) {
			st = live_fail_errno(lv, err, s->path, errno);
			free(s->path);
			break;
		}
		(void)tv_xasprintf(&file, "%s/%s", s->path,
		    s->metadata ? "metadata" : name);
		s->fd = open(file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
		    0644);
		if (s->fd < 0) {
			st = live_fail_errno(lv, err, file, errno);
			free(file);
			free(s->path);
			break;
		}
		free(file);
		s->name = tv_xstrdup(name);
		lv->nstreams++;
	}
	free(b);
	return st;
}

/* Ask for streams added since the last ask. */
static enum tv_status
live_new_streams(struct tv_live *lv, struct tv_error *err)
{
	uint8_t b[8];
	enum tv_status st;

	live_put(b, lv->session_id, 8);
	if ((st = live_cmd(lv, LIVE_CMD_GET_NEW_STREAMS, b, 8, err)) ||
	    (st = live_recv(lv, b, 8, err)))
		return st;
	switch (tv_be32(b)) {
	case LIVE_STREAMS_OK:
		return live_read_streams(lv, tv_be32(b + 4), err);
	case LIVE_STREAMS_NONE:
		return TV_OK;
	case LIVE_STREAMS_HUP:
		lv->session_hup = true;
		return TV_OK;
	default:
		return live_fail(lv, err, TV_IO,
		    _("the relay daemon failed to list new streams"));
	}
}

/* Append @len bytes of @buf to stream @s's mirror file. */
static enum tv_status
live_append(struct tv_live *lv, struct live_stream *s, const uint8_t *buf,
    size_t len, struct tv_error *err)
{
	if (!tv_write_all(s->fd, buf, len))
		return live_fail_errno(lv, err, s->path, errno);
	return TV_OK;
}

/* Fetch all new metadata of metadata stream @mi; *@grew when any came. */
static enum tv_status
live_metadata(struct tv_live *lv, size_t mi, bool *grew,
    struct tv_error *err)
{
	struct live_stream *s = &lv->streams[mi];
	enum tv_status st;
	uint8_t b[12], *data;
	uint64_t len;

	for (;;) {
		live_put(b, s->id, 8);
		if ((st = live_cmd(lv, LIVE_CMD_GET_METADATA, b, 8, err)) ||
		    (st = live_recv(lv, b, 12, err)))
			return st;
		len = tv_be64(b);
		if (tv_be32(b + 8) == LIVE_META_NONE)
			return TV_OK;
		if (tv_be32(b + 8) != LIVE_META_OK)
			return live_fail(lv, err, TV_IO,
			    _("the relay daemon failed to send metadata"));
		if (len > LIVE_MAX_META_CHUNK)
			return live_fail(lv, err, TV_CORRUPT,
			    _("the relay daemon sends too much metadata at "
			    "once"));
		data = tv_xmalloc(len ? len : 1);
		st = live_recv(lv, data, len, err);
		if (st == TV_OK)
			st = live_append(lv, s, data, len, err);
		free(data);
		if (st)
			return st;
		if (len > 0) {
			*grew = true;
			live_add_trace(lv, s->path);
		}
	}
}

/* Fetch the new metadata of the trace @trace_id (its metadata stream). */
static enum tv_status
live_trace_metadata(struct tv_live *lv, uint64_t trace_id, bool *grew,
    struct tv_error *err)
{
	size_t i;

	for (i = 0; i < lv->nstreams; i++)
		if (lv->streams[i].metadata &&
		    lv->streams[i].trace_id == trace_id)
			return live_metadata(lv, i, grew, err);
	return TV_OK;
}

/* Find the trace of stream @s and fetch what @flags say is new. */
static enum tv_status
live_flags(struct tv_live *lv, size_t si, uint32_t flags, bool *grew,
    struct tv_error *err)
{
	enum tv_status st = TV_OK;

	if (flags & LIVE_FLAG_NEW_STREAM)
		st = live_new_streams(lv, err);
	if (st == TV_OK && (flags & LIVE_FLAG_NEW_METADATA))
		st = live_trace_metadata(lv, lv->streams[si].trace_id, grew,
		    err);
	return st;
}

/* Sleep @ms milliseconds. */
static void
live_nap(long ms)
{
	struct timespec ts = { 0, ms * 1000000L };

	(void)nanosleep(&ts, NULL);
}

/*
 * Fetch the packet at @offset, @len bytes, of stream @si and append it;
 * *@hup when the stream ended instead.
 */
static enum tv_status
live_packet(struct tv_live *lv, size_t si, uint64_t offset, uint64_t len,
    bool *grew, bool *hup, struct tv_error *err)
{
	uint8_t b[20], *data;
	enum tv_status st;
	int tries;

	for (tries = 0; tries < LIVE_RETRIES; tries++) {
		live_put(b, lv->streams[si].id, 8);
		live_put(b + 8, offset, 8);
		live_put(b + 16, len, 4);
		if ((st = live_cmd(lv, LIVE_CMD_GET_PACKET, b, 20, err)) ||
		    (st = live_recv(lv, b, 12, err)))
			return st;
		switch (tv_be32(b)) {
		case LIVE_PACKET_OK:
			if (tv_be32(b + 4) != len)
				return live_fail(lv, err, TV_CORRUPT,
				    _("the relay daemon sent a packet of "
				    "another size than its index says"));
			data = tv_xmalloc(len);
			st = live_recv(lv, data, len, err);
			if (st == TV_OK)
				st = live_append(lv, &lv->streams[si], data,
				    len, err);
			free(data);
			*grew = true;
			return st;
		case LIVE_PACKET_RETRY:
			live_nap(10);
			continue;
		case LIVE_PACKET_EOF:
			*hup = true;
			return TV_OK;
		default:
			/* new metadata or streams first, then again */
			if (!(tv_be32(b + 8) & (LIVE_FLAG_NEW_METADATA |
			    LIVE_FLAG_NEW_STREAM)))
				return live_fail(lv, err, TV_IO,
				    _("the relay daemon failed to send a "
				    "packet"));
			if ((st = live_flags(lv, si, tv_be32(b + 8), grew,
			    err)))
				return st;
		}
	}
	return live_fail(lv, err, TV_IO,
	    _("the relay daemon kept a packet back"));
}

/*
 * Stream @si holds no event before clock value @ts (an inactivity
 * beacon): say so in its beacon file (live.h), written whole to a
 * temporary name and renamed, so a reader never sees half of it.  A
 * failure only loses the hint.
 */
static void
live_beacon(struct tv_live *lv, size_t si, uint64_t ts)
{
	struct live_stream *s = &lv->streams[si];
	char *dir, *tmp, *file, buf[32];
	int fd, len;

	if (s->metadata || ts <= s->beacon)
		return;
	(void)tv_xasprintf(&dir, "%s/" TV_LIVE_BEACON_DIR, s->path);
	(void)tv_xasprintf(&file, "%s/%s", dir, s->name);
	(void)tv_xasprintf(&tmp, "%s/.%s.tmp", dir, s->name);
	len = snprintf(buf, sizeof(buf), "%llu\n", (unsigned long long)ts);
	if (tv_dir_make(dir, 0755) && (fd = open(tmp, O_WRONLY | O_CREAT |
	    O_TRUNC | O_CLOEXEC, 0644)) >= 0) {
		bool ok = tv_write_all(fd, buf, (size_t)len);

		if (close(fd) == 0 && ok && rename(tmp, file) == 0)
			s->beacon = ts;
	}
	free(dir);
	free(tmp);
	free(file);
}

/* Every packet stream @si has ready now. */
static enum tv_status
live_stream_round(struct tv_live *lv, size_t si, bool *grew,
    struct tv_error *err)
{
	uint8_t b[LIVE_INDEX_SIZE];
	enum tv_status st;
	int n;

	for (n = 0; n < LIVE_PACKETS_PER_ROUND; n++) {
		uint64_t offset, psize;
		bool hup = false;

		live_put(b, lv->streams[si].id, 8);
		if ((st = live_cmd(lv, LIVE_CMD_GET_NEXT_INDEX, b, 8, err)) ||
		    (st = live_recv(lv, b, sizeof(b), err)))
			return st;
		offset = tv_be64(b);
		psize = tv_be64(b + 8);
		if ((st = live_flags(lv, si, tv_be32(b + 60), grew, err)))
			return st;
		switch (tv_be32(b + 56)) {
		case LIVE_INDEX_OK:
			break;
		case LIVE_INDEX_RETRY:
			return TV_OK;
		case LIVE_INDEX_INACTIVE:
			live_beacon(lv, si, tv_be64(b + 32));
			return TV_OK;
		case LIVE_INDEX_HUP:
		case LIVE_INDEX_EOF:
			lv->streams[si].hup = true;
			return TV_OK;
		default:
			return live_fail(lv, err, TV_IO,
			    _("the relay daemon failed to send an index "
			    "entry"));
		}
		if (psize % 8 != 0 || psize == 0 ||
		    psize / 8 > LIVE_MAX_PACKET)
			return live_fail(lv, err, TV_CORRUPT,
			    _("the relay daemon gave a bad packet size"));
		st = live_packet(lv, si, offset, psize / 8, grew, &hup, err);
		if (st)
			return st;
		if (hup) {
			lv->streams[si].hup = true;
			return TV_OK;
		}
	}
	return TV_OK;
}

/* See live.h. */
enum tv_status
tv_live_attach(const struct tv_live_url *u, const char *dir,
    struct tv_live **out, struct tv_error *err)
{
	struct tv_live *lv = tv_xcalloc(1, sizeof(*lv));
	struct live_session *ss = NULL;
	enum tv_status st;
	uint8_t b[20];
	size_t n = 0, i;

	*out = NULL;
	lv->u = *u;
	lv->fd = -1;
	lv->dir = tv_xstrdup(dir);
	lv->traces = tv_xcalloc(1, sizeof(*lv->traces));
	st = live_connect(lv, err);
	if (st == TV_OK)
		st = live_sessions(lv, &ss, &n, err);
	for (i = 0; st == TV_OK && i < n; i++)
		if (strcmp(ss[i].hostname, u->hostname) == 0 &&
		    strcmp(ss[i].name, u->session) == 0)
			break;
	if (st == TV_OK && i == n)
		st = tv_error_set(err, TV_NOT_FOUND, NULL,
		    _("net://%s: no session %s of host %s (tview net://%s "
		    "lists them)"), lv->where, u->session, u->hostname,
		    lv->where);
	if (st == TV_OK) {
		lv->session_id = ss[i].id;
		live_put(b, lv->session_id, 8);
		live_put(b + 8, 0, 8);
		live_put(b + 16, 1, 4);		/* from the beginning */
		if ((st = live_cmd(lv, LIVE_CMD_ATTACH_SESSION, b, 20, err)) ==
		    TV_OK)
			st = live_recv(lv, b, 8, err);
	}
	if (st == TV_OK && tv_be32(b) != LIVE_ATTACH_OK)
		st = tv_error_set(err, TV_IO, NULL,
		    _("net://%s: the relay daemon refused to attach to the "
		    "session (status %u)"), lv->where, tv_be32(b));
	if (st == TV_OK)
		st = live_read_streams(lv, tv_be32(b + 4), err);
	free(ss);
	if (st != TV_OK) {
		tv_live_close(lv);
		return st;
	}
	*out = lv;
	return TV_OK;
}

/* See live.h. */
enum tv_status
tv_live_poll(struct tv_live *lv, bool *grew, bool *ended,
    struct tv_error *err)
{
	enum tv_status st;
	size_t i, open = 0;

	*grew = false;
	*ended = false;
	if ((st = live_new_streams(lv, err)))
		return st;
	for (i = 0; i < lv->nstreams; i++)
		if (lv->streams[i].metadata &&
		    (st = live_metadata(lv, i, grew, err)))
			return st;
	for (i = 0; i < lv->nstreams; i++) {
		if (lv->streams[i].metadata || lv->streams[i].hup)
			continue;
		if ((st = live_stream_round(lv, i, grew, err)))
			return st;
		if (!lv->streams[i].hup)
			open++;
	}
	*ended = open == 0 && (lv->session_hup || lv->nstreams > 0);
	return TV_OK;
}

/* See live.h. */
const char *const *
tv_live_traces(const struct tv_live *lv, size_t *n)
{
	*n = lv->ntraces;
	return (const char *const *)lv->traces;
}

/* See live.h. */
void
tv_live_close(struct tv_live *lv)
{
	size_t i;

	if (!lv)
		return;
	for (i = 0; i < lv->nstreams; i++) {
		close(lv->streams[i].fd);
		free(lv->streams[i].path);
		free(lv->streams[i].name);
	}
	for (i = 0; i < lv->ntraces; i++)
		free(lv->traces[i]);
	free(lv->traces);
	free(lv->streams);
	free(lv->dir);
	if (lv->fd >= 0)
		close(lv->fd);
	free(lv);
}
