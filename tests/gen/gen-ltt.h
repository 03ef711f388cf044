/*
 * gen-ltt's parts: the generator state shared by gen-ltt.c (options,
 * event payloads, expected text) and gen-ltt-write.c (the two trace
 * layouts).
 */
#ifndef TVIEW_GEN_LTT_H
#define TVIEW_GEN_LTT_H

#include "tview/tview.h"
#include "tview/util.h"

#include <stdio.h>

struct ltt_xdefs;

#define NS	UINT64_C(1000000000)

/* Options. */
struct opts {
	bool		 newfmt;
	bool		 be;
	bool		 lp64;
	bool		 heartbeat;
	bool		 lost;
	uint32_t	 alignment;
	uint32_t	 minor;		/* fac: 6 or 7 (start time fields) */
	const char	*any_dir;	/* fac: --eventdefs DIR */
	uint32_t	 cpus;
	uint32_t	 events;
	uint32_t	 block;
	uint64_t	 seed;
};

/* One expected output line, sorted into tview's merge order at the end. */
struct line {
	int64_t		 ts;
	uint32_t	 ord;
	uint64_t	 seq;
	char		*text;
};

/* A tracefile being written. */
struct tfile {
	FILE		*fp;
	char		 name[64];	/* stream name as tview shows it */
	uint32_t	 ord;		/* stream ordinal in tview */
	uint8_t		*blk;		/* current block, NULL if none */
	uint64_t	 pos;
	uint64_t	 tsc_first;
	uint64_t	 tsc_last;
	uint64_t	 nblocks;
	uint64_t	 seq;
};

/* The whole generator state. */
struct gen {
	struct opts	 o;
	uint64_t	 rng;
	struct tfile	*files;		/* cpus..., then facilities */
	uint32_t	 nfiles;
	struct line	*lines;
	size_t		 nlines, cap;
	uint32_t	 ck[2];		/* checksums of gen v1, v2 */
	uint64_t	 start_tsc;
	uint64_t	 start_ns;
	uint64_t	 freq;
	uint32_t	 base[2];	/* new format: type id bases */
	struct tv_strbuf text;		/* the line being built */
	/* --eventdefs: the definitions and the payload being written */
	struct ltt_xdefs *any;
	struct tv_arena	*any_arena;
	const struct tv_field_class *cur_fc;
};

/* Payload writer: into the block at *pos, false if it does not fit. */
struct pw {
	struct gen	*g;
	uint8_t		*blk;
	uint64_t	 pos;
	uint64_t	 end;
	uint32_t	 al;
	bool		 ok;
};

extern const char gen_xml_fmt[];
extern const char gen_v2_extra[];
extern const char core_xml[];
extern const char builtin_xml[];

uint64_t	 rnd(struct gen *g);
void		 put(struct gen *g, uint8_t *p, uint64_t v, unsigned n);
uint64_t	 pad(uint64_t off, uint64_t size, uint64_t alignment);
int64_t		 ns_of(const struct gen *g, uint64_t tsc);
void		 gen_payload(struct pw *w, int ev, int ver, uint64_t r1,
		    uint64_t r2);
unsigned	 gen_align(int ev, bool lp64);
void		 add_line(struct gen *g, struct tfile *f, const char *cls,
		    uint64_t tsc);
/* gen-ltt-any.c */
struct tv_field_class;
void		 gen_any_payload(struct pw *w,
		    const struct tv_field_class *fc, uint64_t seed);
int		 gen_any_load(struct gen *g, const char *src,
		    const char *dir);
/* gen-ltt-write.c */
int		 write_fac(struct gen *g, const char *dir);
int		 write_new(struct gen *g, const char *dir);

#endif /* TVIEW_GEN_LTT_H */
