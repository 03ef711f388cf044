/*
 * Lenient XML reading through libxml2, shared by the LTT driver and the
 * bookmarks (see tview/xml.h).
 *
 * LTT files were written by hand or by old tools and are not always
 * well-formed XML: attribute values without quotes (<uint size=4/>) and,
 * in eventdefs, primitive type elements left open (<pointer>).  A first
 * pass quotes such values and closes such elements, inserting characters
 * but never lines, so libxml2's line numbers still point into the file.
 * libxml2 then parses strictly, with no network, no DTD loading and no
 * entity substitution; a DOCTYPE is refused outright: in the bytes when
 * they are ASCII-compatible (with its line), and always where libxml2
 * meets one, whatever the encoding (UTF-16 hides it from a byte scan).
 * Errors carry path:line:column from libxml2's first error.
 */
#include "tview/tview.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "tview/error.h"
#include "tview/i18n.h"
#include "tview/util.h"
#include "tview/xml.h"

/* Is the element name at @p (@n bytes) one of @empty_tags? */
static bool
is_empty_tag(const char *const *empty_tags, const char *p, size_t n)
{
	size_t i;

	if (!empty_tags)
		return false;
	for (i = 0; empty_tags[i]; i++)
		if (strlen(empty_tags[i]) == n &&
		    memcmp(empty_tags[i], p, n) == 0)
			return true;
	return false;
}

/* Is @c part of an XML name? */
static bool
name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-' ||
	    c == '.' || c == ':';
}

/* Copy through the end marker @end (included), or to the end of input. */
static size_t
copy_until(struct tv_strbuf *sb, const char *buf, size_t len, size_t i,
    const char *end)
{
	const char *p = memmem(buf + i, len - i, end, strlen(end));
	size_t stop = p ? (size_t)(p - buf) + strlen(end) : len;

	tv_strbuf_add(sb, buf + i, stop - i);
	return stop;
}

/*
 * The lenient-to-strict pass described at the top.  TV_SYNTAX if the text
 * holds a DOCTYPE.
 */
static enum tv_status
normalize(const char *path, const char *buf, size_t len,
    const struct tv_xml_opts *o, struct tv_strbuf *sb, struct tv_error *err)
{
	size_t i = 0, line = 1;

	while (i < len) {
		size_t n0, j;
		bool empty;

		if (buf[i] != '<') {
			if (buf[i] == '\n')
				line++;
			tv_strbuf_addc(sb, buf[i++]);
			continue;
		}
		if (i + 1 < len && buf[i + 1] == '!') {
			if (len - i >= 9 && strncasecmp(buf + i, "<!DOCTYPE", 9)
			    == 0) {
				struct tv_loc loc = { path, TV_NO_OFFSET,
				    (uint32_t)line, 0 };

				return tv_error_set(err, TV_SYNTAX, &loc, "%s",
				    o->doctype_msg);
			}
			i = copy_until(sb, buf, len, i,
			    len - i >= 4 && memcmp(buf + i, "<!--", 4) == 0 ?
			    "-->" : ">");
			continue;
		}
		if (i + 1 < len && buf[i + 1] == '?') {
			i = copy_until(sb, buf, len, i, "?>");
			continue;
		}
		if (i + 1 < len && buf[i + 1] == '/') {
			for (j = i + 2; j < len && name_char(buf[j]); j++)
				;
			if (is_empty_tag(o->empty_tags, buf + i + 2, j - i - 2)) {
				while (j < len && buf[j] != '>')
					j++;
				i = j < len ? j + 1 : len;
			} else {
				i = copy_until(sb, buf, len, i, ">");
			}
			continue;
		}
		if (i + 1 >= len || !isalpha((unsigned char)buf[i + 1])) {
			tv_strbuf_addc(sb, buf[i++]);
			continue;
		}
		/* A start tag: name, then attributes. */
		n0 = i + 1;
		for (j = n0; j < len && name_char(buf[j]); j++)
			;
		empty = is_empty_tag(o->empty_tags, buf + n0, j - n0);
		tv_strbuf_add(sb, buf + i, j - i);
		i = j;
		for (;;) {
			while (i < len && isspace((unsigned char)buf[i])) {
				if (buf[i] == '\n')
					line++;
				tv_strbuf_addc(sb, buf[i++]);
			}
			if (i >= len)
				break;
			if (buf[i] == '>') {
				tv_strbuf_adds(sb, empty ? "/>" : ">");
				i++;
				break;
			}
			if (buf[i] == '/' && i + 1 < len && buf[i + 1] == '>') {
				tv_strbuf_adds(sb, "/>");
				i += 2;
				break;
			}
			if (!name_char(buf[i])) {
				tv_strbuf_addc(sb, buf[i++]);
				continue;
			}
			for (j = i; j < len && name_char(buf[j]); j++)
				;
			tv_strbuf_add(sb, buf + i, j - i);
			i = j;
			if (i >= len || buf[i] != '=')
				continue;
			tv_strbuf_addc(sb, buf[i++]);
			if (i < len && (buf[i] == '"' || buf[i] == '\'')) {
				char q[2] = { buf[i], 0 };

				tv_strbuf_addc(sb, buf[i++]);
				i = copy_until(sb, buf, len, i, q);
				continue;
			}
			tv_strbuf_addc(sb, '"');
			while (i < len && !isspace((unsigned char)buf[i]) &&
			    buf[i] != '>' && !(buf[i] == '/' && i + 1 < len &&
			    buf[i + 1] == '>')) {
				if (buf[i] == '"')
					tv_strbuf_adds(sb, "&quot;");
				else if (buf[i] == '<')
					tv_strbuf_adds(sb, "&lt;");
				else
					tv_strbuf_addc(sb, buf[i]);
				i++;
			}
			tv_strbuf_addc(sb, '"');
		}
	}
	return TV_OK;
}

/* The first libxml2 error of a parse, kept by on_error(). */
struct xml_err {
	bool		 set;
	int		 line;
	int		 col;
	char		 msg[256];
	int		 doctype_line;	/* > 0: a DOCTYPE was met there */
};

/*
 * libxml2 met <!DOCTYPE: stop before it reads a single declaration (no
 * entity is ever defined, let alone expanded).
 */
static void
on_doctype(void *data, const xmlChar *name, const xmlChar *ext_id,
    const xmlChar *sys_id)
{
	xmlParserCtxtPtr ctxt = data;
	struct xml_err *xe = ctxt ? ctxt->_private : NULL;

	(void)name;
	(void)ext_id;
	(void)sys_id;
	if (xe && !xe->doctype_line)
		xe->doctype_line = ctxt->input && ctxt->input->line > 0 ?
		    ctxt->input->line : 1;
	xmlStopParser(ctxt);
}

/* libxml2's structured error callback: keep the first error. */
static void
on_error(void *data, xmlErrorPtr e)
{
	xmlParserCtxtPtr ctxt = data;
	struct xml_err *xe = ctxt ? ctxt->_private : NULL;
	size_t n;

	if (!xe || xe->set || !e || e->level < XML_ERR_ERROR)
		return;
	xe->set = true;
	xe->line = e->line;
	xe->col = e->int2;
	snprintf(xe->msg, sizeof(xe->msg), "%s", e->message ? e->message :
	    "?");
	n = strlen(xe->msg);
	while (n && (xe->msg[n - 1] == '\n' || xe->msg[n - 1] == ' '))
		xe->msg[--n] = '\0';
}

/* See tview/xml.h. */
enum tv_status
tv_xml_read(const char *path, const char *buf, size_t len,
    const struct tv_xml_opts *o, void **out, struct tv_error *err)
{
	struct tv_strbuf sb;
	xmlParserCtxtPtr ctxt;
	struct xml_err xe;
	enum tv_status st;
	xmlDocPtr doc;

	*out = NULL;
	tv_strbuf_init(&sb);
	st = normalize(path, buf, len, o, &sb, err);
	if (st != TV_OK) {
		tv_strbuf_fini(&sb);
		return st;
	}
	if (sb.len > INT32_MAX) {
		tv_strbuf_fini(&sb);
		return tv_error_at(err, TV_UNSUPPORTED, path, TV_NO_OFFSET,
		    "%s", o->too_large_msg);
	}
	ctxt = xmlNewParserCtxt();
	if (!ctxt) {
		tv_strbuf_fini(&sb);
		return tv_error_set(err, TV_NOMEM, NULL, "%s",
		    tv_status_str(TV_NOMEM));
	}
	memset(&xe, 0, sizeof(xe));
	ctxt->_private = &xe;
	ctxt->sax->serror = on_error;
	ctxt->sax->internalSubset = on_doctype;
	ctxt->sax->initialized = XML_SAX2_MAGIC;
	doc = xmlCtxtReadMemory(ctxt, sb.buf ? sb.buf : "", (int)sb.len,
	    path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR |
	    XML_PARSE_NOWARNING | (o->no_cdata ? XML_PARSE_NOCDATA : 0));
	tv_strbuf_fini(&sb);
	if (xe.doctype_line || (doc && (doc->intSubset || doc->extSubset))) {
		struct tv_loc loc = { path, TV_NO_OFFSET,
		    xe.doctype_line > 0 ? (uint32_t)xe.doctype_line : 1, 0 };

		if (doc)
			xmlFreeDoc(doc);
		xmlFreeParserCtxt(ctxt);
		return tv_error_set(err, TV_SYNTAX, &loc, "%s",
		    o->doctype_msg);
	}
	if (!doc || xe.set || !ctxt->wellFormed) {
		struct tv_loc loc = { path, TV_NO_OFFSET,
		    xe.set && xe.line > 0 ? (uint32_t)xe.line : 1,
		    xe.set && xe.col > 0 ? (uint32_t)xe.col : 0 };

		if (doc)
			xmlFreeDoc(doc);
		xmlFreeParserCtxt(ctxt);
		return tv_error_set(err, TV_SYNTAX, &loc, "%s",
		    xe.set ? xe.msg : _("malformed XML"));
	}
	xmlFreeParserCtxt(ctxt);
	if (!xmlDocGetRootElement(doc)) {
		xmlFreeDoc(doc);
		return tv_error_set(err, TV_SYNTAX, &(struct tv_loc){ path,
		    TV_NO_OFFSET, 1, 0 }, _("no root element"));
	}
	*out = doc;
	return TV_OK;
}
