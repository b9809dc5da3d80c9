/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `ftscope list`'s second half: which tracing features this kernel offers (cmd/list.c);
 * the commands are printed by the command table (cmd/commands.c).
 */
#ifndef FTSCOPE_CMD_LIST_H
#define FTSCOPE_CMD_LIST_H

int ft_list_features(void);

#endif
