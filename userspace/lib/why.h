/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The names of enum l2tpsel_why, as the CLI, the monitor and the agent's
 * log lines print them (the core's l2s_fail_name() gives the same words).
 */
#ifndef L2S_WHY_H
#define L2S_WHY_H

#include <linux/l2tpsel.h>

static inline const char *l2s_why_name(unsigned int why)
{
	static const char *const names[] = {
		[L2TPSEL_WHY_NONE] = "none",
		[L2TPSEL_WHY_EXHAUSTED] = "exhausted",
		[L2TPSEL_WHY_CDN] = "cdn",
		[L2TPSEL_WHY_STOPCCN] = "stopccn",
		[L2TPSEL_WHY_CLIENT_GONE] = "client-gone",
		[L2TPSEL_WHY_NO_TUNNELS] = "no-tunnels",
		[L2TPSEL_WHY_PROFILE_CHANGED] = "profile-changed",
		[L2TPSEL_WHY_RESTARTS] = "restarts",
		[L2TPSEL_WHY_ADMISSION] = "admission",
		[L2TPSEL_WHY_DRAINED] = "drained",
	};

	return why < sizeof(names) / sizeof(names[0]) && names[why] ? names[why] : "unknown";
}

#endif
