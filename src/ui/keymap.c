/*
 * The one table of default key bindings.  The main loop looks keys up
 * here and the help screen is generated from it, so they always agree.
 */
#include "ui-priv.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

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
	{ '.',			N_("."),	TV_UI_REQ_TIME_PRECISION },
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
	{ 'r',			N_("r"),	TV_UI_REQ_STATS_SCOPE },
	{ FN(KEY_LEFT),		N_("Left"),	TV_UI_REQ_LEFT },
	{ FN(KEY_RIGHT),	N_("Right"),	TV_UI_REQ_RIGHT },
	{ '<',			N_("<"),	TV_UI_REQ_PAN_LEFT },
	{ '>',			N_(">"),	TV_UI_REQ_PAN_RIGHT },
	{ '+',			N_("+"),	TV_UI_REQ_ZOOM_IN },
	{ '=',			N_("="),	TV_UI_REQ_ZOOM_IN },
	{ '-',			N_("-"),	TV_UI_REQ_ZOOM_OUT },
	{ 'i',			N_("i"),	TV_UI_REQ_IDLE_THREADS },
	{ '&',			N_("&"),	TV_UI_REQ_FILTER_PROMPT },
	{ 'f',			N_("f"),	TV_UI_REQ_FILTER_TOGGLE },
	{ 'F',			N_("F"),	TV_UI_REQ_FOLLOW },
	{ 'O',			N_("O"),	TV_UI_REQ_FILTER_CPU },
	{ 'T',			N_("T"),	TV_UI_REQ_FILTER_TASK },
	{ 'E',			N_("E"),	TV_UI_REQ_FILTER_NAME },
	/*
	 * The terminal sends Ctrl-I as Tab, one key: its handler moves
	 * forward in the jump list (jump-newer) when there is no pane to
	 * focus, so Ctrl-I works as in vim without a second binding.
	 */
	{ '\t',			N_("Tab"),	TV_UI_REQ_FOCUS_NEXT },
	{ TV_UI_CTRL('o'),	N_("Ctrl-O"),	TV_UI_REQ_JUMP_OLDER },
	{ '\'',			N_("''"),	TV_UI_REQ_JUMP_MARK },
	{ TV_UI_CTRL('z'),	N_("Ctrl-Z"),	TV_UI_REQ_SUSPEND },
	{ 'y',			N_("y"),	TV_UI_REQ_COPY },
	{ 'Y',			N_("Y"),	TV_UI_REQ_APPEND },
	{ '#',			N_("#"),	TV_UI_REQ_MOUSE },
	{ 'K',			N_("K"),	TV_UI_REQ_COLOUR_BY },
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

/* Bindings from the config file, looked up before the table; each
   with its key's printable name, so that the help lists it. */
#define USER_MAX	64
#define USER_LABEL	16
static struct tv_ui_binding user[USER_MAX];
static char user_label[USER_MAX][USER_LABEL];
static size_t nuser;

/* The key named @name as the help names keys ("Ctrl-O", "F5", "w"). */
static int
key_of_name(const char *name)
{
	size_t i;
	int n;

	for (i = 0; i < TV_ARRAY_SIZE(bindings); i++)
		if (strcmp(name, bindings[i].label) == 0)
			return bindings[i].key;
	if (strncmp(name, "Ctrl-", 5) == 0 && name[5] && !name[6])
		return TV_UI_CTRL(name[5]);
	if (name[0] == 'F' && sscanf(name + 1, "%d", &n) == 1 && n >= 1 &&
	    n <= 63)
		return FN(KEY_F(n));
	if (name[0] && !name[1] && (unsigned char)name[0] > ' ' &&
	    (unsigned char)name[0] < 0x7f)
		return name[0];
	return -1;
}

/* See ui-priv.h. */
const char *
tv_ui_keymap_bind(const char *key, const char *reqname)
{
	int k = key_of_name(key), r;

	if (k < 0)
		return _("unknown key name (a character, Ctrl-X, F5, or a name "
		    "of the help: PgDn, Enter...)");
	for (r = 1; r < TV_UI_REQ_COUNT; r++)
		if (strcmp(tv_ui_req_name((enum tv_ui_req)r), reqname) == 0)
			break;
	if (r == TV_UI_REQ_COUNT)
		return _("unknown action (the names are listed in tview(1))");
	if (nuser == USER_MAX)
		return _("too many key bindings");
	user[nuser].key = k;
	tv_ui_key_text(k, user_label[nuser], USER_LABEL);
	user[nuser].label = user_label[nuser];
	user[nuser].req = (enum tv_ui_req)r;
	nuser++;
	return NULL;
}

/* The request bound to @key, TV_UI_REQ_NONE if unbound. */
enum tv_ui_req
tv_ui_keymap_lookup(int key)
{
	size_t i;

	for (i = nuser; i-- > 0;)
		if (user[i].key == key)
			return user[i].req;

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

/* See ui-priv.h: the config's bindings, in the file's order. */
const struct tv_ui_binding *
tv_ui_keymap_user(size_t *count)
{
	*count = nuser;
	return user;
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

/* See ui-priv.h. */
void
tv_ui_key_text(int key, char *buf, size_t size)
{
	mbstate_t mbs;
	char mb[MB_LEN_MAX + 1];
	size_t i, n;

	for (i = 0; i < TV_ARRAY_SIZE(bindings); i++) {
		if (bindings[i].key == key) {
			snprintf(buf, size, "%s", _(bindings[i].label));
			return;
		}
	}
	if (key & TV_UI_KEY_FN) {
		int k = key & ~TV_UI_KEY_FN;

		if (k >= KEY_F(0) && k <= KEY_F(63))
			snprintf(buf, size, "F%d", k - KEY_F(0));
		else
			snprintf(buf, size, "%s", keyname(k) ? keyname(k) :
			    "?");
		return;
	}
	if (key < 0x20) {
		snprintf(buf, size, "Ctrl-%c", key + '@');
		return;
	}
	if (key == 0x7f) {
		snprintf(buf, size, "%s", _("Backspace"));
		return;
	}
	memset(&mbs, 0, sizeof(mbs));
	n = wcrtomb(mb, (wchar_t)key, &mbs);
	if (n == (size_t)-1)
		n = 0;
	mb[n] = '\0';
	snprintf(buf, size, "%s", n ? mb : "?");
}
