/* SPDX-License-Identifier: GPL-2.0 */
/*
 * padcode.h - for the mappings' workloads (dlswap, swapself): a leaf's arithmetic, and
 * code of known size that one build puts where another has its functions, so that
 * reading the wrong build names the pad (tests/live/maps.sh).
 */
#ifndef PADCODE_H
#define PADCODE_H

/* P256(i): 256 mixing steps of x, about 3 KB of code */
#define P4(i)	x = x * 31 + (i); x ^= x >> 7; x = x * 17 + (i); x ^= x >> 5;
#define P16(i)	P4(i) P4(i + 1) P4(i + 2) P4(i + 3)
#define P64(i)	P16(i) P16(i + 4) P16(i + 8) P16(i + 12)
#define P256(i)	P64(i) P64(i + 16) P64(i + 32) P64(i + 48)

/* padcode_spin - @n rounds of arithmetic from @x (inlined into each workload's leaf) */
static inline long padcode_spin(long x, long n)
{
	long i;

	for (i = 0; i < n; i++)
		x = x * 6364136223846793005L + (i ^ (x >> 17));
	return x;
}

#endif
