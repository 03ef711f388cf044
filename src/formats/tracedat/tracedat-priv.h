/*
 * Shared inside the trace.dat driver only: the parsed container (one per
 * file, shared by the traces of its instances), the per-stream page
 * tables and the entry points of the driver's passes.
 *
 *   tracedat.c          the vtable, probe, open: file header, traces,
 *                       streams and the page index
 *   tracedat-v6.c       the fixed v6 layout
 *   tracedat-v7.c       v7 sections, the options chain, strings
 *   tracedat-read.c     a bounded cursor over file or section bytes
 *   tracedat-zchunk.c   zlib/zstd: sections, chunked flyrecord data and
 *                       a small LRU of decompressed chunks
 *   ringbuf-page.c      ring-buffer page decoding
 *   tracedat-fmtcheck.c what a format file must look like before
 *                       libtraceevent may parse it
 *   tracedat-events.c   libtraceevent: formats, kallsyms, printk,
 *                       cmdlines; event and field classes
 *   tracedat-print.c    trace-cmd report lines, field values
 */
#ifndef TVIEW_TRACEDAT_PRIV_H
#define TVIEW_TRACEDAT_PRIV_H

#include "tview/trace.h"
#include "tview/format.h"

#include <pthread.h>

struct tep_handle;
struct tep_plugin_list;
struct tep_event;

/* Hard caps: sizes read from the file are checked against these. */
#define TD_MAX_SECTION		(128u << 20)	/* one decompressed section */
/* All the decompressed sections of one file together: each section is
 * decompressed once (options pointing at the same one share it) and a
 * file that declares more than this is refused. */
#define TD_MAX_INFLATE		(256u << 20)
/* One decompressed chunk: trace-cmd writes ten pages to a chunk, so
 * ten of the largest pages fit. */
#define TD_MAX_CHUNK		(16u << 20)
#define TD_MAX_CPUS		4096
#define TD_MAX_EVENTS		65536
#define TD_MAX_SYSTEMS		4096
#define TD_MAX_OPTION_SECTIONS	1024
#define TD_MAX_BUFFERS		256
#define TD_MAX_PAGE		(1u << 20)
#define TD_CHUNK_CACHE		4		/* decompressed chunks kept */
/* Chunk caches of a file, each with its lock: threads reading pages at
 * once take different ones (td_chunks_take).  With TD_CHUNK_CACHE and
 * TD_MAX_CHUNK, at most 256 MiB decompressed. */
#define TD_CHUNK_SETS		4

enum td_compression {
	TD_COMP_NONE,
	TD_COMP_ZLIB,
	TD_COMP_ZSTD,
};

/* A bounded reader over bytes that came from file offset @base_off. */
struct td_cur {
	const char	*path;
	const uint8_t	*data;
	uint64_t	 len;
	uint64_t	 pos;
	uint64_t	 base_off;	/* file offset of data[0] (for errors) */
	bool		 be;		/* big-endian numbers */
};

/* A byte range: in the mapped file or in an owned decompressed buffer. */
struct td_blob {
	const uint8_t	*ptr;
	uint64_t	 len;
};

/* A decompressed section, kept until the file is closed. */
struct td_owned {
	uint64_t	 off;		/* of its section header in the file */
	uint8_t		*buf;		/* owned */
	uint32_t	 len;
};

/* One format file of an event system. */
struct td_format {
	const char	*system;	/* "ftrace", ... */
	struct td_blob	 text;
};

/* One compressed chunk of a CPU's flyrecord data. */
struct td_chunk {
	uint64_t	 file_off;	/* compressed bytes */
	uint32_t	 csize;
	uint32_t	 usize;
	uint64_t	 uoff;		/* offset in the CPU's uncompressed data */
};

/* The data of one CPU of one buffer. */
struct td_cpu {
	uint32_t	 cpu;
	uint64_t	 offset;	/* in the file */
	uint64_t	 size;
	struct td_chunk	*chunks;	/* owned; NULL when not compressed */
	uint32_t	 nchunks;
	uint64_t	 usize;		/* uncompressed total */
	uint64_t	 declared;	/* size the file claims, when cut */
	bool		 truncated;	/* the file ends inside the data */
};

/* One host/guest clock sample of TIME_SHIFT (guest raw time units). */
struct td_tsample {
	int64_t		 time;		/* guest time the sample was taken */
	int64_t		 offset;	/* add to reach the host clock */
	int64_t		 scaling;
	int64_t		 fraction;	/* scaling is fixed point, these bits */
};

/* The TIME_SHIFT samples of one guest CPU, sorted by time, unique. */
struct td_tshift_cpu {
	struct td_tsample *s;		/* owned */
	uint32_t	 n;
};

/* A GUEST option (in a host's file): a guest and its vCPU threads. */
struct td_guest {
	char		*name;		/* owned */
	uint64_t	 trace_id;
	uint32_t	 vcpus;
};

/* One ring buffer (the top one or an instance). */
struct td_buffer {
	char		*name;		/* owned; "" for the top buffer */
	char		*clock;		/* owned, may be NULL */
	uint32_t	 page_size;
	struct td_cpu	*cpus;		/* owned */
	uint32_t	 ncpus;
	uint64_t	 v6_offset;	/* v6 instance: cpu table offset */
	bool		 is_text;	/* latency (BUFFER_TEXT) */
	struct td_blob	 text;
};

/* A cached decompressed chunk; empty when cpu is NULL. */
struct td_chunk_slot {
	const struct td_cpu	*cpu;
	uint32_t		 chunk;
	uint8_t			*buf;	/* owned, kept for the next chunk */
	uint32_t		 cap;	/* of buf */
	uint64_t		 stamp;
};

/*
 * A small LRU of decompressed chunks and the lock that keeps a chunk it
 * gave out in place until the reader is done.  A line of its own: the
 * threads that use the sets side by side would otherwise share it.
 */
struct td_chunks {
	pthread_mutex_t		 lock;
	struct td_chunk_slot	 slots[TD_CHUNK_CACHE];
	uint64_t		 stamp;
} __attribute__((aligned(64)));

/* ---- ringbuf-page.c ---- */
enum td_rec_type {
	TD_RB_DATA,
	TD_RB_PADDING,
	TD_RB_TIME_EXTEND,
	TD_RB_TIME_STAMP,
};

/*
 * Where a page's header puts things, from the file's header_page (the
 * kernel's own description: a 32-bit kernel's commit is 4 bytes even
 * when a 64-bit host wrote the file), or from the long size when the
 * file has no header_page.
 */
struct td_page_layout {
	uint32_t	 commit_off;	/* the commit word (flags, size) */
	uint32_t	 commit_size;	/* 4 or 8; also the lost count's */
	uint32_t	 data_off;	/* first record */
};

/* A ring-buffer page being walked. */
struct td_page_iter {
	const uint8_t	*page;
	uint32_t	 page_size;
	uint32_t	 hdr;		/* data offset: 12 or 16 */
	uint32_t	 commit;	/* bytes of data after the header */
	bool		 be;
	uint32_t	 long_size;
	int64_t		 lost;		/* 0, -1 (unknown) or count */
	uint64_t	 ts;		/* current timestamp (raw) */
	uint32_t	 next;		/* offset in data of the next record */
	bool		 first;		/* no record returned yet */
	/* the record returned by td_page_next */
	uint32_t	 rec_off;	/* offset in data of its header */
	uint32_t	 data_off;	/* offset in data of its payload */
	uint32_t	 data_len;
	bool		 at_start;	/* rec_off == 0: may carry lost */
};

/* The parsed container, shared by every trace of the file. */
struct td_file {
	uint32_t		 refs;
	char			*path;
	struct tv_mapfile	 mf;
	int			 version;
	bool			 be;
	uint32_t		 long_size;
	uint32_t		 page_size;
	struct td_page_layout	 layout;	/* of every page */
	enum td_compression	 comp;
	char			 comp_name[32];
	char			 comp_version[32];
	uint32_t		 cpus;		/* what report prints */
	/* metadata, pointing into mf or into owned[] */
	struct td_blob		 header_page;
	struct td_blob		 header_event;
	struct td_format	*formats;	/* owned */
	uint32_t		 nformats;
	uint32_t		 formats_cap;
	struct td_blob		 kallsyms;
	struct td_blob		 printk;
	struct td_blob		 cmdlines;
	struct td_owned		*owned;		/* decompressed sections */
	uint32_t		 nowned;
	uint64_t		 inflated;	/* their bytes together */
	/* options */
	char			*trace_clock;	/* owned: bracketed list */
	char			*uname;
	char			*tc_version;
	char			*date;
	int64_t			 ts_offset;	/* OFFSET option */
	uint32_t		 tsc_mult;
	uint32_t		 tsc_shift;
	uint64_t		 tsc_offset;
	bool			 has_tsc2nsec;
	bool			 has_trace_clock_opt;
	uint64_t		 trace_id;
	bool			 has_trace_id;
	/* TIME_SHIFT (a guest's file): onto the host clock, per CPU */
	struct td_tshift_cpu	*tshift;	/* owned, tshift_cpus */
	uint32_t		 tshift_cpus;
	uint32_t		 tshift_flags;	/* 1: interpolate */
	uint64_t		 tshift_peer;	/* the host's trace id */
	struct td_guest		*guests;	/* owned, GUEST options */
	uint32_t		 nguests;
	uint32_t		 noptions;
	uint32_t		 option_mask;	/* bit per option id seen */
	struct td_buffer	*buffers;	/* owned; [0] is the top */
	uint32_t		 nbuffers;
	bool			 in_usecs;	/* report prints sec.usec */
	char			*clock;		/* owned: the selected clock */
	/* libtraceevent */
	struct tep_handle	*tep;
	struct tep_plugin_list	*plugins;
	int			 ev_type_off;	/* common_type */
	int			 ev_type_size;
	int			 ev_pid_off;
	int			 ev_pid_size;
	int			 fgraph_entry_id;
	int			 fgraph_exit_id;
	int			 stack_id;
	uint32_t		*class_of_id;	/* owned, by event id */
	uint32_t		 nclass_of_id;
	uint8_t			*scratch;	/* owned: the record printed */
	uint32_t		 scratch_cap;
	/* shared by threads: tep and the printer's state; the chunk
	   caches have locks of their own */
	pthread_mutex_t		 lock;
	struct td_chunks	 chunks[TD_CHUNK_SETS];
};

/*
 * Per event class driver data (tv_event_class.priv): the library's field
 * lists of its event, read once at open (the library makes a new array
 * at each ask).
 */
struct td_class {
	struct tep_format_field	**common;	/* in the trace's arena */
	struct tep_format_field	**fields;	/* in the trace's arena */
};

/* Per trace (buffer) driver data. */
struct td_trace_priv {
	struct td_file		*file;		/* shared */
	uint32_t		 buffer;	/* index in file->buffers */
	char			*prefix;	/* owned: "name: " or NULL */
};

/* Per packet (page) extra data. */
struct td_page {
	int64_t		 lost;		/* 0 none, -1 unknown count, n */
};

/* Per stream driver data. */
struct td_stream_priv {
	const struct td_cpu	*cpu;		/* borrowed from the file */
	struct td_page		*pages;		/* owned, one per packet */
};

/* ---- tracedat-read.c ---- */
void		 td_cur_init(struct td_cur *c, const char *path,
		    const uint8_t *data, uint64_t len, uint64_t base_off,
		    bool be);
uint64_t	 td_get_u(const uint8_t *p, unsigned size, bool be);
enum tv_status	 td_read_u16(struct td_cur *c, uint16_t *v,
		    struct tv_error *err);
enum tv_status	 td_read_u32(struct td_cur *c, uint32_t *v,
		    struct tv_error *err);
enum tv_status	 td_read_u64(struct td_cur *c, uint64_t *v,
		    struct tv_error *err);
enum tv_status	 td_read_bytes(struct td_cur *c, uint64_t n,
		    struct td_blob *out, struct tv_error *err);
enum tv_status	 td_read_str(struct td_cur *c, const char **s,
		    struct tv_error *err);
enum tv_status	 td_expect(struct td_cur *c, const char *magic, size_t n,
		    struct tv_error *err);
enum tv_status	 td_error(const struct td_cur *c, struct tv_error *err,
		    const char *fmt, ...) TV_PRINTFLIKE(3, 4);
void		 td_file_own(struct td_file *f, uint64_t off, uint8_t *buf,
		    uint32_t len);
void		 td_add_format(struct td_file *f, const char *system,
		    struct td_blob text);
uint64_t	 td_blob_offset(const struct td_file *f, const uint8_t *p);

/* ---- tracedat-v6.c / tracedat-v7.c: the two layouts ---- */
enum tv_status	 td_read_v6(struct td_file *f, struct td_cur *c,
		    struct tv_error *err);
enum tv_status	 td_read_v7(struct td_file *f, struct td_cur *c,
		    struct tv_error *err);
void		 td_select_clock(struct td_file *f);

/* ---- tracedat-meta.c: metadata pieces and options, both versions ---- */
/* The option ids. */
enum td_option {
	TD_OPT_DONE = 0, TD_OPT_DATE, TD_OPT_CPUSTAT, TD_OPT_BUFFER, TD_OPT_TRACECLOCK,
	TD_OPT_UNAME, TD_OPT_HOOK, TD_OPT_OFFSET, TD_OPT_CPUCOUNT, TD_OPT_VERSION,
	TD_OPT_PROCMAPS, TD_OPT_TRACEID, TD_OPT_TIME_SHIFT, TD_OPT_GUEST, TD_OPT_TSC2NSEC,
	TD_OPT_STRINGS, TD_OPT_HEADER_INFO, TD_OPT_FTRACE_EVENTS, TD_OPT_EVENT_FORMATS,
	TD_OPT_KALLSYMS, TD_OPT_PRINTK, TD_OPT_CMDLINES, TD_OPT_BUFFER_TEXT,
	TD_OPT_COUNT,
};

enum tv_status	 td_read_header_info(struct td_file *f, struct td_cur *c,
		    struct tv_error *err);
enum tv_status	 td_read_ftrace_formats(struct td_file *f,
		    struct td_cur *c, struct tv_error *err);
enum tv_status	 td_read_event_formats(struct td_file *f, struct td_cur *c,
		    struct tv_error *err);
enum tv_status	 td_read_kallsyms(struct td_file *f, struct td_cur *c,
		    struct tv_error *err);
enum tv_status	 td_read_printk(struct td_file *f, struct td_cur *c,
		    struct tv_error *err);
enum tv_status	 td_read_cmdlines(struct td_file *f, struct td_cur *c,
		    struct tv_error *err);
enum tv_status	 td_read_sized(struct td_cur *c, unsigned width,
		    struct td_blob *out, struct tv_error *err);
/** td_read_option_data() - SIZE32 DATA of an option, as cursor @data. */
enum tv_status	 td_read_option_data(struct td_cur *c, struct td_cur *data,
		    struct tv_error *err);
/** td_parse_option() - apply option @id (either version) to @f. */
enum tv_status	 td_parse_option(struct td_file *f, uint16_t id,
		    struct td_cur *data, struct tv_error *err);
/** td_add_buffer() - a new, zeroed buffer (instance) of @f. */
struct td_buffer *td_add_buffer(struct td_file *f);
char		*td_opt_string(const struct td_cur *data);
#define TD_NOPTION_NAMES	23
extern const char *const td_option_names[TD_NOPTION_NAMES];

/*
 * st = call, under a mapping guard on the file's own mapping, so that a
 * fault (the file shrank) is worded with its offset in the file.
 */
#define TD_GUARDED(f, st, err, call) do {				\
	struct tv_map_guard td_g_;					\
									\
	TV_MAP_GUARDED(td_g_, st, call,					\
	    tv_mapfile_fault(&(f)->mf, td_g_.addr, (err)));		\
} while (0)

/*
 * st = call with a chunk cache of f taken into (c) (td_chunks_take),
 * guarded inside its lock: a fault must not jump past the unlock (the
 * next read would deadlock).  A chunk the call reads stays cached until
 * then.
 */
#define TD_CHUNKED(f, c, st, err, call) do {				\
	(c) = td_chunks_take(f);					\
	TD_GUARDED(f, st, err, call);					\
	td_chunks_put(c);						\
} while (0)
/* TD_CHUNKED() with f->lock held too (the library, the printer). */
#define TD_LOCKED(f, c, st, err, call) do {				\
	pthread_mutex_lock(&(f)->lock);					\
	TD_CHUNKED(f, c, st, err, call);				\
	pthread_mutex_unlock(&(f)->lock);				\
} while (0)

/* ---- tracedat-zchunk.c ---- */
enum tv_status	 td_decompress(struct td_file *f, const uint8_t *src,
		    uint32_t csize, uint8_t *dst, uint32_t usize,
		    uint64_t off, struct tv_error *err);
enum tv_status	 td_load_chunks(struct td_file *f, struct td_cpu *cpu,
		    struct tv_error *err);
/* A chunk cache of @f, locked: this thread's first choice if free, else
 * any free one, else its first choice when free. */
struct td_chunks *td_chunks_take(struct td_file *f);
void		 td_chunks_put(struct td_chunks *c);
void		 td_chunks_init(struct td_file *f);
/* Bytes [off, off + len) of @cpu's data, through chunk cache @c (taken:
 * td_chunks_take; may be NULL when @cpu's data is not compressed).  NULL
 * with @err set when unreadable. */
const uint8_t	*td_cpu_bytes(struct td_file *f, struct td_chunks *c,
		    const struct td_cpu *cpu, uint64_t off, uint64_t len,
		    struct tv_error *err);
void		 td_chunk_cache_free(struct td_file *f);

enum tv_status	 td_page_layout_parse(struct td_file *f,
		    struct tv_error *err);
enum tv_status	 td_page_begin(struct td_page_iter *it,
		    const struct td_file *f, const uint8_t *page,
		    uint32_t page_size, struct tv_error *err);
/* TV_OK with a data record in it, TV_END at the end, TV_CORRUPT. */
enum tv_status	 td_page_next(struct td_page_iter *it, struct tv_error *err);

void		 td_page_error_pos(const struct td_file *f,
		    const struct td_cpu *cpu, uint64_t off,
		    struct tv_error *err);

/* ---- tracedat-fmtcheck.c, tracedat-argcheck.c ---- */
/* The widest padding of a conversion, written in a format or a record. */
#define TD_MAX_WIDTH	256
const char	*td_format_check(const char *text, size_t len, char *name,
		    size_t namecap);
enum td_text { TD_TEXT_PRINTK, TD_TEXT_KALLSYMS, TD_TEXT_CMDLINES };
char		*td_text_clean(const struct td_blob *b, enum td_text kind,
		    uint64_t *dropped);
/*
 * td_check_print_args() - may the library print record @data (@len
 * bytes, in a zero-padded copy of @avail) of @te?  Lengths and widths it
 * takes from the record must stay inside the copy and TD_MAX_WIDTH.
 */
enum tv_status	 td_check_print_args(struct td_file *f, struct tep_event *te,
		    const uint8_t *data, uint32_t len, uint32_t avail,
		    struct tv_error *err);

/* ---- tracedat-events.c ---- */
enum tv_status	 td_events_load(struct td_file *f, struct tv_error *err);
void		 td_events_free(struct td_file *f);
void		 td_events_classes(struct td_file *f, struct tv_trace *t);
int64_t		 td_convert_ts(const struct td_file *f, uint32_t cpu,
		    uint64_t raw);

/* ---- tracedat-tshift.c ---- */
enum tv_status	 td_opt_time_shift(struct td_file *f, struct td_cur *d,
		    struct tv_error *err);
enum tv_status	 td_opt_guest(struct td_file *f, struct td_cur *d,
		    struct tv_error *err);
uint64_t	 td_tshift_apply(const struct td_file *f, uint32_t cpu,
		    uint64_t ts);
void		 td_tshift_free(struct td_file *f);

/* ---- tracedat-print.c ---- */
enum tv_status	 td_print_record(const struct tv_event *ev,
		    struct tv_arena *arena, struct tv_strbuf *out,
		    struct tv_error *err);
enum tv_status	 td_print_info(const struct tv_event *ev,
		    struct tv_arena *arena, struct tv_strbuf *out,
		    struct tv_error *err);
bool		 td_value_note(const struct tv_event *ev,
		    enum tv_scope scope, const char *name,
		    const struct tv_value *v, struct tv_strbuf *out);
enum tv_status	 td_print_header(const struct tv_trace *t,
		    struct tv_strbuf *out, struct tv_error *err);
enum tv_status	 td_decode_fields(const struct tv_event *ev,
		    struct tv_arena *arena, struct tv_event_fields *out,
		    unsigned scopes, struct tv_error *err);
/* The symbol op: kallsyms name of @addr. */
bool		 td_symbol(const struct tv_trace *trace, uint64_t addr,
		    char *buf, size_t size);
/* The payload of event @ev copied into @arena; size in *len. */
enum tv_status	 td_event_payload(const struct tv_event *ev,
		    struct tv_arena *arena, uint8_t **data, uint32_t *len,
		    struct tv_error *err);

/* ---- tracedat-zchunk.c: the packet_copy op ---- */
enum tv_status	 td_packet_copy(const struct tv_stream *s, uint64_t pkt,
		    uint8_t **out, uint64_t *len, struct tv_error *err);

/* ---- tracedat-state.c: the state_rules and span_rules ops ---- */
extern const struct tv_state_rule *const td_state_tables[];
extern const struct tv_span_rule td_span_rules[];

#endif /* TVIEW_TRACEDAT_PRIV_H */
