/*
 * XML reading for the LTT driver family: eventdefs/ files (*.xml) and
 * info/system.xml, through libxml2 and the shared lenient reader of
 * src/util/xml-read.c (unquoted attribute values; here also primitive type
 * elements left open, such as <pointer>).
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
#include "ltt-xml.h"

/* Type elements that never have type content: closed if left open. */
static const char *const empty_tags[] = {
	"int", "uint", "float", "string", "pointer", "long", "ulong",
	"size_t", "ssize_t", "off_t", "char", "uchar", "short", "ushort",
	"int_fixed", "uint_fixed", "typeref", "label", NULL,
};

/* See ltt-xml.h: the shared lenient reader with the eventdefs rules. */
enum tv_status
ltt_xml_read(const char *path, const char *buf, size_t len, void **out,
    struct tv_error *err)
{
	struct tv_xml_opts o = {
		.empty_tags = empty_tags,
		.doctype_msg = _("document type declarations are not "
		    "allowed in event definitions"),
		.too_large_msg = _("event definition file too large"),
		.no_cdata = true,
	};

	return tv_xml_read(path, buf, len, &o, out, err);
}

/* See ltt-xml.h. */
enum tv_status
ltt_xml_attrs(const char *path, const char *buf, size_t len,
    struct tv_arena *a, struct tv_env_entry **out, uint32_t *nout,
    struct tv_error *err)
{
	struct tv_env_entry *env;
	enum tv_status st;
	xmlDocPtr doc;
	void *vdoc;
	xmlNodePtr root;
	xmlAttrPtr at;
	xmlChar *txt;
	uint32_t n = 0, i = 0;

	st = ltt_xml_read(path, buf, len, &vdoc, err);
	if (st != TV_OK)
		return st;
	doc = vdoc;
	root = xmlDocGetRootElement(doc);
	for (at = root->properties; at && n < 256; at = at->next)
		n++;
	env = tv_arena_zalloc(a, sizeof(*env) * (n + 1));
	for (at = root->properties; at && i < n; at = at->next) {
		xmlChar *v = xmlNodeListGetString(doc, at->children, 1);

		env[i].key = tv_arena_strdup(a, (const char *)at->name);
		env[i].str = tv_arena_strdup(a, v ? (const char *)v : "");
		xmlFree(v);
		i++;
	}
	txt = xmlNodeGetContent(root);
	if (txt) {
		const char *p = (const char *)txt, *e;

		while (*p && isspace((unsigned char)*p))
			p++;
		e = p + strlen(p);
		while (e > p && isspace((unsigned char)e[-1]))
			e--;
		if (e > p) {
			env[i].key = "description";
			env[i].str = tv_arena_strndup(a, p, (size_t)(e - p));
			i++;
		}
		xmlFree(txt);
	}
	xmlFreeDoc(doc);
	*out = env;
	*nout = i;
	return TV_OK;
}
