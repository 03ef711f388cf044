/*
 * The libxml2 side of the bookmarks: read a bookmarks.xml leniently (the
 * shared reader of src/util/xml-read.c: no network, no DTD, no entities),
 * list its <location>s, replay logged changes on a document in place so
 * that whatever tview does not know stays as it was, and serialize it.
 */
#include "tview/tview.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "tview/bookmark.h"
#include "tview/error.h"
#include "tview/i18n.h"
#include "tview/util.h"
#include "tview/xml.h"
#include "bookmark-priv.h"

#define BM_INDENT	"\n  "

/* A new empty document: <bookmarks>\n</bookmarks>. */
void *
tv_bm_doc_new(void)
{
	xmlDocPtr doc = xmlNewDoc(BAD_CAST "1.0");
	xmlNodePtr root = xmlNewDocNode(doc, NULL, BAD_CAST "bookmarks", NULL);

	xmlDocSetRootElement(doc, root);
	xmlAddChild(root, xmlNewDocText(doc, BAD_CAST "\n"));
	return doc;
}

/* A deep copy of @doc. */
void *
tv_bm_doc_copy(void *doc)
{
	return xmlCopyDoc(doc, 1);
}

/* Free a document (NULL is fine). */
void
tv_bm_doc_free(void *doc)
{
	if (doc)
		xmlFreeDoc(doc);
}

/* Parse @buf leniently into a document whose root is <bookmarks>. */
enum tv_status
tv_bm_doc_read(const char *path, const char *buf, size_t len, void **out,
    struct tv_error *err)
{
	struct tv_xml_opts o = {
		.empty_tags = NULL,
		.doctype_msg = _("document type declarations are not "
		    "allowed in bookmarks"),
		.too_large_msg = _("bookmark file too large"),
		.no_cdata = false,
	};
	enum tv_status st;
	xmlNodePtr root;
	void *doc;

	*out = NULL;
	if (len > TV_BM_MAX_FILE)
		return tv_error_at(err, TV_UNSUPPORTED, path, TV_NO_OFFSET,
		    "%s", o.too_large_msg);
	st = tv_xml_read(path, buf, len, &o, &doc, err);
	if (st != TV_OK)
		return st;
	root = xmlDocGetRootElement(doc);
	if (strcmp((const char *)root->name, "bookmarks") != 0) {
		struct tv_loc loc = { path, TV_NO_OFFSET,
		    (uint32_t)xmlGetLineNo(root), 0 };

		st = tv_error_set(err, TV_SEMANTIC, &loc,
		    _("the root element is <%s>, not <bookmarks>"),
		    (const char *)root->name);
		xmlFreeDoc(doc);
		return st;
	}
	*out = doc;
	return TV_OK;
}

/* An unsigned decimal (or 0x hex) 64-bit value; false if not one. */
static bool
parse_u64(const char *s, uint64_t *out)
{
	char *end;

	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*out = strtoull(s, &end, 0);
	if (errno || end == s)
		return false;
	while (*end == ' ' || *end == '\t' || *end == '\n')
		end++;
	return *end == '\0';
}

/* Attribute @name of @node as a malloc'ed string, or NULL. */
static char *
attr(xmlNodePtr node, const char *name)
{
	xmlChar *v = xmlGetProp(node, BAD_CAST name);
	char *s;

	if (!v)
		return NULL;
	s = tv_xstrdup((const char *)v);
	xmlFree(v);
	return s;
}

/* The element's own text (text and CDATA children), trimmed. */
static char *
node_text(xmlNodePtr node)
{
	struct tv_strbuf sb;
	xmlNodePtr c;
	size_t b = 0, e;
	char *s;

	tv_strbuf_init(&sb);
	for (c = node->children; c; c = c->next)
		if ((c->type == XML_TEXT_NODE ||
		    c->type == XML_CDATA_SECTION_NODE) && c->content)
			tv_strbuf_adds(&sb, (const char *)c->content);
	e = sb.len;
	while (b < e && strchr(" \t\r\n", sb.buf[b]))
		b++;
	while (e > b && strchr(" \t\r\n", sb.buf[e - 1]))
		e--;
	s = tv_xstrndup(sb.buf ? sb.buf + b : "", e - b);
	tv_strbuf_fini(&sb);
	return s;
}

/* Fill @it from <location> @node; TV_SEMANTIC with path:line if bad. */
static enum tv_status
item_from_node(struct tv_bm_item *it, xmlNodePtr node, const char *path,
    struct tv_error *err)
{
	static const char *const names[] = {
		"time", "start_time", "end_time",
		"cycle", "start_cycle", "end_cycle", "cpu",
	};
	char *v[TV_ARRAY_SIZE(names)];
	struct tv_loc loc = { path, TV_NO_OFFSET,
	    (uint32_t)xmlGetLineNo(node), 0 };
	struct tv_bookmark *b = &it->bm;
	enum tv_status st = TV_OK;
	const char *bad = NULL;
	uint64_t u;
	size_t i;

	memset(it, 0, sizeof(*it));
	for (i = 0; i < TV_ARRAY_SIZE(names); i++)
		v[i] = attr(node, names[i]);
	it->node = node;
	it->name = attr(node, "name");
	if (!it->name)
		it->name = tv_xstrdup("");
	it->text = node_text(node);
	b->name = it->name;
	b->text = it->text;
	b->line = loc.line;
	b->cpu = TV_BM_NO_CPU;
	b->start = b->end = TV_TIME_NONE;
	if (v[6]) {
		if (!parse_u64(v[6], &u) || u > INT32_MAX)
			bad = "cpu";
		else
			b->cpu = (int32_t)u;
	}
	if (bad) {
		/* reported below */
	} else if (v[0]) {
		if (!tv_bookmark_parse_time(v[0], &b->start))
			bad = "time";
		b->end = b->start;
	} else if (v[1] || v[2]) {
		b->interval = true;
		if (!v[1] || !tv_bookmark_parse_time(v[1], &b->start))
			bad = "start_time";
		else if (!v[2] || !tv_bookmark_parse_time(v[2], &b->end))
			bad = "end_time";
	} else if (v[3]) {
		b->by_cycle = true;
		if (!parse_u64(v[3], &b->start_cycle))
			bad = "cycle";
		b->end_cycle = b->start_cycle;
	} else if (v[4] || v[5]) {
		b->by_cycle = true;
		b->interval = true;
		if (!v[4] || !parse_u64(v[4], &b->start_cycle))
			bad = "start_cycle";
		else if (!v[5] || !parse_u64(v[5], &b->end_cycle))
			bad = "end_cycle";
	} else {
		st = tv_error_set(err, TV_SEMANTIC, &loc,
		    _("<location> has neither time, start_time and end_time, "
		    "cycle, nor start_cycle and end_cycle"));
	}
	if (bad)
		st = tv_error_set(err, TV_SEMANTIC, &loc,
		    _("<location> attribute %s is missing or not a valid "
		    "value"), bad);
	if (st == TV_OK && b->interval && !b->by_cycle && b->end < b->start) {
		int64_t t = b->start;

		b->start = b->end;
		b->end = t;
	}
	if (st == TV_OK && b->by_cycle && b->end_cycle < b->start_cycle) {
		u = b->start_cycle;
		b->start_cycle = b->end_cycle;
		b->end_cycle = u;
	}
	for (i = 0; i < TV_ARRAY_SIZE(names); i++)
		free(v[i]);
	return st;
}

/* See bookmark-priv.h. */
enum tv_status
tv_bm_doc_items(struct tv_bookmarks *bms, const char *path,
    struct tv_error *err)
{
	xmlNodePtr root = xmlDocGetRootElement(bms->doc), c;
	enum tv_status st = TV_OK;
	uint32_t order = 0;
	size_t i;

	for (i = 0; i < bms->count; i++) {
		free(bms->items[i].name);
		free(bms->items[i].text);
	}
	bms->count = 0;
	for (c = root ? root->children : NULL; c; c = c->next) {
		struct tv_bm_item *it;

		if (c->type != XML_ELEMENT_NODE ||
		    strcmp((const char *)c->name, "location") != 0)
			continue;
		if (bms->count >= TV_BM_MAX_COUNT) {
			struct tv_loc loc = { path, TV_NO_OFFSET,
			    (uint32_t)xmlGetLineNo(c), 0 };

			return tv_error_set(err, TV_UNSUPPORTED, &loc,
			    _("more than %u bookmarks"), TV_BM_MAX_COUNT);
		}
		TV_VEC_GROW(bms->items, bms->count, bms->cap);
		it = &bms->items[bms->count];
		st = item_from_node(it, c, path, err);
		if (st != TV_OK) {
			free(it->name);
			free(it->text);
			return st;
		}
		it->order = order++;
		bms->count++;
	}
	return TV_OK;
}

/* See bookmark-priv.h. */
char *
tv_bm_node_sig(void *doc, void *node)
{
	xmlBufferPtr b = xmlBufferCreate();
	char *s;

	xmlNodeDump(b, doc, node, 0, 0);
	s = tv_xstrdup((const char *)xmlBufferContent(b));
	xmlBufferFree(b);
	return s;
}

/* The <location> of @doc whose serialized form is @sig, or NULL. */
static xmlNodePtr
find_sig(xmlDocPtr doc, const char *sig)
{
	xmlNodePtr root = xmlDocGetRootElement(doc), c;

	for (c = root ? root->children : NULL; c; c = c->next) {
		char *s;
		bool same;

		if (c->type != XML_ELEMENT_NODE ||
		    strcmp((const char *)c->name, "location") != 0)
			continue;
		s = tv_bm_node_sig(doc, c);
		same = strcmp(s, sig) == 0;
		free(s);
		if (same)
			return c;
	}
	return NULL;
}

/* Is @n a text node of blanks only? */
static bool
blank_text(xmlNodePtr n)
{
	const xmlChar *p;

	if (!n || n->type != XML_TEXT_NODE)
		return false;
	for (p = n->content; p && *p; p++)
		if (!strchr(" \t\r\n", *p))
			return false;
	return true;
}

/* Set @node's name and text; attributes absent stay absent when empty. */
static void
set_name_text(xmlDocPtr doc, xmlNodePtr node, const char *name,
    const char *text)
{
	xmlNodePtr c, next;
	char *old;

	old = attr(node, "name");
	if (name && name[0])
		xmlSetProp(node, BAD_CAST "name", BAD_CAST name);
	else if (old)
		xmlUnsetProp(node, BAD_CAST "name");
	free(old);
	old = node_text(node);
	if (strcmp(old, text ? text : "") != 0) {
		for (c = node->children; c; c = next) {
			next = c->next;
			if (c->type == XML_TEXT_NODE ||
			    c->type == XML_CDATA_SECTION_NODE) {
				xmlUnlinkNode(c);
				xmlFreeNode(c);
			}
		}
		if (text && text[0]) {
			/* xmlNewDocText copies; escaping happens on output */
			xmlNodePtr t = xmlNewDocText(doc, BAD_CAST text);

			if (node->children)
				xmlAddPrevSibling(node->children, t);
			else
				xmlAddChild(node, t);
		}
	}
	free(old);
}

/* A new <location> for @spec at the end of the root, indented. */
static void
add_location(xmlDocPtr doc, const struct tv_bookmark_spec *spec)
{
	xmlNodePtr root = xmlDocGetRootElement(doc), node, last;
	char buf[64];

	node = xmlNewDocNode(doc, NULL, BAD_CAST "location", NULL);
	if (spec->name && spec->name[0])
		xmlSetProp(node, BAD_CAST "name", BAD_CAST spec->name);
	if (spec->cpu >= 0) {
		snprintf(buf, sizeof(buf), "%" PRId32, spec->cpu);
		xmlSetProp(node, BAD_CAST "cpu", BAD_CAST buf);
	}
	if (spec->interval) {
		xmlSetProp(node, BAD_CAST "start_time", BAD_CAST
		    tv_bookmark_format_time(spec->start, buf, sizeof(buf)));
		xmlSetProp(node, BAD_CAST "end_time", BAD_CAST
		    tv_bookmark_format_time(spec->end, buf, sizeof(buf)));
	} else {
		xmlSetProp(node, BAD_CAST "time", BAD_CAST
		    tv_bookmark_format_time(spec->start, buf, sizeof(buf)));
	}
	if (spec->text && spec->text[0])
		xmlAddChild(node, xmlNewDocText(doc, BAD_CAST spec->text));
	last = root->last;
	if (blank_text(last)) {
		xmlAddPrevSibling(last, node);
	} else {
		xmlAddChild(root, node);
		xmlAddNextSibling(node, xmlNewDocText(doc, BAD_CAST "\n"));
	}
	/* after the node is placed, so the blank text cannot merge into it */
	xmlAddPrevSibling(node, xmlNewDocText(doc, BAD_CAST BM_INDENT));
}

/* See bookmark-priv.h. */
bool
tv_bm_op_apply(void *vdoc, const struct tv_bm_op *op)
{
	xmlDocPtr doc = vdoc;
	xmlNodePtr node, prev;

	if (op->kind == TV_BM_OP_ADD) {
		add_location(doc, &op->spec);
		return true;
	}
	node = find_sig(doc, op->sig);
	if (!node)
		return false;
	if (op->kind == TV_BM_OP_EDIT) {
		set_name_text(doc, node, op->spec.name, op->spec.text);
		return true;
	}
	prev = node->prev;
	if (blank_text(prev)) {
		xmlUnlinkNode(prev);
		xmlFreeNode(prev);
	}
	xmlUnlinkNode(node);
	xmlFreeNode(node);
	return true;
}

/* See tview/bookmark.h. */
enum tv_status
tv_bookmarks_parse(struct tv_bookmarks **out, const char *path,
    const char *buf, size_t len, struct tv_error *err)
{
	struct tv_bookmarks *bms;
	enum tv_status st;
	void *doc;

	*out = NULL;
	st = tv_bm_doc_read(path, buf, len, &doc, err);
	if (st != TV_OK)
		return st;
	bms = tv_bookmarks_create();
	tv_bm_doc_free(bms->base);
	tv_bm_doc_free(bms->doc);
	bms->base = doc;
	bms->doc = tv_bm_doc_copy(doc);
	st = tv_bm_doc_items(bms, path, err);
	if (st != TV_OK) {
		tv_bookmarks_destroy(bms);
		return st;
	}
	tv_bm_rebuild(bms);
	*out = bms;
	return TV_OK;
}

/*
 * See bookmark-priv.h.  Always UTF-8: a document read from UTF-16 would
 * otherwise be written back in UTF-16, full of NUL bytes that callers
 * taking the text as a C string would cut; its .bak keeps the original.
 */
void
tv_bm_doc_dump(void *vdoc, char **out, size_t *len)
{
	xmlDocPtr doc = vdoc;
	xmlChar *mem = NULL;
	int size = 0;
	size_t n;

	if (doc->encoding && xmlStrcasecmp(doc->encoding, BAD_CAST "UTF-8"))
		xmlDocDumpMemoryEnc(doc, &mem, &size, "UTF-8");
	else
		xmlDocDumpMemory(doc, &mem, &size);
	n = mem && size > 0 ? (size_t)size : 0;
	*out = tv_xmalloc(n + 1);
	if (n)
		memcpy(*out, mem, n);
	(*out)[n] = '\0';
	*len = n;
	xmlFree(mem);
}

/* See tview/bookmark.h. */
void
tv_bookmarks_serialize(const struct tv_bookmarks *bms, char **out,
    size_t *len)
{
	tv_bm_doc_dump(bms->doc, out, len);
}
