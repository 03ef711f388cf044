/*
 * Directory listing shared by the trace drivers: scandir() with the hidden
 * entries dropped and the count capped.
 */
#include "tview/tview.h"

#include <dirent.h>
#include <stdlib.h>

#include "tview/dir.h"
#include "tview/util.h"

/* See dir.h. */
char **
tv_dir_list(const char *dir, bool sorted, size_t max, size_t *n)
{
	struct dirent **ents = NULL;
	char **names;
	size_t k = 0;
	int i, cnt;

	*n = 0;
	cnt = scandir(dir, &ents, NULL, sorted ? alphasort : NULL);
	if (cnt < 0)
		return NULL;
	names = tv_xcalloc((size_t)cnt + 1, sizeof(*names));
	for (i = 0; i < cnt; i++) {
		if (ents[i]->d_name[0] != '.' && k < max)
			names[k++] = tv_xstrdup(ents[i]->d_name);
		free(ents[i]);
	}
	free(ents);
	*n = k;
	return names;
}

/* See dir.h. */
void
tv_dir_list_free(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}
