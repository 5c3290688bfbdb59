/* SPDX-License-Identifier: GPL-2.0 */
/*
 * l2tpsel module internals shared between its files.  Kernel-side names
 * start with ks_ ("kernel state"); l2s_ names belong to the shared core.
 */
#ifndef L2TPSEL_H
#define L2TPSEL_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rhashtable.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <linux/l2tpsel.h>

#include "lim.h"
#include "sel.h"

/*
 * Every rhashtable starts at 4 buckets (HASH_MIN_SIZE), not the default 64:
 * 6.1's rhashtable allocates its bucket arrays with GFP_KERNEL, at init and
 * from its resize worker, so they cannot be charged to a memory cgroup; an
 * empty namespace's eight tables then take about 1 KiB, not 8 KiB, and a
 * table grows with what it holds (its objects are charged).
 */
#define KS_HT_HINT	1

/*
 * A table of named objects: found by name through a hash table, walked in id
 * order through an xarray so that a dump resumes from a cursor in O(1).
 */
struct ks_obj {
	struct rhash_head node;
	u32 id;
	char name[L2TPSEL_NAME_MAX];	/* zero padded: the hash key */
};

struct ks_table {
	struct rhashtable ht;
	struct xarray xa;
	u32 n;
};

/* A tunnel group: configured (with a limit) or only counted (sessions name it). */
struct ks_tgroup {
	struct ks_obj obj;
	u32 limit;
	u32 count;
	bool configured;
};

/* A session-limit group (S-LIM-4). */
struct ks_slg {
	struct ks_obj obj;
	struct lim_slg lim;
	u32 members;
	bool configured;
};

/* A client's sessions in one tunnel group (S-LIM-5); exists while count > 0. */
struct ks_client_tg {
	struct list_head node;		/* in the client's list */
	struct ks_tgroup *tg;		/* NULL: sessions in no tunnel group */
	u32 count;
};

/* A client: the peer's Host Name (S-LIM-5). */
struct ks_client {
	struct ks_obj obj;
	u32 limit;			/* per tunnel group */
	u32 total;			/* sessions over all tunnel groups */
	struct ks_slg *slg;
	struct list_head tgs;		/* of struct ks_client_tg */
	bool configured;
};

/* An L2TP tunnel as the admission check counts it; exists while count > 0. */
struct ks_tunnel_count {
	struct rhash_head node;
	u32 tid;
	u32 count;
};

/*
 * A live session, counted on every level of its path; immutable once up.
 * It belongs to the netlink socket that counted it (@portid, its sessions
 * listed on the socket's struct ks_owner) unless it is @detached.
 * @kp and @tuid: the login's tunnel that counts it too (LOGIN_REPORT OK);
 * the tunnel cannot be deleted while it counts a session, so both stay.
 */
struct ks_session {
	struct rhash_head node;
	u64 key;
	u32 id;
	u8 role;
	bool detached;
	u32 portid;
	struct ks_owner *owner;
	struct list_head owner_node;
	struct ks_profile *kp;
	u64 tuid;
	struct ks_tunnel_count *tun;
	struct ks_tgroup *tg;
	struct ks_client *client;
	struct ks_client_tg *ctg;
};

/*
 * What one netlink socket holds: its sessions and its logins in progress;
 * exists while it holds one (ln->owners, by port id).  A port id is free
 * again as soon as its socket starts closing, before the release notifier
 * runs, so the record keeps the socket itself (a reference): the notifier
 * ends a record only if its socket is the dead one, and a request from
 * another socket at that port id ends the former socket's record first
 * (ks_owner_sync()).  @releasing: being ended, not freed by its last entry.
 */
struct ks_owner {
	u32 portid;
	bool releasing;
	struct sock *sk;
	struct list_head sessions;
	struct list_head logins;
};

/*
 * A login's own tunnel set (LOGIN_BEGIN TUNNELS), the part of its profile
 * ("~N") a configured one has no use for: @logins logins are on it, @hash is
 * that of its tunnels (ks_set_hash()), and while no login is on it and no
 * tunnel of it has a session it waits on ks_sel.idle_sets since @idle_ms
 * (ks_set_reap()).
 */
struct ks_set {
	struct ks_profile *kp;
	u32 logins;
	u32 hash;
	u64 idle_ms;
	struct list_head idle;
	struct list_head node;		/* on ks_sel.sets */
};

/*
 * Tunnel selection state (select.c and the files select.h lists).  A
 * profile is a named object around the core's struct l2s_profile, whose
 * tunnel array the core sizes to what the profile holds (kvmalloc through
 * l2s_mem_default).  @serial is unique in the namespace, so that a login
 * notices its profile was deleted and another one took its id.  @set: only
 * for a login's own tunnel set, which the kernel makes and frees.
 */
struct ks_profile {
	struct ks_obj obj;
	u64 serial;
	struct l2s_profile p;
	struct ks_set *set;
};

#define KS_PICKS		8
#define KS_LOGIN_TIMEOUT_MS	120000
#define KS_MAX_LOGINS_DEFAULT	4096
#define KS_MAX_LOGINS_LIMIT	65536
/* Destination slots per namespace; allocated 64 at a time by need (core/obj.h). */
#define KS_DESTS		L2S_DESTS_MAX

/* A login held for an agent between LOGIN_BEGIN and its final step. */
struct ks_login {
	struct list_head lru;		/* oldest activity first */
	struct list_head owner_node;	/* on its socket's struct ks_owner */
	struct ks_owner *owner;
	u32 id;
	u32 portid;			/* the socket that owns it */
	u32 profile_id;
	u64 serial;			/* of the profile */
	u64 last_ms;
	u8 picks[KS_PICKS];		/* pinned draws: profile tunnel indexes */
	u8 npicks, next_pick;
	bool dyn;			/* on a tunnel set: counted in its @logins */
	struct l2s_login lg;
};

struct ks_sel {
	struct l2s_core core;		/* dests (by need), lockout time, domain map */
	struct list_head sets;		/* every tunnel set */
	struct list_head idle_sets;	/* unused tunnel sets, oldest first */
	u32 n_sets, next_set;		/* tunnel sets ("~N") */
	struct ks_table profiles;
	u64 next_serial;
	struct xarray logins;
	u32 next_login_id;
	u32 n_logins, max_logins;
	struct list_head lru;
	/* Fires at the earliest lockout deadline (0: not armed). */
	struct delayed_work expire_work;
	u64 armed_until;
};

#define L2S_MSG_LEN	160

/* Per network namespace state: everything the module holds lives here. */
struct l2tpsel_net {
	struct net *net;
	/*
	 * Every request and work of this namespace, readers included, runs
	 * under it (ks_lock()); never held across namespaces.
	 */
	struct mutex lock;
	/*
	 * Moved by every change (ks_gen_bump()), never 0: a dump part records
	 * it in cb->seq and genl_dump_check_consistent() flags a part read at
	 * another generation than the one before NLM_F_DUMP_INTR.
	 */
	u32 gen;
	/* Events to send before the lock is let go (events.h). */
	struct list_head events;
	/* The works are stopped for good: nothing arms them (main.c). */
	bool stopped;
	struct lim_chassis chassis;
	struct ks_table tgroups, slgs, clients;
	struct rhashtable tunnel_counts;
	u32 n_tunnel_counts;
	struct rhashtable sessions;
	struct xarray session_xa;
	u32 n_sessions;
	struct xarray owners;		/* portid -> struct ks_owner */
	struct ks_sel sel;
	/* Rate limits and throttle profiles (ratelimit.c). */
	struct ks_rlnet *rl;
	/*
	 * Formatted extack messages (6.1 has no NL_SET_ERR_MSG_FMT): a buffer
	 * per sending thread, which only that thread writes and which is freed
	 * only after the thread exited, so a message stays its request's own
	 * until the ACK is built (ks_msg()).
	 */
	struct mutex msg_lock;
	struct xarray msg_bufs;		/* pid number -> struct ks_msgbuf */
	u32 n_msg_bufs;
};

extern unsigned int l2tpsel_net_id;

/*
 * The namespace's slot (net_generic()): a pointer only.  The state itself
 * is allocated by l2tpsel_net_init() with GFP_KERNEL_ACCOUNT, charged to
 * the memory cgroup of the task creating the namespace; the kernel
 * allocates a pernet_operations' .size with plain GFP_KERNEL.
 */
struct l2tpsel_pernet_slot {
	struct l2tpsel_net *ln;
};

static inline struct l2tpsel_net *l2tpsel_pernet(const struct net *net)
{
	return ((struct l2tpsel_pernet_slot *)net_generic(net, l2tpsel_net_id))->ln;
}

/* The namespace of a request. */
static inline struct l2tpsel_net *ks_ln(struct genl_info *info)
{
	return l2tpsel_pernet(genl_info_net(info));
}

static inline void ks_lock(struct l2tpsel_net *ln)
{
	mutex_lock(&ln->lock);
}

void ks_events_flush(struct l2tpsel_net *ln);

/* Let go of ln->lock; the events queued under it are sent first, in order. */
static inline void ks_unlock(struct l2tpsel_net *ln)
{
	if (!list_empty(&ln->events))
		ks_events_flush(ln);
	mutex_unlock(&ln->lock);
}

/* A change was made (under ln->lock): dumps in progress get flagged. */
static inline void ks_gen_bump(struct l2tpsel_net *ln)
{
	ln->gen = ln->gen + 1 ?: 1;
}

/* family.c: the family */
extern struct genl_family l2tpsel_genl_family;
/* genl_ops.internal_flags: the handler runs whole under ln->lock */
#define KS_NL_LOCKED	BIT(0)
int l2tpsel_genl_init(void);
void l2tpsel_genl_exit(void);

/* netlink.c: the helpers of every handler: attributes, replies, dumps */
bool ks_nl_missing(struct genl_info *info, int attr);
const char *ks_nl_name(struct genl_info *info, int attr, const char *what);
const char *ks_nl_opt_name(struct genl_info *info, int attr, const char *what);
int ks_nl_err(struct genl_info *info, const struct nlattr *attr,
	      const struct l2s_err *err, int ret);
int ks_nl_addr(struct genl_info *info, int type, struct l2s_addr *a);
int ks_nl_addr_attr(struct genl_info *info, const struct nlattr *attr, const char *where,
		    struct l2s_addr *a);
struct sk_buff *ks_reply_new(struct genl_info *info, u8 cmd, void **hdr);
struct sk_buff *ks_reply_new_size(struct genl_info *info, u8 cmd, size_t size, void **hdr);
int ks_reply_send(struct genl_info *info, struct sk_buff *msg, void *hdr, int fill_err);
typedef int (*ks_get_fill_fn)(struct sk_buff *msg, struct l2tpsel_net *ln, const void *key);
int ks_reply_get(struct genl_info *info, u8 cmd, ks_get_fill_fn fill, const void *key);
struct netlink_callback;
bool ks_dump_begin(struct netlink_callback *cb, struct l2tpsel_net *ln);
void *ks_dump_put(struct sk_buff *skb, struct netlink_callback *cb, u8 cmd);
int ks_dump_close(struct sk_buff *skb, void *hdr, int fill_err);
int ks_dump_end(struct sk_buff *skb, struct l2tpsel_net *ln, int ret);

/* msg.c: formatted extack messages (Linux 6.1 has no NL_SET_ERR_MSG_FMT) */
__printf(3, 4) void ks_msg(struct genl_info *info, const struct nlattr *attr,
			   const char *fmt, ...);
void ks_msg_init(struct l2tpsel_net *ln);
void ks_msg_exit(struct l2tpsel_net *ln);

/*
 * Tunnel selection: select.c and the files kmod/select.h lists.
 * lockout.c: the environment of the core's calls, lockouts.
 */
/* What the core's callbacks need during one call. */
struct ks_env_ctx {
	struct l2tpsel_net *ln;
	struct ks_login *kl;		/* pinned draws, or NULL */
	const struct l2s_profile *p;
	u32 ncand;			/* dry run: candidates of the last draw */
	bool dry;
};

void ks_sel_env(struct l2tpsel_net *ln, struct l2s_env *env, struct ks_env_ctx *ec);
u32 ks_locked_count(struct l2tpsel_net *ln);
int ks_dest_lock(struct l2tpsel_net *ln, const struct l2s_addr *remote, u16 port,
		 const struct l2s_addr *local, u32 ms, struct l2s_err *err);

/* select.c: the selection state of a namespace */
int ks_sel_init(struct l2tpsel_net *ln);
void ks_sel_stop(struct l2tpsel_net *ln);
void ks_sel_exit(struct l2tpsel_net *ln);

/* profile.c: profiles, tunnels, the domain map */
int ks_profile_cache_init(void);
void ks_profile_cache_exit(void);
struct ks_profile *ks_profile_find(struct l2tpsel_net *ln, const char *name);
int ks_profile_new(struct l2tpsel_net *ln, const char *name, struct ks_profile **kpp,
		   struct l2s_err *err);
int ks_profile_del(struct l2tpsel_net *ln, struct ks_profile *kp, struct l2s_err *err);
int ks_tunnel_add(struct l2tpsel_net *ln, struct ks_profile *kp,
		  const struct l2s_tunnel_conf *tc, struct l2s_err *err);
int ks_tunnel_del(struct l2tpsel_net *ln, struct ks_profile *kp, const char *name,
		  struct l2s_err *err);
int ks_domain_set(struct l2tpsel_net *ln, const char *domain, const char *profile,
		  struct l2s_err *err);
int ks_domain_del(struct l2tpsel_net *ln, const char *domain, struct l2s_err *err);

/* login.c: logins held for agents */
struct ks_login_req {
	struct ks_profile *kp;		/* a tunnel set from ks_set_get() too */
	u32 key;
	u8 picks[KS_PICKS];
	u8 npicks;
};

int ks_login_begin(struct l2tpsel_net *ln, u32 portid, struct sock *sk,
		   const struct ks_login_req *req,
		   struct ks_login **klp, struct l2s_step *st, struct l2s_err *err);
int ks_login_report(struct l2tpsel_net *ln, u32 portid, u32 id,
		    const struct l2s_outcome *o, struct ks_login **klp,
		    struct ks_profile **kpp, struct l2s_step *st, struct l2s_err *err);
void ks_login_finish(struct l2tpsel_net *ln, struct ks_login *kl);
/* a session's count on its login's tunnel ends */
void ks_sel_session_down(struct l2tpsel_net *ln, struct ks_profile *kp, u64 tuid);

/* tunnel_set.c: logins' own tunnel sets */
int ks_set_get(struct l2tpsel_net *ln, const struct l2s_tunnel_conf *tc, u32 n,
	       struct ks_profile **kpp, u32 *bad, struct l2s_err *err);
void ks_set_check(struct l2tpsel_net *ln, struct ks_profile *kp);
void ks_set_put(struct l2tpsel_net *ln, struct ks_profile *kp);

/* login_test.c: one step of a dry run (LOGIN_TEST). */
struct ks_test_step {
	struct l2s_step st;
	u32 ncand;
};

/* What a dry run needs: copies of the profile and the destination table. */
struct ks_test_buf {
	struct l2s_core *core;		/* the run's, on @dests */
	struct l2s_dest *dests;		/* KS_DESTS slots */
	struct l2s_tunnel *tunnels;	/* L2S_TUNNELS_PER_PROFILE */
	struct l2s_profile p;
	bool used;
};

int ks_test_buf_alloc(struct ks_test_buf *tb);
void ks_test_buf_free(struct ks_test_buf *tb);
int ks_login_test(struct l2tpsel_net *ln, const struct l2s_profile *src, u32 key,
		  struct ks_test_buf *tb, struct ks_test_step *steps, u32 max, u32 *nsteps,
		  struct l2s_step *last, struct l2s_err *err);

/* ratelimit.c: per-namespace state */
struct ks_rlnet;
int ks_rl_init(struct l2tpsel_net *ln);
void ks_rl_stop(struct l2tpsel_net *ln);
void ks_rl_exit(struct l2tpsel_net *ln);

/*
 * main.c: how many objects of each kind one namespace may hold (S-SEC-1;
 * Documentation/design.md, "Limits").  Module parameters: only
 * root of the initial namespace can change them (sysfs).  Outside the
 * initial user namespace CHASSIS_MAX may not exceed ks_max_sessions_userns.
 */
extern unsigned int ks_max_profiles, ks_max_domains, ks_max_tgroups, ks_max_slgs,
	ks_max_clients, ks_max_sessions_userns, ks_max_tunnel_sets;

/* Whether @ln belongs to a user namespace other than the initial one. */
static inline bool ks_in_userns(const struct l2tpsel_net *ln)
{
	return ln->net->user_ns != &init_user_ns;
}

/* tables.c */
int ks_table_init(struct ks_table *t);
void ks_table_destroy(struct ks_table *t, void (*free_fn)(struct ks_obj *obj));
struct ks_obj *ks_table_find(struct ks_table *t, const char *name);
int ks_table_add(struct ks_table *t, struct ks_obj *obj, const char *name);
void ks_table_del(struct ks_table *t, struct ks_obj *obj);

/* admit.c */
int ks_admit_init(struct l2tpsel_net *ln);
void ks_admit_exit(struct l2tpsel_net *ln);
struct ks_tgroup *ks_tgroup_get(struct l2tpsel_net *ln, const char *name, bool create,
				struct l2s_err *err);
struct ks_slg *ks_slg_get(struct l2tpsel_net *ln, const char *name, bool create,
			  struct l2s_err *err);
struct ks_client *ks_client_get(struct l2tpsel_net *ln, const char *name, bool create,
				struct l2s_err *err);
void ks_tgroup_put(struct l2tpsel_net *ln, struct ks_tgroup *tg);
void ks_slg_put(struct l2tpsel_net *ln, struct ks_slg *slg);
void ks_client_put(struct l2tpsel_net *ln, struct ks_client *cl);
int ks_client_set_slg(struct ks_client *cl, struct ks_slg *slg, struct l2s_err *err);
u32 ks_highest_limit(struct l2tpsel_net *ln);

struct ks_session_req {
	u64 key;
	u8 role;
	u32 tid;
	u32 portid;		/* the socket it belongs to */
	struct sock *sk;	/* that socket (NETLINK_CB(skb).sk) */
	bool detached;		/* belongs to no socket */
	const char *tgroup;	/* NULL: none */
	const char *client;	/* NULL: none */
	struct ks_profile *kp;	/* NULL, or the login's tunnel that counted it */
	u64 tuid;
};

int ks_session_up(struct l2tpsel_net *ln, const struct ks_session_req *req,
		  enum lim_level *verdict, struct l2s_err *err);
int ks_session_down(struct l2tpsel_net *ln, u32 portid, u64 key, struct l2s_err *err);
void ks_session_end(struct l2tpsel_net *ln, struct ks_session *s);

/* owner.c: a socket's record */
struct ks_owner *ks_owner_get(struct l2tpsel_net *ln, u32 portid, struct sock *sk);
void ks_owner_put(struct l2tpsel_net *ln, struct ks_owner *o);
void ks_owner_free(struct l2tpsel_net *ln, struct ks_owner *o);

/* release.c: what a closed socket held ends */
int ks_release_init(void);
void ks_release_exit(void);
void ks_owner_sync(struct l2tpsel_net *ln, u32 portid, const struct sock *sk);
void ks_owner_release(struct l2tpsel_net *ln, struct ks_owner *o);

/*
 * The handlers and policies of nl_admit.c, nl_select.c, nl_login.c,
 * nl_ratelimit.c and nl_throttle.c, for the family's one ops table
 * (family.c).
 */
struct netlink_callback;
int ks_nl_admit_dump(struct sk_buff *skb, struct netlink_callback *cb);
int ks_nl_admit_get(struct sk_buff *skb, struct genl_info *info);
int ks_nl_client_change(struct sk_buff *skb, struct genl_info *info);
int ks_nl_group_change(struct sk_buff *skb, struct genl_info *info);
int ks_nl_limit_get(struct sk_buff *skb, struct genl_info *info);
int ks_nl_limit_set(struct sk_buff *skb, struct genl_info *info);
int ks_nl_session_down(struct sk_buff *skb, struct genl_info *info);
int ks_nl_session_up(struct sk_buff *skb, struct genl_info *info);
int ks_nl_summary_get(struct sk_buff *skb, struct genl_info *info);
int ks_nl_dest_lock(struct sk_buff *skb, struct genl_info *info);
int ks_nl_tunnel_drain(struct sk_buff *skb, struct genl_info *info);
int ks_nl_dest_drain(struct sk_buff *skb, struct genl_info *info);
int ks_nl_domain_del(struct sk_buff *skb, struct genl_info *info);
int ks_nl_domain_get(struct sk_buff *skb, struct genl_info *info);
int ks_nl_domain_new(struct sk_buff *skb, struct genl_info *info);
int ks_nl_lockout_clear(struct sk_buff *skb, struct genl_info *info);
int ks_nl_lockout_get(struct sk_buff *skb, struct genl_info *info);
int ks_nl_lockout_set(struct sk_buff *skb, struct genl_info *info);
int ks_nl_login_begin(struct sk_buff *skb, struct genl_info *info);
int ks_nl_login_report(struct sk_buff *skb, struct genl_info *info);
int ks_nl_login_test(struct sk_buff *skb, struct genl_info *info);
int ks_nl_profile_change(struct sk_buff *skb, struct genl_info *info);
int ks_nl_profile_get(struct sk_buff *skb, struct genl_info *info);
int ks_nl_rl_change(struct sk_buff *skb, struct genl_info *info);
int ks_nl_rl_check(struct sk_buff *skb, struct genl_info *info);
int ks_nl_rl_del(struct sk_buff *skb, struct genl_info *info);
int ks_nl_rl_get(struct sk_buff *skb, struct genl_info *info);
int ks_nl_th_change(struct sk_buff *skb, struct genl_info *info);
int ks_nl_th_del(struct sk_buff *skb, struct genl_info *info);
int ks_nl_th_get(struct sk_buff *skb, struct genl_info *info);
int ks_nl_th_load(struct sk_buff *skb, struct genl_info *info);
int ks_nl_tunnel_del(struct sk_buff *skb, struct genl_info *info);
int ks_nl_tunnel_new(struct sk_buff *skb, struct genl_info *info);
int ks_nl_dest_dump(struct sk_buff *skb, struct netlink_callback *cb);
int ks_nl_domain_dump(struct sk_buff *skb, struct netlink_callback *cb);
int ks_nl_profile_dump(struct sk_buff *skb, struct netlink_callback *cb);
int ks_nl_rl_dump(struct sk_buff *skb, struct netlink_callback *cb);
int ks_nl_th_dump(struct sk_buff *skb, struct netlink_callback *cb);
int ks_nl_tunnel_dump(struct sk_buff *skb, struct netlink_callback *cb);
extern const struct nla_policy ks_client_policy[L2TPSEL_A_MAX + 1];
extern const struct nla_policy ks_dest_lock_policy[L2TPSEL_A_MAX + 1];
extern const struct nla_policy ks_tunnel_drain_policy[L2TPSEL_A_MAX + 1];
extern const struct nla_policy ks_dest_drain_policy[L2TPSEL_A_MAX + 1];
extern const struct nla_policy ks_domain_del_policy[L2TPSEL_A_MAX + 1];
extern const struct nla_policy ks_domain_policy[L2TPSEL_A_MAX + 1];
extern const struct nla_policy ks_group_policy[L2TPSEL_A_MAX + 1];
extern const struct nla_policy ks_limit_set_policy[L2TPSEL_A_MAX + 1];
extern const struct nla_policy ks_lockout_clear_policy[L2TPSEL_A_MAX + 1];
extern const struct nla_policy ks_lockout_set_policy[L2TPSEL_A_MAX + 1];
extern const struct nla_policy ks_login_begin_policy[L2TPSEL_A_MAX + 1];
extern const struct nla_policy ks_login_report_policy[L2TPSEL_A_MAX + 1];
extern const struct nla_policy ks_login_test_policy[L2TPSEL_A_MAX + 1];
extern const struct nla_policy ks_name_policy[L2TPSEL_A_MAX + 1];
extern const struct nla_policy ks_profile_policy[L2TPSEL_A_MAX + 1];
extern const struct nla_policy ks_rl_check_policy[L2TPSEL_A_MAX + 1];
extern const struct nla_policy ks_rl_name_policy[L2TPSEL_A_MAX + 1];
extern const struct nla_policy ks_rl_policy[L2TPSEL_A_MAX + 1];
extern const struct nla_policy ks_session_down_policy[L2TPSEL_A_MAX + 1];
extern const struct nla_policy ks_session_up_policy[L2TPSEL_A_MAX + 1];
extern const struct nla_policy ks_sname_policy[L2TPSEL_A_MAX + 1];
extern const struct nla_policy ks_th_load_policy[L2TPSEL_A_MAX + 1];
extern const struct nla_policy ks_th_policy[L2TPSEL_A_MAX + 1];
extern const struct nla_policy ks_tunnel_del_policy[L2TPSEL_A_MAX + 1];
extern const struct nla_policy ks_tunnel_get_policy[L2TPSEL_A_MAX + 1];
extern const struct nla_policy ks_tunnel_new_policy[L2TPSEL_A_MAX + 1];

#endif /* L2TPSEL_H */
