/*
 * Finding and unpacking CTF metadata: DIR/metadata is either TSDL text or
 * a sequence of metadata packets (magic 0x75D11D57, either byte order)
 * whose payloads concatenate to the TSDL text.  CTF 2 metadata (a JSON
 * text sequence, first byte 0x1E) is returned as is, for ctf2-model.c.
 */
#include "tview/tview.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tview/bytes.h"
#include "tview/error.h"
#include "tview/i18n.h"
#include "tview/mapfile.h"
#include "tview/util.h"
#include "ctf-priv.h"

#define CTF_META_MAGIC		0x75D11D57u
#define CTF_META_HDR_BYTES	37u
/* Metadata beyond this is not a trace description but an attack. */
#define CTF_META_MAX_BYTES	(256u * 1024 * 1024)

/* A 32-bit number of either byte order. */
static uint32_t
rd32(const uint8_t *p, bool be)
{
	return be ? tv_be32(p) : tv_le32(p);
}

/* Is @buf the start of a metadata packet? Sets *be for its byte order. */
static bool
is_packet(const uint8_t *buf, size_t len, bool *be)
{
	if (len < 4)
		return false;
	if (rd32(buf, false) == CTF_META_MAGIC) {
		*be = false;
		return true;
	}
	if (rd32(buf, true) == CTF_META_MAGIC) {
		*be = true;
		return true;
	}
	return false;
}

/*
 * Concatenate the payloads of all metadata packets of @buf; *@used: the
 * bytes of the whole packets read.  With TV_OPEN_FOLLOW in @flags, a
 * last packet not all written yet is left for the next look.
 */
static enum tv_status
unpack(const char *path, const uint8_t *buf, size_t len, bool be,
    unsigned flags, struct tv_strbuf *out, size_t *used,
    struct tv_error *err)
{
	bool follow = (flags & TV_OPEN_FOLLOW) != 0;
	size_t off = 0;

	*used = 0;
	while (off < len) {
		const uint8_t *h = buf + off;
		uint32_t content, packet;
		bool pbe;

		if (follow && (len - off < CTF_META_HDR_BYTES ||
		    (is_packet(h, len - off, &pbe) && pbe == be &&
		    rd32(h + 28, be) / 8 > len - off)))
			return TV_OK;
		if (len - off < CTF_META_HDR_BYTES)
			return tv_error_at(err, TV_CORRUPT, path, off,
			    _("truncated metadata packet header"));
		if (!is_packet(h, len - off, &pbe))
			return tv_error_at(err, TV_CORRUPT, path, off,
			    _("bad metadata packet magic"));
		if (pbe != be)
			return tv_error_at(err, TV_CORRUPT, path, off,
			    _("metadata packets disagree on byte order"));
		content = rd32(h + 24, be);
		packet = rd32(h + 28, be);
		if (h[32] != 0 || h[33] != 0 || h[34] != 0)
			return tv_error_at(err, TV_UNSUPPORTED, path, off,
			    _("compressed, encrypted or checksummed metadata "
			    "packets are not supported"));
		if (h[35] != 1 || h[36] != 8)
			return tv_error_at(err, TV_CORRUPT, path, off,
			    _("metadata packet has version %u.%u, expected "
			    "1.8"), h[35], h[36]);
		if (packet % 8 != 0 || content % 8 != 0 ||
		    content < CTF_META_HDR_BYTES * 8 || content > packet)
			return tv_error_at(err, TV_CORRUPT, path, off,
			    _("bad metadata packet sizes (content %u bits, "
			    "packet %u bits)"), content, packet);
		if (packet / 8 > len - off)
			return tv_error_at(err, TV_CORRUPT, path, off,
			    _("metadata packet of %u bytes runs past the end "
			    "of the file"), packet / 8);
		tv_strbuf_add(out, (const char *)h + CTF_META_HDR_BYTES,
		    content / 8 - CTF_META_HDR_BYTES);
		off += packet / 8;
		*used = off;
	}
	return TV_OK;
}

/*
 * Is @text CTF 2 metadata?  It starts with RS; text starting with '{'
 * cannot be TSDL either: a JSON text sequence without its RS, which the
 * CTF 2 reader then reports as such.
 */
bool
ctf_metadata_is_json(const char *text, size_t len)
{
	size_t i;

	for (i = 0; i < len && (text[i] == ' ' || text[i] == '\n' ||
	    text[i] == '\t' || text[i] == '\r'); i++)
		continue;
	return len && ((uint8_t)text[0] == 0x1e || (i < len && text[i] == '{'));
}

/* Read DIR/metadata and keep its TSDL text in @tc (see ctf-priv.h). */
enum tv_status
ctf_metadata_read(const char *dir, unsigned flags,
    struct ctf_trace_class *tc, struct tv_error *err)
{
	char **text = &tc->metadata;
	size_t *len = &tc->metadata_len;
	struct tv_strbuf sb;
	char *path, *raw;
	size_t rawlen;
	enum tv_status st;
	bool be;

	*text = NULL;
	*len = 0;
	tc->metadata_raw = 0;
	tc->packetized = false;
	tv_xasprintf(&path, "%s/metadata", dir);
	st = tv_read_file(path, CTF_META_MAX_BYTES, &raw, &rawlen, err);
	if (st != TV_OK) {
		free(path);
		return st;
	}
	if (is_packet((const uint8_t *)raw, rawlen, &be)) {
		tv_strbuf_init(&sb);
		st = unpack(path, (const uint8_t *)raw, rawlen, be, flags,
		    &sb, &tc->metadata_raw, err);
		if (st != TV_OK) {
			tv_strbuf_fini(&sb);
			goto out;
		}
		free(raw);
		if (!sb.buf)
			tv_strbuf_add(&sb, "", 0);
		*text = sb.buf;
		*len = sb.len;
		tc->packetized = true;
		tc->packet_bo = be ? TV_BO_BE : TV_BO_LE;
		free(path);
		return TV_OK;
	}
	if (rawlen == 0) {
		st = tv_error_set(err, TV_FORMAT, NULL,
		    _("%s: empty metadata file"), path);
		goto out;
	}
	*text = raw;
	*len = rawlen;
	tc->metadata_raw = rawlen;
	free(path);
	return TV_OK;
out:
	free(raw);
	free(path);
	return st;
}
