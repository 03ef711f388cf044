/*
 * Matching event names against the state rules a driver hands through
 * tv_format_ops (state-rules.h): the core knows the matching, the
 * drivers know their events.  Runs once per event class, not per event.
 */
#include "tview/tview.h"

#include <string.h>

#include "tview/format.h"
#include "state-priv.h"

/* Whether @name matches @pattern (exact, or prefix when it ends in '*'). */
static bool
rules_match(const char *pattern, const char *name)
{
	size_t n = strlen(pattern);

	if (n > 0 && pattern[n - 1] == '*')
		return strncmp(pattern, name, n - 1) == 0 &&
		    name[n - 1] != '\0';
	return strcmp(pattern, name) == 0;
}

/* First rule of @ops's tables matching @name exactly as given. */
static const struct tv_state_rule *
rules_lookup(const char *name, const struct tv_format_ops *ops)
{
	const struct tv_state_rule *const *t;
	const struct tv_state_rule *r;

	for (t = ops->state_rules; *t != NULL; t++)
		for (r = *t; r->pattern != NULL; r++)
			if (rules_match(r->pattern, name))
				return r;
	return NULL;
}

/* See state-rules.h. */
const struct tv_state_rule *
tv_state_rule_find(const char *event_name, const struct tv_format_ops *ops)
{
	const struct tv_state_rule *r;
	const char *dot, *colon, *base;

	if (event_name == NULL || ops == NULL || ops->state_rules == NULL)
		return NULL;
	r = rules_lookup(event_name, ops);
	if (r != NULL)
		return r;
	dot = strrchr(event_name, '.');
	colon = strrchr(event_name, ':');
	base = dot > colon ? dot : colon;
	if (base == NULL || base[1] == '\0')
		return NULL;
	return rules_lookup(base + 1, ops);
}

/* See state-rules.h. */
const char *
tv_state_rule_label(const struct tv_state_rule *r, const char *event_name)
{
	const char *base, *dot, *colon;
	size_t n;

	if (r == NULL || event_name == NULL)
		return event_name;
	dot = strrchr(event_name, '.');
	colon = strrchr(event_name, ':');
	base = dot > colon ? dot + 1 : colon != NULL ? colon + 1 : event_name;
	n = strlen(r->pattern);
	if (n == 0 || r->pattern[n - 1] != '*')
		return base;
	if (strncmp(r->pattern, event_name, n - 1) == 0)
		return event_name + n - 1;
	if (strncmp(r->pattern, base, n - 1) == 0)
		return base + n - 1;
	return base;
}
