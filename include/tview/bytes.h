/*
 * Reading integers of a given byte order from unaligned bytes: the one
 * set of endian readers every driver uses.  The caller has checked that
 * the bytes are there.
 */
#ifndef TVIEW_BYTES_H
#define TVIEW_BYTES_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Whether this host stores integers big-endian. */
#define TV_HOST_BE	(__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)

/** tv_load16() - 16 bits at @p, byte-swapped from the host's if @swap. */
static inline uint16_t
tv_load16(const uint8_t *p, bool swap)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap16(v) : v;
}

/** tv_load32() - 32 bits at @p, byte-swapped from the host's if @swap. */
static inline uint32_t
tv_load32(const uint8_t *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap32(v) : v;
}

/** tv_load64() - 64 bits at @p, byte-swapped from the host's if @swap. */
static inline uint64_t
tv_load64(const uint8_t *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap64(v) : v;
}

/** tv_be32() / tv_be64() / tv_le32() / tv_le64(): fixed byte orders. */
static inline uint32_t
tv_be32(const uint8_t *p)
{
	return tv_load32(p, !TV_HOST_BE);
}

static inline uint64_t
tv_be64(const uint8_t *p)
{
	return tv_load64(p, !TV_HOST_BE);
}

static inline uint32_t
tv_le32(const uint8_t *p)
{
	return tv_load32(p, TV_HOST_BE);
}

static inline uint64_t
tv_le64(const uint8_t *p)
{
	return tv_load64(p, TV_HOST_BE);
}

/** tv_get_u() - an unsigned integer of @size bytes (1 to 8) at @p. */
static inline uint64_t
tv_get_u(const uint8_t *p, unsigned size, bool be)
{
	uint64_t v = 0;
	unsigned i;

	if (be) {
		for (i = 0; i < size; i++)
			v = (v << 8) | p[i];
	} else {
		for (i = size; i > 0; i--)
			v = (v << 8) | p[i - 1];
	}
	return v;
}

#endif /* TVIEW_BYTES_H */
