// SPDX-License-Identifier: GPL-2.0
/*
 * The access role's part of an upgrade without loss (S-OPS-2, snap.h,
 * Documentation/l2tpseld.md): the subscribers half way end first; each
 * one that is up (its call established and bridged) is a record with its
 * PPPoE socket and /dev/ppp channel, which the new process checks and
 * adopts.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/socket.h>
#include <linux/if_pppox.h>

#include "access_int.h"
#include "snap.h"

/*
 * Up: its call established and bridged, PPP left to the LNS.  A switched
 * call (S-LTS-1) is not carried across an upgrade: it ends with the old
 * process, both legs cleared.
 */
static bool sub_up(const struct sub *sb)
{
	return !sb->dead && !sb->lts && sb->s && sb->s->state == L2D_S_ESTABLISHED && !sb->s->bridge_job &&
	       sb->s->ppp_fd >= 0 && sb->chan_fd >= 0 && sb->px_fd >= 0 &&
	       sb->ppp.phase == PPP_PHASE_QUIET;
}

/* The subscribers half way (discovery, LCP, authentication, login, bridge) end with PADT. */
void acc_snap_prepare(struct l2d *d)
{
	struct acc *a = d->actx;
	struct sub *sb, *next;

	for (sb = a->subs; sb; sb = next) {
		next = sb->next;
		if (!sub_up(sb)) {
			sb->acct_cause = ACCT_ADMIN_REBOOT;
			acc_sub_gone(sb, "the agent is upgrading", true);
		}
	}
}

void acc_snap_write(struct l2d *d, struct l2d_snap_wr *w)
{
	struct acc *a = d->actx;
	struct sub *sb;

	for (sb = a->subs; sb; sb = sb->next) {
		if (!sub_up(sb))
			continue;
		l2d_snap_rec_begin(w, L2D_SNAP_SUB);
		l2d_snap_str(w, sb->ifc->conf->ifname);
		l2d_snap_bytes(w, sb->mac, 6);
		l2d_snap_u16(w, sb->sid);
		l2d_snap_u8(w, sb->has_host_uniq);
		l2d_snap_bytes(w, sb->host_uniq, sb->host_uniq_len);
		l2d_snap_fd(w, sb->px_fd);
		l2d_snap_fd(w, sb->chan_fd);
		l2d_snap_u16(w, sb->s->sid);
		l2d_snap_str(w, sb->service);
		l2d_snap_str(w, sb->calling);
		l2d_snap_str(w, sb->called);
		l2d_snap_u32(w, sb->tx_bps);
		l2d_snap_u32(w, sb->rx_bps);
		l2d_snap_bytes(w, sb->ppp.name, sb->ppp.name_len);
		l2d_snap_u8(w, (uint8_t)sb->ppp.auth);
		l2d_snap_u8(w, sb->acct_started);
		l2d_snap_u32(w, sb->acct_cause);
		l2d_snap_u64(w, sb->acct_start_ms);
		l2d_snap_str(w, sb->acct_id);
		l2d_snap_bytes(w, sb->acct_tunnel, sb->acct_tunnel_len);
		l2d_snap_u32(w, sb->interim_s);
		l2d_snap_u8(w, sb->link_started);
		l2d_snap_str(w, sb->link_id);
		l2d_snap_rec_end(w);
	}
}

/* @fd is a PPPoX socket (@pppox) or /dev/ppp. */
static bool fd_is(int fd, bool pppox)
{
	int dom = 0;
	socklen_t len = sizeof(dom);
	char path[64], target[32];
	ssize_t n;

	if (pppox)
		return !getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &dom, &len) && dom == AF_PPPOX;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof(target) - 1);
	return n == 8 && !memcmp(target, "/dev/ppp", 8);
}

/* The fields of a L2D_SNAP_SUB record into @sb.  Return: the MAC's length. */
static size_t snap_read(struct l2d_snap_rd *r, struct sub *sb, char *ifname, size_t ifname_len,
			uint16_t *l2sid)
{
	size_t n;

	l2d_snap_get_str(r, ifname, ifname_len);
	n = l2d_snap_get_bytes(r, sb->mac, 6);
	sb->sid = l2d_snap_get_u16(r);
	sb->has_host_uniq = l2d_snap_get_u8(r) != 0;
	sb->host_uniq_len = (uint16_t)l2d_snap_get_bytes(r, sb->host_uniq, sizeof(sb->host_uniq));
	sb->px_fd = (int32_t)l2d_snap_get_u32(r);
	sb->chan_fd = (int32_t)l2d_snap_get_u32(r);
	*l2sid = l2d_snap_get_u16(r);
	l2d_snap_get_str(r, sb->service, sizeof(sb->service));
	l2d_snap_get_str(r, sb->calling, sizeof(sb->calling));
	l2d_snap_get_str(r, sb->called, sizeof(sb->called));
	sb->tx_bps = l2d_snap_get_u32(r);
	sb->rx_bps = l2d_snap_get_u32(r);
	sb->ppp.name_len = (uint8_t)l2d_snap_get_bytes(r, sb->ppp.name, PPP_NAME_MAX);
	sb->ppp.auth = (enum ppp_auth)l2d_snap_get_u8(r);
	sb->acct_started = l2d_snap_get_u8(r) != 0;
	sb->acct_cause = l2d_snap_get_u32(r);
	sb->acct_start_ms = l2d_snap_get_u64(r);
	l2d_snap_get_str(r, sb->acct_id, sizeof(sb->acct_id));
	sb->acct_tunnel_len = l2d_snap_get_bytes(r, sb->acct_tunnel, sizeof(sb->acct_tunnel));
	sb->interim_s = l2d_snap_get_u32(r);
	sb->link_started = l2d_snap_get_u8(r) != 0;
	l2d_snap_get_str(r, sb->link_id, sizeof(sb->link_id));
	return n;
}

/*
 * May the record read into @sb (@n bytes of MAC) be adopted on @ifc with
 * the call @s?  Return: 0, or -EINVAL with @err.
 */
static int snap_check(const struct l2d_snap_rd *r, size_t n, const struct sub *sb,
		      const struct acc_if *ifc, const char *ifname, const struct l2d_session *s,
		      char *err, size_t errlen)
{
	if (r->bad || r->left || n != 6) {
		snprintf(err, errlen, "snapshot refused: a subscriber's record %s",
			 r->bad || n != 6 ? "cut short or a field too long" : "longer than its fields");
		return -EINVAL;
	}
	if (!ifc || !sb->sid || (ifc->sid_used[sb->sid / 64] & (1ULL << (sb->sid % 64))) || !s ||
	    s->access || !s->initiator || s->state != L2D_S_ESTABLISHED) {
		snprintf(err, errlen, "snapshot refused: subscriber sid %u on %s: %s", sb->sid, ifname,
			 !ifc ? "no such access interface in the configuration" :
			 !s || s->access || !s->initiator ? "no call of its own" :
			 "session id 0 or twice");
		return -EINVAL;
	}
	if (!fd_is(sb->px_fd, true) || !fd_is(sb->chan_fd, false) || !fd_is(s->ppp_fd, true)) {
		snprintf(err, errlen, "snapshot refused: subscriber sid %u on %s: descriptors %d, %d, "
			 "%d are not its PPPoE socket, channel and PPPoL2TP socket", sb->sid, ifname,
			 sb->px_fd, sb->chan_fd, s->ppp_fd);
		return -EINVAL;
	}
	return 0;
}

int acc_snap_adopt(struct l2d *d, struct l2d_snap_rd *r, char *err, size_t errlen)
{
	struct acc *a = d->actx;
	struct sub *sb = calloc(1, sizeof(*sb));
	char ifname[IFNAMSIZ + 1];
	struct l2d_session *s;
	struct acc_if *ifc = NULL;
	unsigned int i;
	uint16_t l2sid;
	size_t n;

	if (!sb) {
		snprintf(err, errlen, "snapshot refused: out of memory");
		return -ENOMEM;
	}
	n = snap_read(r, sb, ifname, sizeof(ifname), &l2sid);
	for (i = 0; i < a->n_ifs; i++)
		if (!strcmp(a->ifs[i].conf->ifname, ifname))
			ifc = &a->ifs[i];
	s = l2d_session_find(d, l2sid);
	if (snap_check(r, n, sb, ifc, ifname, s, err, errlen)) {
		free(sb);
		return -EINVAL;
	}
	acc_sub_init(sb, ifc);
	sb->s = s;
	s->access = sb;
	sb->ppp.phase = PPP_PHASE_QUIET;
	sb->ppp.name[sb->ppp.name_len] = '\0';
	fcntl(sb->px_fd, F_SETFD, FD_CLOEXEC);
	fcntl(sb->chan_fd, F_SETFD, FD_CLOEXEC);
	fcntl(s->ppp_fd, F_SETFD, FD_CLOEXEC);
	if (acc_sub_watch(sb)) {
		snprintf(err, errlen, "snapshot refused: subscriber sid %u: epoll: %s", sb->sid,
			 strerror(errno));
		s->access = NULL;
		free(sb);
		return -EINVAL;
	}
	ifc->sid_used[sb->sid / 64] |= 1ULL << (sb->sid % 64);
	acc_sub_link(sb);
	/* the Interim-Updates go on from the Start the first agent sent */
	if (sb->acct_started && acc_interim_ms(sb)) {
		uint64_t now = l2d_now(d->loop), next = sb->acct_start_ms + acc_interim_ms(sb);

		while (next <= now)
			next += acc_interim_ms(sb);
		l2d_timer_arm(d->loop, &sb->interim_timer, next);
	}
	return 0;
}
