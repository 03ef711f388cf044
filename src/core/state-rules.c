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

/* The part of @event_name after its last '.' or ':', or NULL. */
static const char *
rules_base(const char *event_name)
{
	const char *dot = strrchr(event_name, '.');
	const char *colon = strrchr(event_name, ':');
	const char *base = dot > colon ? dot : colon;

	return base != NULL && base[1] != '\0' ? base + 1 : NULL;
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
	const char *base;

	if (event_name == NULL || ops == NULL || ops->state_rules == NULL)
		return NULL;
	r = rules_lookup(event_name, ops);
	if (r != NULL)
		return r;
	base = rules_base(event_name);
	return base != NULL ? rules_lookup(base, ops) : NULL;
}

/* See state-rules.h. */
bool
tv_rule_name_matches(const char *pattern, const char *event_name)
{
	const char *base;

	if (pattern == NULL || event_name == NULL)
		return false;
	if (rules_match(pattern, event_name))
		return true;
	base = rules_base(event_name);
	return base != NULL && rules_match(pattern, base);
}

/* See state-rules.h. */
const char *
tv_state_rule_label(const struct tv_state_rule *r, const char *event_name)
{
	const char *base;
	size_t n;

	if (r == NULL || event_name == NULL)
		return event_name;
	base = rules_base(event_name);
	if (base == NULL)
		base = event_name;
	n = strlen(r->pattern);
	if (n == 0 || r->pattern[n - 1] != '*')
		return base;
	if (strncmp(r->pattern, event_name, n - 1) == 0)
		return event_name + n - 1;
	if (strncmp(r->pattern, base, n - 1) == 0)
		return base + n - 1;
	return base;
}
