/*
 * Lenient XML reading shared by the LTT driver (eventdefs, system.xml) and
 * the bookmarks (info/bookmarks.xml): hand-written LTT files quote
 * attribute values loosely, so a first pass makes them strict XML before
 * libxml2 parses them with no network, no DTD and no entity loading.
 */
#ifndef TVIEW_XML_H
#define TVIEW_XML_H

#include "tview/tview.h"
#include "tview/error.h"

/* How tv_xml_read() treats a document. */
struct tv_xml_opts {
	/* elements never holding content, closed when left open; NULL: none */
	const char *const	*empty_tags;
	/* translated message for a DOCTYPE, which is always refused */
	const char		*doctype_msg;
	/* translated message for a file too large for libxml2 */
	const char		*too_large_msg;
	/* merge CDATA sections into text (false keeps them as they were) */
	bool			 no_cdata;
};

/**
 * tv_xml_read() - parse XML text @buf (@len bytes, named @path in
 * messages) leniently: unquoted attribute values are quoted, inserting
 * characters but never lines, so libxml2's positions stay right.  The
 * document is an xmlDocPtr returned as void * (free with xmlFreeDoc).
 * TV_SYNTAX with path:line:col for malformed XML.
 */
enum tv_status	 tv_xml_read(const char *path, const char *buf, size_t len,
		    const struct tv_xml_opts *opts, void **out,
		    struct tv_error *err);

#endif /* TVIEW_XML_H */
