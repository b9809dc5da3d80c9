// SPDX-License-Identifier: GPL-2.0
/*
 * A block request's operation and flags (analyzers/bio_rwbs.h), for biolatency.
 */
#include <stdio.h>
#include <string.h>

#include "analyzers/bio_rwbs.h"

static const char *const op_name[OP_NUM] = {
	"Read", "Write", "Flush", "Discard", "SecureErase", "Unknown"
};

/* The flags' names, outermost first, as BCC composes them (PreFlush and Atomic: ours). */
static const struct { int bit; const char *name; } flag_name[] = {
	{ FL_PREFLUSH, "PreFlush-" }, { FL_ATOMIC, "Atomic-" }, { FL_RAHEAD, "ReadAhead-" },
	{ FL_FUA, "ForcedUnitAccess-" }, { FL_META, "Metadata-" }, { FL_SYNC, "Sync-" },
};

/* ft_bio_rwbs - the operation and flags of an rwbs string (blk_fill_rwbs's letters) */
int ft_bio_rwbs(const char *s, int len)
{
	int i = 0, fl = 0, op;

	if (len >= 2 && s[0] == 'F' && strchr("WDFRN", s[1]) && s[1]) {
		fl |= FL_PREFLUSH;
		i = 1;
	}
	switch (i < len ? s[i] : 0) {
	case 'W': op = OP_WRITE; break;
	case 'R': op = OP_READ; break;
	case 'F': op = OP_FLUSH; break;
	case 'D':
		op = i + 1 < len && s[i + 1] == 'E' ? OP_SECURE_ERASE : OP_DISCARD;
		i += op == OP_SECURE_ERASE;
		break;
	default: op = OP_OTHER; break;
	}
	for (i++; i < len && s[i]; i++) {
		switch (s[i]) {
		case 'F': fl |= FL_FUA; break;
		case 'A': fl |= FL_RAHEAD; break;
		case 'S': fl |= FL_SYNC; break;
		case 'M': fl |= FL_META; break;
		case 'U': fl |= FL_ATOMIC; break;
		}
	}
	return op | fl;
}

/* ft_bio_flags_name - BCC's name of a set of flags: "Sync-Write" */
void ft_bio_flags_name(int flags, char *buf, size_t len)
{
	size_t i, used = 0;

	buf[0] = 0;
	for (i = 0; i < sizeof(flag_name) / sizeof(flag_name[0]); i++)
		if ((flags & flag_name[i].bit) && used < len)
			used += snprintf(buf + used, len - used, "%s", flag_name[i].name);
	if (used < len)
		snprintf(buf + used, len - used, "%s", op_name[flags & OP_MASK]);
}
