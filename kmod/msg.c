// SPDX-License-Identifier: GPL-2.0
/*
 * Formatted extended-ACK messages: the piece Linux 6.1 lacks
 * (NL_SET_ERR_MSG_FMT came with 6.2).  ks_msg() is what every handler
 * calls to say what was wrong; static texts use NL_SET_ERR_MSG_ATTR().
 */
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <net/genetlink.h>

#include "l2tpsel.h"

/*
 * A thread's extack message buffer.  Linux 6.1 has no formatted extack
 * (NL_SET_ERR_MSG_FMT came with 6.2), and netlink_ack() reads the message
 * after the handler has returned, so a formatted message needs storage that
 * outlives the handler and that nothing else touches until the ACK is built.
 *
 * That storage is a buffer per sending thread (and namespace):
 *
 *  - it is written only by its thread: ks_msg() finds it by the current
 *    task's struct pid;
 *  - a thread handles one request at a time, and netlink_rcv_skb() builds a
 *    request's ACK in that thread before it handles the thread's next
 *    request, so a rewrite never comes before the previous request's ACK
 *    (two threads on one socket run in parallel, parallel_ops; each has its
 *    own buffer);
 *  - it is freed only once its thread has exited (pid_task() is NULL: the
 *    task is released and runs no request any more) or with the namespace
 *    (no socket, hence no request, is left in it).
 *
 * A buffer holds a reference to its struct pid, so the pid cannot become
 * another thread's while the buffer exists.
 */
struct ks_msgbuf {
	struct pid *pid;		/* the thread that writes it */
	char text[L2S_MSG_LEN];
};

/* Buffers per namespace; when all belong to live threads, the message is a fixed text. */
#define KS_MSGBUFS_MAX	1024

/**
 * ks_msg_init() - no message buffers yet
 * @ln: a new namespace
 */
void ks_msg_init(struct l2tpsel_net *ln)
{
	mutex_init(&ln->msg_lock);
	xa_init(&ln->msg_bufs);
	ln->n_msg_bufs = 0;
}

static void ks_msgbuf_free(struct ks_msgbuf *mb)
{
	put_pid(mb->pid);
	kfree(mb);
}

/**
 * ks_msg_exit() - free the message buffers of a dying namespace
 * @ln: the namespace; no request runs in it any more
 */
void ks_msg_exit(struct l2tpsel_net *ln)
{
	struct ks_msgbuf *mb;
	unsigned long nr;

	xa_for_each(&ln->msg_bufs, nr, mb)
		ks_msgbuf_free(mb);
	xa_destroy(&ln->msg_bufs);
	mutex_destroy(&ln->msg_lock);
}

/* True when the thread of @pid has exited: it handles no request any more. */
static bool ks_msgbuf_dead(const struct ks_msgbuf *mb)
{
	bool dead;

	rcu_read_lock();
	dead = !pid_task(mb->pid, PIDTYPE_PID);
	rcu_read_unlock();
	return dead;
}

/* Free the buffers of threads that have exited; under msg_lock. */
static void ks_msg_reap(struct l2tpsel_net *ln)
{
	struct ks_msgbuf *mb;
	unsigned long nr;

	xa_for_each(&ln->msg_bufs, nr, mb) {
		if (!ks_msgbuf_dead(mb))
			continue;
		xa_erase(&ln->msg_bufs, nr);
		ks_msgbuf_free(mb);
		ln->n_msg_bufs--;
	}
}

/* The current thread's buffer, made when it has none; NULL when none is free.  Under msg_lock. */
static struct ks_msgbuf *ks_msgbuf_get(struct l2tpsel_net *ln)
{
	struct pid *me = task_pid(current);
	unsigned long nr = pid_nr(me);
	struct ks_msgbuf *mb = xa_load(&ln->msg_bufs, nr);

	if (mb && mb->pid == me)
		return mb;
	if (mb) {
		/* Its number is ours now: its thread has exited. */
		put_pid(mb->pid);
		mb->pid = get_pid(me);
		return mb;
	}
	if (ln->n_msg_bufs >= KS_MSGBUFS_MAX)
		ks_msg_reap(ln);
	if (ln->n_msg_bufs >= KS_MSGBUFS_MAX)
		return NULL;
	mb = kmalloc(sizeof(*mb), GFP_KERNEL_ACCOUNT);
	if (!mb)
		return NULL;
	mb->pid = get_pid(me);
	if (xa_err(xa_store(&ln->msg_bufs, nr, mb, GFP_KERNEL_ACCOUNT))) {
		ks_msgbuf_free(mb);
		return NULL;
	}
	ln->n_msg_bufs++;
	return mb;
}

/**
 * ks_msg() - a formatted extack message
 * @info: the request
 * @attr: the attribute to point at, may be NULL
 * @fmt: printf format
 *
 * The message goes to the sending thread's buffer (struct ks_msgbuf, which
 * says why it stays the request's own until the ACK is built).  Without a
 * buffer (KS_MSGBUFS_MAX live threads, or no memory) it is a fixed text.
 * Takes a mutex: not under rcu_read_lock().
 */
void ks_msg(struct genl_info *info, const struct nlattr *attr, const char *fmt, ...)
{
	struct l2tpsel_net *ln = ks_ln(info);
	struct netlink_ext_ack *extack = info->extack;
	struct ks_msgbuf *mb;
	va_list ap;

	if (!extack)
		return;
	mutex_lock(&ln->msg_lock);
	mb = ks_msgbuf_get(ln);
	mutex_unlock(&ln->msg_lock);
	/* Only this thread writes its buffer: no lock needed for the text. */
	if (mb) {
		va_start(ap, fmt);
		vsnprintf(mb->text, sizeof(mb->text), fmt, ap);
		va_end(ap);
		extack->_msg = mb->text;
	} else {
		extack->_msg = "refused (no buffer free for the detailed message)";
	}
	extack->bad_attr = attr;
}
