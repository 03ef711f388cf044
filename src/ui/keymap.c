/*
 * The one table of default key bindings.  The main loop looks keys up
 * here and the help screen is generated from it, so they always agree.
 */
#include "ui-priv.h"

#define FN(k)	((k) | TV_UI_KEY_FN)

static const struct tv_ui_binding bindings[] = {
	{ 'j',			N_("j"),	TV_UI_REQ_DOWN },
	{ FN(KEY_DOWN),		N_("Down"),	TV_UI_REQ_DOWN },
	{ 'k',			N_("k"),	TV_UI_REQ_UP },
	{ FN(KEY_UP),		N_("Up"),	TV_UI_REQ_UP },
	{ FN(KEY_NPAGE),	N_("PgDn"),	TV_UI_REQ_PAGE_DOWN },
	{ ' ',			N_("Space"),	TV_UI_REQ_PAGE_DOWN },
	{ FN(KEY_PPAGE),	N_("PgUp"),	TV_UI_REQ_PAGE_UP },
	{ 'b',			N_("b"),	TV_UI_REQ_PAGE_UP },
	{ TV_UI_CTRL('d'),	N_("Ctrl-D"),	TV_UI_REQ_HALF_DOWN },
	{ TV_UI_CTRL('u'),	N_("Ctrl-U"),	TV_UI_REQ_HALF_UP },
	{ 'g',			N_("g"),	TV_UI_REQ_FIRST },
	{ FN(KEY_HOME),		N_("Home"),	TV_UI_REQ_FIRST },
	{ 'G',			N_("G"),	TV_UI_REQ_LAST },
	{ FN(KEY_END),		N_("End"),	TV_UI_REQ_LAST },
	{ ':',			N_(":"),	TV_UI_REQ_COMMAND },
	{ 't',			N_("t"),	TV_UI_REQ_TIME_PROMPT },
	{ '/',			N_("/"),	TV_UI_REQ_SEARCH_FWD },
	{ '?',			N_("?"),	TV_UI_REQ_SEARCH_BWD },
	{ 'n',			N_("n"),	TV_UI_REQ_SEARCH_NEXT },
	{ 'N',			N_("N"),	TV_UI_REQ_SEARCH_PREV },
	{ 'p',			N_("p"),	TV_UI_REQ_PID_PROMPT },
	{ ']',			N_("]"),	TV_UI_REQ_PID_NEXT },
	{ '[',			N_("["),	TV_UI_REQ_PID_PREV },
	{ '}',			N_("}"),	TV_UI_REQ_NAME_NEXT },
	{ '{',			N_("{"),	TV_UI_REQ_NAME_PREV },
	{ '%',			N_("%"),	TV_UI_REQ_MATCH },
	{ 'c',			N_("c"),	TV_UI_REQ_TIME_STYLE },
	{ 'x',			N_("x"),	TV_UI_REQ_HEX },
	{ 'P',			N_("P"),	TV_UI_REQ_PROCS },
	{ 's',			N_("s"),	TV_UI_REQ_SORT },
	{ 'm',			N_("m"),	TV_UI_REQ_BM_MARK },
	{ 'M',			N_("M"),	TV_UI_REQ_BM_INTERVAL },
	{ 'u',			N_("u"),	TV_UI_REQ_BM_NEXT },
	{ 'U',			N_("U"),	TV_UI_REQ_BM_PREV },
	{ 'B',			N_("B"),	TV_UI_REQ_BOOKMARKS },
	{ 'e',			N_("e"),	TV_UI_REQ_BM_EDIT },
	{ 'd',			N_("d"),	TV_UI_REQ_BM_DELETE },
	{ '\n',			N_("Enter"),	TV_UI_REQ_FIELDS },
	{ '\r',			N_("Enter"),	TV_UI_REQ_FIELDS },
	{ FN(KEY_ENTER),	N_("Enter"),	TV_UI_REQ_FIELDS },
	{ 'C',			N_("C"),	TV_UI_REQ_TIMELINE },
	{ 'S',			N_("S"),	TV_UI_REQ_STATS },
	{ 'L',			N_("L"),	TV_UI_REQ_LATENCY },
	{ FN(KEY_LEFT),		N_("Left"),	TV_UI_REQ_LEFT },
	{ FN(KEY_RIGHT),	N_("Right"),	TV_UI_REQ_RIGHT },
	{ '<',			N_("<"),	TV_UI_REQ_PAN_LEFT },
	{ '>',			N_(">"),	TV_UI_REQ_PAN_RIGHT },
	{ '+',			N_("+"),	TV_UI_REQ_ZOOM_IN },
	{ '=',			N_("="),	TV_UI_REQ_ZOOM_IN },
	{ '-',			N_("-"),	TV_UI_REQ_ZOOM_OUT },
	{ 'i',			N_("i"),	TV_UI_REQ_IDLE_THREADS },
	{ '&',			N_("&"),	TV_UI_REQ_FILTER_PROMPT },
	{ 'F',			N_("F"),	TV_UI_REQ_FILTER_TOGGLE },
	{ 'O',			N_("O"),	TV_UI_REQ_FILTER_CPU },
	{ 'T',			N_("T"),	TV_UI_REQ_FILTER_TASK },
	{ 'E',			N_("E"),	TV_UI_REQ_FILTER_NAME },
	{ '\t',			N_("Tab"),	TV_UI_REQ_FOCUS_NEXT },
	{ 'z',			N_("z"),	TV_UI_REQ_MAXIMISE },
	{ TV_UI_ESC,		N_("Esc"),	TV_UI_REQ_CLOSE },
	{ FN(KEY_F(1)),		N_("F1"),	TV_UI_REQ_HELP },
	{ 'h',			N_("h"),	TV_UI_REQ_HELP },
	{ TV_UI_CTRL('l'),	N_("Ctrl-L"),	TV_UI_REQ_REDRAW },
	{ TV_UI_CTRL('c'),	N_("Ctrl-C"),	TV_UI_REQ_CANCEL },
	{ 'q',			N_("q"),	TV_UI_REQ_QUIT },
};

static const char *const req_names[] = {
#define TV_UI_REQ_NAME(id, name, help) name,
	TV_UI_REQ_LIST(TV_UI_REQ_NAME)
#undef TV_UI_REQ_NAME
};

static const char *const req_helps[] = {
#define TV_UI_REQ_HELP(id, name, help) help,
	TV_UI_REQ_LIST(TV_UI_REQ_HELP)
#undef TV_UI_REQ_HELP
};

/* The request bound to @key, TV_UI_REQ_NONE if unbound. */
enum tv_ui_req
tv_ui_keymap_lookup(int key)
{
	size_t i;

	for (i = 0; i < TV_ARRAY_SIZE(bindings); i++)
		if (bindings[i].key == key)
			return bindings[i].req;
	return TV_UI_REQ_NONE;
}

/* The whole table, for the help screen. */
const struct tv_ui_binding *
tv_ui_keymap(size_t *count)
{
	*count = TV_ARRAY_SIZE(bindings);
	return bindings;
}

/* One int per key from what wget_wch() returned. */
int
tv_ui_key_code(int ret, wint_t wch)
{
	if (ret == KEY_CODE_YES)
		return (int)wch | TV_UI_KEY_FN;
	return (int)wch;
}

/* Stable name of @req. */
const char *
tv_ui_req_name(enum tv_ui_req req)
{
	if ((unsigned)req >= TV_UI_REQ_COUNT)
		return "?";
	return req_names[req];
}

/* Translated help text of @req. */
const char *
tv_ui_req_help(enum tv_ui_req req)
{
	if ((unsigned)req >= TV_UI_REQ_COUNT)
		return "?";
	return _(req_helps[req]);
}
