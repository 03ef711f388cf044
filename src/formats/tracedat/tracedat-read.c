/*
 * A bounded cursor over trace.dat bytes (the mapped file or a
 * decompressed section): every read is checked against the end, and an
 * error names the file offset where the data ran out or went wrong.
 */
#include "tview/tview.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tview/bytes.h"
#include "tview/i18n.h"
#include "tracedat-priv.h"

/* Start reading @len bytes at @data, which came from file offset @base. */
void
td_cur_init(struct td_cur *c, const char *path, const uint8_t *data,
    uint64_t len, uint64_t base_off, bool be)
{
	c->path = path;
	c->data = data;
	c->len = data ? len : 0;
	c->pos = 0;
	c->base_off = base_off;
	c->be = be;
}

/* An unsigned number of @size bytes (1..8) at @p in the file's order. */
uint64_t
td_get_u(const uint8_t *p, unsigned size, bool be)
{
	return tv_get_u(p, size, be);
}

/* An error at the cursor's position: "path: offset 0x..: message". */
enum tv_status
td_error(const struct td_cur *c, struct tv_error *err, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return tv_error_at(err, TV_CORRUPT, c->path, c->base_off + c->pos,
	    "%s", msg);
}

/* Fail unless @n more bytes are there. */
static enum tv_status
need(struct td_cur *c, uint64_t n, struct tv_error *err)
{
	if (n > c->len - c->pos)
		return td_error(c, err, _("truncated: %llu bytes needed, "
		    "%llu left"), (unsigned long long)n,
		    (unsigned long long)(c->len - c->pos));
	return TV_OK;
}

/* Read a 16-bit number. */
enum tv_status
td_read_u16(struct td_cur *c, uint16_t *v, struct tv_error *err)
{
	if (need(c, 2, err) != TV_OK)
		return TV_CORRUPT;
	*v = (uint16_t)td_get_u(c->data + c->pos, 2, c->be);
	c->pos += 2;
	return TV_OK;
}

/* Read a 32-bit number. */
enum tv_status
td_read_u32(struct td_cur *c, uint32_t *v, struct tv_error *err)
{
	if (need(c, 4, err) != TV_OK)
		return TV_CORRUPT;
	*v = (uint32_t)td_get_u(c->data + c->pos, 4, c->be);
	c->pos += 4;
	return TV_OK;
}

/* Read a 64-bit number. */
enum tv_status
td_read_u64(struct td_cur *c, uint64_t *v, struct tv_error *err)
{
	if (need(c, 8, err) != TV_OK)
		return TV_CORRUPT;
	*v = td_get_u(c->data + c->pos, 8, c->be);
	c->pos += 8;
	return TV_OK;
}

/* Take the next @n bytes (bounded by what is left). */
enum tv_status
td_read_bytes(struct td_cur *c, uint64_t n, struct td_blob *out,
    struct tv_error *err)
{
	if (need(c, n, err) != TV_OK)
		return TV_CORRUPT;
	out->ptr = c->data + c->pos;
	out->len = n;
	c->pos += n;
	return TV_OK;
}

/* Take a NUL-terminated string; *s points into the data. */
enum tv_status
td_read_str(struct td_cur *c, const char **s, struct tv_error *err)
{
	const uint8_t *nul;

	if (c->pos >= c->len)
		return need(c, 1, err);
	nul = memchr(c->data + c->pos, 0, c->len - c->pos);
	if (!nul)
		return td_error(c, err, _("unterminated string"));
	*s = (const char *)(c->data + c->pos);
	c->pos = (uint64_t)(nul - c->data) + 1;
	return TV_OK;
}

/* Check that the next @n bytes are @magic, and skip them. */
enum tv_status
td_expect(struct td_cur *c, const char *magic, size_t n, struct tv_error *err)
{
	if (need(c, n, err) != TV_OK)
		return TV_CORRUPT;
	if (memcmp(c->data + c->pos, magic, n) != 0)
		return td_error(c, err, _("expected \"%s\""), magic);
	c->pos += n;
	return TV_OK;
}

/* Keep @buf (the section at @off, decompressed) until the file is closed. */
void
td_file_own(struct td_file *f, uint64_t off, uint8_t *buf, uint32_t len)
{
	f->owned = tv_xreallocarray(f->owned, f->nowned + 1,
	    sizeof(*f->owned));
	f->owned[f->nowned].off = off;
	f->owned[f->nowned].buf = buf;
	f->owned[f->nowned].len = len;
	f->nowned++;
	f->inflated += len;
}

/* Remember one event format file of @system. */
void
td_add_format(struct td_file *f, const char *system, struct td_blob text)
{
	TV_VEC_GROW(f->formats, f->nformats, f->formats_cap);
	f->formats[f->nformats].system = system;
	f->formats[f->nformats].text = text;
	f->nformats++;
}

/*
 * The file offset of metadata at @p, for errors: in the mapped file, or
 * the section a decompressed buffer came from; 0 if unknown.
 */
uint64_t
td_blob_offset(const struct td_file *f, const uint8_t *p)
{
	uint32_t i;

	if (p >= f->mf.data && p < f->mf.data + f->mf.size)
		return (uint64_t)(p - f->mf.data);
	for (i = 0; i < f->nowned; i++)
		if (p >= f->owned[i].buf && p <= f->owned[i].buf +
		    f->owned[i].len)
			return f->owned[i].off;
	return 0;
}
