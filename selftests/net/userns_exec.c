// SPDX-License-Identifier: GPL-2.0
/*
 * userns_exec [-u UID] -- CMD [ARGS...]: run CMD as root of a new user
 * namespace with a new network namespace, as `unshare -Urn CMD` does, from
 * the VM's chroot.  unshare(CLONE_NEWUSER) is refused to a chrooted process
 * and the VM runs the tests chrooted into the host's root, so this first
 * walks out of the chroot (as root), becomes UID (-u: an unprivileged user
 * making its own namespaces), makes the namespaces, maps its uid and gid to
 * 0 there, goes back into the chroot and runs CMD in the directory it was
 * started in.  For cli_perm.sh.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

static int die(const char *what)
{
	fprintf(stderr, "userns_exec: %s: %s\n", what, strerror(errno));
	return 126;
}

/* Walk out of a chroot to the mount namespace's root (needs CAP_SYS_CHROOT). */
static int leave_chroot(void)
{
	char dir[] = "/tmp/userns_exec.XXXXXX";
	int i;

	if (!mkdtemp(dir))
		return -1;
	if (chdir("/") || chroot(dir))
		return -1;
	/* The cwd is now outside the root: ".." climbs to the real one. */
	for (i = 0; i < 64; i++)
		if (chdir(".."))
			return -1;
	return chroot(".");
}

static int write_at(int dir, const char *file, const char *text)
{
	int fd = openat(dir, file, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

int main(int argc, char **argv)
{
	int opt, root, cwd, proc;
	long uid = -1;
	char map[64];
	uid_t u;
	gid_t g;

	while ((opt = getopt(argc, argv, "+u:")) != -1) {
		if (opt != 'u') {
			fprintf(stderr, "usage: userns_exec [-u UID] -- CMD [ARGS...]\n");
			return 2;
		}
		uid = strtol(optarg, NULL, 10);
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: userns_exec [-u UID] -- CMD [ARGS...]\n");
		return 2;
	}
	root = open("/", O_PATH | O_DIRECTORY);
	cwd = open(".", O_PATH | O_DIRECTORY);
	proc = open("/proc/self", O_PATH | O_DIRECTORY);
	if (root < 0 || cwd < 0 || proc < 0)
		return die("open / . /proc/self");
	if (leave_chroot())
		return die("leaving the chroot");
	if (uid >= 0) {
		if (setgroups(0, NULL) || setresgid((gid_t)uid, (gid_t)uid, (gid_t)uid) ||
		    setresuid((uid_t)uid, (uid_t)uid, (uid_t)uid))
			return die("becoming the user");
		/* A changed uid makes the process undumpable: /proc/self would be root's. */
		if (prctl(PR_SET_DUMPABLE, 1))
			return die("PR_SET_DUMPABLE");
	}
	u = geteuid();
	g = getegid();
	if (unshare(CLONE_NEWUSER | CLONE_NEWNET))
		return die("unshare(CLONE_NEWUSER | CLONE_NEWNET)");
	snprintf(map, sizeof(map), "0 %u 1\n", (unsigned int)u);
	if (write_at(proc, "uid_map", map))
		return die("writing uid_map");
	if (write_at(proc, "setgroups", "deny"))
		return die("writing setgroups");
	snprintf(map, sizeof(map), "0 %u 1\n", (unsigned int)g);
	if (write_at(proc, "gid_map", map))
		return die("writing gid_map");
	if (fchdir(root) || chroot(".") || fchdir(cwd))
		return die("going back into the chroot");
	execvp(argv[optind], argv + optind);
	return die(argv[optind]);
}
