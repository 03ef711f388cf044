/*
 * LTT event definitions: the <facility> elements of a trace's eventdefs/
 * files (read by ltt-xmlread.c) made into struct ltt_xtype trees (see
 * ltt-xml.h): events, named types and typerefs, structs, unions, arrays,
 * sequences, enums and the primitive types with their sizes; and the
 * checksum that tells same-name facilities apart.
 */
#include "tview/tview.h"

#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <zlib.h>

#include "tview/error.h"
#include "tview/i18n.h"
#include "tview/mapfile.h"
#include "tview/util.h"
#include "ltt-xml.h"

#define MAX_LABELS	65536u
#define MAX_FIELDS	4096u

/* Per facility while parsing: the file, the <type> elements, the arena. */
struct pctx {
	const char		*path;
	struct tv_arena		*a;
	xmlNodePtr		 fac;
	struct tv_error		*err;
	uint64_t		 nodes;		/* types made, typerefs expanded */
};

/* Is @n the element named @name? */
static bool
is_elem(xmlNodePtr n, const char *name)
{
	return n->type == XML_ELEMENT_NODE &&
	    strcmp((const char *)n->name, name) == 0;
}

/* Attribute @name of @n copied into the arena, or NULL. */
static const char *
attr(struct pctx *c, xmlNodePtr n, const char *name)
{
	xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
	const char *s;

	if (!v)
		return NULL;
	s = tv_arena_strdup(c->a, (const char *)v);
	xmlFree(v);
	return s;
}

/* A TV_SEMANTIC error at element @n. */
static enum tv_status
bad(struct pctx *c, xmlNodePtr n, const char *msg, const char *what)
{
	struct tv_loc loc = { c->path, TV_NO_OFFSET,
	    n ? (uint32_t)xmlGetLineNo(n) : 0, 0 };

	return tv_error_set(c->err, TV_SEMANTIC, &loc, msg, what ? what : "");
}

/* The next element child of @n from @from on that is not a description. */
static xmlNodePtr
next_type_child(xmlNodePtr from)
{
	for (; from; from = from->next)
		if (from->type == XML_ELEMENT_NODE &&
		    !is_elem(from, "description"))
			return from;
	return NULL;
}

/*
 * Integer size from attribute @s: short/medium/long are 1/2/4 bytes
 * (floats: medium 4, long 8), digits are bytes.  false if invalid.
 */
static bool
parse_isize(const char *s, bool flt, uint8_t *out)
{
	char *end;
	unsigned long v;

	if (strcmp(s, "short") == 0)
		*out = flt ? 4 : 1;
	else if (strcmp(s, "medium") == 0)
		*out = flt ? 4 : 2;
	else if (strcmp(s, "long") == 0)
		*out = flt ? 8 : 4;
	else {
		v = strtoul(s, &end, 10);
		if (*end || end == s || !(v == 1 || v == 2 || v == 4 ||
		    v == 8) || (flt && v < 4))
			return false;
		*out = (uint8_t)v;
	}
	return true;
}

static enum tv_status parse_type(struct pctx *c, xmlNodePtr n,
		    unsigned depth, struct ltt_xtype **out);

/* An integer type with the size given by attribute @aname of @n. */
static enum tv_status
int_type(struct pctx *c, xmlNodePtr n, const char *aname, bool is_signed,
    enum ltt_xsize dflt, struct ltt_xtype **out)
{
	struct ltt_xtype *t = tv_arena_zalloc(c->a, sizeof(*t));
	const char *s = attr(c, n, aname);
	const char *bo = attr(c, n, "byte_order");

	t->kind = is_signed ? LTT_X_INT : LTT_X_UINT;
	t->sizek = dflt;
	if (s) {
		t->sizek = LTT_XS_FIXED;
		if (!parse_isize(s, false, &t->bytes))
			return bad(c, n, _("invalid integer size \"%s\""), s);
	} else if (dflt == LTT_XS_FIXED) {
		return bad(c, n, _("<%s> needs a size attribute"),
		    (const char *)n->name);
	}
	t->net_order = bo && strcmp(bo, "network") == 0;
	*out = t;
	return TV_OK;
}

/* Labels of an enum: <label name= value=/> children, or words of text. */
static enum tv_status
enum_labels(struct pctx *c, xmlNodePtr n, struct ltt_xtype *t)
{
	struct ltt_xlabel *labs = NULL;
	size_t cnt = 0, cap = 0;
	int64_t next = 0;
	xmlNodePtr k;

	for (k = n->children; k; k = k->next) {
		const char *name, *val;
		char *end;

		if (k->type == XML_TEXT_NODE && k->content) {
			const char *p = (const char *)k->content;

			while (*p) {
				const char *q;

				while (*p && isspace((unsigned char)*p))
					p++;
				for (q = p; *q && !isspace((unsigned char)*q);
				    q++)
					;
				if (q == p)
					break;
				if (cnt >= MAX_LABELS)
					goto many;
				TV_VEC_GROW(labs, cnt, cap);
				labs[cnt].name = tv_arena_strndup(c->a, p,
				    (size_t)(q - p));
				labs[cnt++].value = next;
		/* the next label's default; past INT64_MAX it wraps, as
		   the unsigned sum is defined (a hostile file's problem) */
		next = (int64_t)((uint64_t)next + 1);
				p = q;
			}
			continue;
		}
		if (!is_elem(k, "label"))
			continue;
		name = attr(c, k, "name");
		if (!name) {
			free(labs);
			return bad(c, k, _("<label> without a name%s"), "");
		}
		val = attr(c, k, "value");
		if (val) {
			next = strtoll(val, &end, 0);
			if (*end || end == val) {
				free(labs);
				return bad(c, k, _("invalid label value \"%s\""),
				    val);
			}
		}
		if (cnt >= MAX_LABELS)
			goto many;
		TV_VEC_GROW(labs, cnt, cap);
		labs[cnt].name = name;
		labs[cnt++].value = next;
		/* the next label's default; past INT64_MAX it wraps, as
		   the unsigned sum is defined (a hostile file's problem) */
		next = (int64_t)((uint64_t)next + 1);
	}
	t->labels = tv_arena_alloc(c->a, sizeof(*labs) * (cnt ? cnt : 1));
	if (cnt)
		memcpy(t->labels, labs, sizeof(*labs) * cnt);
	t->nlabels = (uint32_t)cnt;
	free(labs);
	return TV_OK;
many:
	free(labs);
	return bad(c, n, _("too many enum labels%s"), "");
}

/* <field name=...> children of @n as the members of struct/union @t. */
static enum tv_status
fields_of(struct pctx *c, xmlNodePtr n, unsigned depth, struct ltt_xtype *t)
{
	struct ltt_xfield *fs = NULL;
	size_t cnt = 0, cap = 0;
	enum tv_status st;
	xmlNodePtr k;

	for (k = n->children; k; k = k->next) {
		xmlNodePtr ty;
		const char *name;

		if (!is_elem(k, "field"))
			continue;
		name = attr(c, k, "name");
		if (!name) {
			free(fs);
			return bad(c, k, _("<field> without a name%s"), "");
		}
		ty = next_type_child(k->children);
		if (!ty) {
			free(fs);
			return bad(c, k, _("field \"%s\" has no type"), name);
		}
		if (cnt >= MAX_FIELDS) {
			free(fs);
			return bad(c, k, _("too many fields%s"), "");
		}
		TV_VEC_GROW(fs, cnt, cap);
		fs[cnt].name = name;
		st = parse_type(c, ty, depth + 1, &fs[cnt].type);
		if (st != TV_OK) {
			free(fs);
			return st;
		}
		cnt++;
	}
	t->fields = tv_arena_alloc(c->a, sizeof(*fs) * (cnt ? cnt : 1));
	if (cnt)
		memcpy(t->fields, fs, sizeof(*fs) * cnt);
	t->nfields = (uint32_t)cnt;
	free(fs);
	return TV_OK;
}

/* The <type name=@name> element of the current facility, or NULL. */
static xmlNodePtr
find_named(struct pctx *c, const char *name)
{
	xmlNodePtr k;

	for (k = c->fac->children; k; k = k->next) {
		xmlChar *v;
		bool eq;

		if (!is_elem(k, "type"))
			continue;
		v = xmlGetProp(k, (const xmlChar *)"name");
		eq = v && strcmp((const char *)v, name) == 0;
		xmlFree(v);
		if (eq)
			return k;
	}
	return NULL;
}

/*
 * Can a value of @t take no bytes at all?  Arrays of such elements are
 * refused: decoding a million of them would take time for no data.
 */
static bool
may_be_empty(const struct ltt_xtype *t)
{
	uint32_t i;

	switch (t->kind) {
	case LTT_X_STRUCT:
		for (i = 0; i < t->nfields; i++)
			if (!may_be_empty(t->fields[i].type))
				return false;
		return true;
	case LTT_X_ARRAY:
		return t->length == 0 || may_be_empty(t->elem);
	default:
		return false;
	}
}

/* Parse compound types: struct, union, array, sequence, typeref. */
static enum tv_status
compound_type(struct pctx *c, xmlNodePtr n, unsigned depth,
    struct ltt_xtype **out)
{
	const char *nm = (const char *)n->name;
	struct ltt_xtype *t;
	enum tv_status st;
	xmlNodePtr k;

	if (strcmp(nm, "typeref") == 0) {
		const char *name = attr(c, n, "name");

		if (!name)
			return bad(c, n, _("<typeref> without a name%s"), "");
		k = find_named(c, name);
		if (!k)
			return bad(c, n, _("unknown type \"%s\""), name);
		k = next_type_child(k->children);
		if (!k)
			return bad(c, n, _("type \"%s\" is empty"), name);
		return parse_type(c, k, depth + 1, out);
	}
	t = tv_arena_zalloc(c->a, sizeof(*t));
	*out = t;
	if (strcmp(nm, "struct") == 0 || strcmp(nm, "union") == 0) {
		t->kind = nm[0] == 's' ? LTT_X_STRUCT : LTT_X_UNION;
		if (t->kind == LTT_X_UNION) {
			if (!xmlHasProp(n, (const xmlChar *)"typecodesize"))
				return bad(c, n,
				    _("<union> needs typecodesize%s"), "");
			st = int_type(c, n, "typecodesize", false,
			    LTT_XS_FIXED, &t->len);
			if (st != TV_OK)
				return st;
		}
		return fields_of(c, n, depth, t);
	}
	if (strcmp(nm, "array") == 0) {
		const char *s = attr(c, n, "size");
		char *end;

		t->kind = LTT_X_ARRAY;
		t->length = s ? strtoull(s, &end, 10) : 0;
		if (!s || *end || end == s || t->length > LTT_X_MAX_ARRAY)
			return bad(c, n, _("invalid array size \"%s\""), s);
		k = next_type_child(n->children);
		if (!k)
			return bad(c, n, _("<array> has no element type%s"),
			    "");
		st = parse_type(c, k, depth + 1, &t->elem);
		if (st == TV_OK && may_be_empty(t->elem))
			return bad(c, n, _("array of elements without "
			    "data%s"), "");
		return st;
	}
	if (strcmp(nm, "sequence") == 0) {
		t->kind = LTT_X_SEQUENCE;
		k = next_type_child(n->children);
		if (!k)
			return bad(c, n, _("<sequence> has no element type%s"),
			    "");
		if (xmlHasProp(n, (const xmlChar *)"lengthsize")) {
			st = int_type(c, n, "lengthsize", false, LTT_XS_FIXED,
			    &t->len);
		} else {
			/* Facility era: the length type, then the element. */
			st = parse_type(c, k, depth + 1, &t->len);
			k = next_type_child(k->next);
			if (st == TV_OK && !k)
				return bad(c, n,
				    _("<sequence> has no element type%s"), "");
		}
		if (st == TV_OK && t->len->kind != LTT_X_UINT &&
		    t->len->kind != LTT_X_INT)
			return bad(c, n,
			    _("sequence length is not an integer%s"), "");
		if (st != TV_OK)
			return st;
		st = parse_type(c, k, depth + 1, &t->elem);
		if (st == TV_OK && may_be_empty(t->elem))
			return bad(c, n, _("array of elements without "
			    "data%s"), "");
		return st;
	}
	return bad(c, n, _("unknown type element <%s>"), nm);
}

/* Parse type element @n (any kind) into *@out. */
static enum tv_status
parse_type(struct pctx *c, xmlNodePtr n, unsigned depth,
    struct ltt_xtype **out)
{
	static const struct {
		const char	*name;
		bool		 is_signed;
		enum ltt_xsize	 sizek;
		uint8_t		 bytes;
	} prims[] = {
		{ "char", true, LTT_XS_FIXED, 1 },
		{ "uchar", false, LTT_XS_FIXED, 1 },
		{ "short", true, LTT_XS_FIXED, 2 },
		{ "ushort", false, LTT_XS_FIXED, 2 },
		{ "long", true, LTT_XS_LONG, 0 },
		{ "ulong", false, LTT_XS_LONG, 0 },
		{ "size_t", false, LTT_XS_SIZE_T, 0 },
		{ "ssize_t", true, LTT_XS_SIZE_T, 0 },
		{ "off_t", true, LTT_XS_LONG, 0 },
	};
	const char *nm = (const char *)n->name;
	struct ltt_xtype *t;
	enum tv_status st;
	size_t i;

	if (depth > LTT_X_MAX_DEPTH)
		return bad(c, n, _("types nested too deeply (or a typeref "
		    "loop)%s"), "");
	/* Typerefs are expanded: a few lines could describe a huge tree. */
	if (++c->nodes > LTT_X_MAX_NODES)
		return bad(c, n, _("the types of this file expand to too many "
		    "fields%s"), "");
	if (strcmp(nm, "int") == 0 || strcmp(nm, "uint") == 0)
		return int_type(c, n, "size", nm[0] == 'i', LTT_XS_INT, out);
	if (strcmp(nm, "int_fixed") == 0 || strcmp(nm, "uint_fixed") == 0)
		return int_type(c, n, "size", nm[0] == 'i', LTT_XS_FIXED,
		    out);
	for (i = 0; i < TV_ARRAY_SIZE(prims); i++) {
		if (strcmp(nm, prims[i].name) != 0)
			continue;
		t = tv_arena_zalloc(c->a, sizeof(*t));
		t->kind = prims[i].is_signed ? LTT_X_INT : LTT_X_UINT;
		t->sizek = prims[i].sizek;
		t->bytes = prims[i].bytes;
		*out = t;
		return TV_OK;
	}
	if (strcmp(nm, "pointer") == 0 || strcmp(nm, "string") == 0) {
		t = tv_arena_zalloc(c->a, sizeof(*t));
		t->kind = nm[0] == 'p' ? LTT_X_POINTER : LTT_X_STRING;
		t->sizek = LTT_XS_POINTER;
		*out = t;
		return TV_OK;
	}
	if (strcmp(nm, "float") == 0) {
		const char *s = attr(c, n, "size");

		t = tv_arena_zalloc(c->a, sizeof(*t));
		t->kind = LTT_X_FLOAT;
		t->bytes = 8;
		if (s && !parse_isize(s, true, &t->bytes))
			return bad(c, n, _("invalid float size \"%s\""), s);
		*out = t;
		return TV_OK;
	}
	if (strcmp(nm, "enum") == 0) {
		st = int_type(c, n, "size", false, LTT_XS_INT, &t);
		if (st != TV_OK)
			return st;
		t->kind = LTT_X_ENUM;
		*out = t;
		return enum_labels(c, n, t);
	}
	return compound_type(c, n, depth, out);
}

/* Parse <event> @n: its fields (facility era) or its one type. */
static enum tv_status
parse_event(struct pctx *c, xmlNodePtr n, struct ltt_xevent *ev)
{
	xmlNodePtr k;
	struct ltt_xtype *t;
	enum tv_status st;
	bool has_fields = false;

	ev->name = attr(c, n, "name");
	if (!ev->name)
		return bad(c, n, _("<event> without a name%s"), "");
	for (k = n->children; k; k = k->next)
		if (is_elem(k, "field"))
			has_fields = true;
	if (has_fields) {
		t = tv_arena_zalloc(c->a, sizeof(*t));
		t->kind = LTT_X_STRUCT;
		ev->type = t;
		return fields_of(c, n, 0, t);
	}
	k = next_type_child(n->children);
	if (!k)
		return TV_OK;
	st = parse_type(c, k, 1, &t);
	if (st != TV_OK)
		return st;
	if (t->kind != LTT_X_STRUCT) {
		/* A payload that is not a struct: one unnamed member. */
		struct ltt_xtype *w = tv_arena_zalloc(c->a, sizeof(*w));

		w->kind = LTT_X_STRUCT;
		w->fields = tv_arena_zalloc(c->a, sizeof(*w->fields));
		w->fields[0].name = "data";
		w->fields[0].type = t;
		w->nfields = 1;
		t = w;
	}
	ev->type = t;
	return TV_OK;
}

/* Parse one <facility> element into a new entry of @d. */
static enum tv_status
parse_facility(struct ltt_xdefs *d, struct pctx *c, xmlNodePtr n)
{
	struct ltt_xfacility *f;
	struct ltt_xevent *evs = NULL;
	size_t cnt = 0, cap = 0;
	enum tv_status st;
	xmlNodePtr k;

	if (d->nfacs >= 65536)
		return bad(c, n, _("too many facilities%s"), "");
	TV_VEC_GROW(d->facs, d->nfacs, d->cap);
	f = &d->facs[d->nfacs];
	memset(f, 0, sizeof(*f));
	c->fac = n;
	f->name = attr(c, n, "name");
	if (!f->name)
		return bad(c, n, _("<facility> without a name%s"), "");
	f->arch = attr(c, n, "arch");
	f->file = tv_arena_strdup(c->a, c->path);
	f->line = (uint32_t)xmlGetLineNo(n);
	for (k = n->children; k; k = k->next) {
		if (!is_elem(k, "event"))
			continue;
		if (cnt >= 256 * 256) {
			free(evs);
			return bad(c, k, _("too many events%s"), "");
		}
		TV_VEC_GROW(evs, cnt, cap);
		memset(&evs[cnt], 0, sizeof(*evs));
		st = parse_event(c, k, &evs[cnt]);
		if (st != TV_OK) {
			free(evs);
			return st;
		}
		cnt++;
	}
	f->events = tv_arena_alloc(c->a, sizeof(*evs) * (cnt ? cnt : 1));
	if (cnt)
		memcpy(f->events, evs, sizeof(*evs) * cnt);
	f->nevents = (uint32_t)cnt;
	free(evs);
	f->checksum = ltt_xfacility_checksum(f);
	d->nfacs++;
	return TV_OK;
}

/* See ltt-xml.h. */
void
ltt_xdefs_init(struct ltt_xdefs *d, struct tv_arena *a)
{
	memset(d, 0, sizeof(*d));
	d->arena = a;
}

/* See ltt-xml.h. */
void
ltt_xdefs_fini(struct ltt_xdefs *d)
{
	free(d->facs);
	memset(d, 0, sizeof(*d));
}

/* See ltt-xml.h. */
enum tv_status
ltt_xdefs_parse(struct ltt_xdefs *d, const char *path, const char *buf,
    size_t len, struct tv_error *err)
{
	struct pctx c = { path, d->arena, NULL, err, 0 };
	enum tv_status st = TV_OK;
	xmlDocPtr doc;
	void *vdoc;
	xmlNodePtr root, k;

	st = ltt_xml_read(path, buf, len, &vdoc, err);
	if (st != TV_OK)
		return st;
	doc = vdoc;
	root = xmlDocGetRootElement(doc);
	if (is_elem(root, "facility")) {
		st = parse_facility(d, &c, root);
	} else {
		/* Several facilities under some wrapper element. */
		for (k = root->children; k && st == TV_OK; k = k->next)
			if (is_elem(k, "facility"))
				st = parse_facility(d, &c, k);
	}
	xmlFreeDoc(doc);
	return st;
}

/* See ltt-xml.h. */
enum tv_status
ltt_xdefs_load_file(struct ltt_xdefs *d, const char *path,
    struct tv_error *err)
{
	enum tv_status st;
	size_t len;
	char *buf;

	st = tv_read_file(path, LTT_X_MAX_FILE, &buf, &len, err);
	if (st != TV_OK)
		return st;
	st = ltt_xdefs_parse(d, path, buf, len, err);
	free(buf);
	return st;
}

/* Does directory entry name @n end in ".xml"? */
static int
xml_only(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	return e->d_name[0] != '.' && n > 4 &&
	    strcmp(e->d_name + n - 4, ".xml") == 0;
}

/* See ltt-xml.h. */
enum tv_status
ltt_xdefs_load_dir(struct ltt_xdefs *d, const char *dir,
    struct tv_error *err)
{
	struct dirent **ents = NULL;
	enum tv_status st = TV_OK;
	int i, n;

	n = scandir(dir, &ents, xml_only, alphasort);
	if (n < 0)
		return tv_error_at(err, TV_IO, dir, TV_NO_OFFSET,
		    _("cannot list the event definitions directory"));
	for (i = 0; i < n; i++) {
		char *p;

		if (st == TV_OK && i < LTT_X_MAX_FILES) {
			tv_xasprintf(&p, "%s/%s", dir, ents[i]->d_name);
			st = ltt_xdefs_load_file(d, p, err);
			free(p);
		}
		free(ents[i]);
	}
	free(ents);
	return st;
}

/* See ltt-xml.h. */
const struct ltt_xfacility *
ltt_xdefs_find(const struct ltt_xdefs *d, const char *name,
    uint32_t checksum, bool any_checksum)
{
	const struct ltt_xfacility *first = NULL;
	uint32_t i;

	for (i = 0; i < d->nfacs; i++) {
		if (strcmp(d->facs[i].name, name) != 0)
			continue;
		if (d->facs[i].checksum == checksum)
			return &d->facs[i];
		if (!first)
			first = &d->facs[i];
	}
	return any_checksum ? first : NULL;
}

/* Append the canonical text of @t to @sb (for the checksum). */
static void
canon_type(struct tv_strbuf *sb, const struct ltt_xtype *t)
{
	uint32_t i;

	tv_strbuf_addf(sb, "(%d %d %u %d", (int)t->kind, (int)t->sizek,
	    (unsigned)t->bytes, (int)t->net_order);
	for (i = 0; i < t->nfields; i++) {
		tv_strbuf_addf(sb, " %s:", t->fields[i].name);
		canon_type(sb, t->fields[i].type);
	}
	for (i = 0; i < t->nlabels; i++)
		tv_strbuf_addf(sb, " %s=%lld", t->labels[i].name,
		    (long long)t->labels[i].value);
	if (t->kind == LTT_X_ARRAY)
		tv_strbuf_addf(sb, " [%llu]", (unsigned long long)t->length);
	if (t->len)
		canon_type(sb, t->len);
	if (t->elem)
		canon_type(sb, t->elem);
	tv_strbuf_addc(sb, ')');
}

/* See ltt-xml.h. */
uint32_t
ltt_xfacility_checksum(const struct ltt_xfacility *f)
{
	struct tv_strbuf sb;
	uLong crc;
	uint32_t i;

	tv_strbuf_init(&sb);
	tv_strbuf_addf(&sb, "facility %s", f->name);
	for (i = 0; i < f->nevents; i++) {
		tv_strbuf_addf(&sb, "\nevent %s ", f->events[i].name);
		if (f->events[i].type)
			canon_type(&sb, f->events[i].type);
	}
	crc = crc32(0L, (const Bytef *)sb.buf, (uInt)sb.len);
	tv_strbuf_fini(&sb);
	return (uint32_t)crc;
}
