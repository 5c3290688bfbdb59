// SPDX-License-Identifier: GPL-2.0
/*
 * obj_caps: fill one network namespace with every kind of object a request
 * can create, for obj_caps.sh.  For each kind it
 * creates objects named f0, f1, ... until a request is refused, and prints
 *
 *   KIND created N err ERRNO charged BYTES msg "EXTACK MESSAGE"
 *
 * BYTES is how much the slab memory charged to the process's memory cgroup
 * grew meanwhile (-1 when it has none).  Then it prints "full"
 * and waits for its standard input to close, the namespace still full, so
 * that the caller can check the initial namespace meanwhile.
 *
 *   obj_caps [-n MAX] [-c CHASSIS_MAX]
 *     -n  give up on a kind after MAX objects (default 1000000): "created MAX err 0"
 *     -c  first ask for this CHASSIS_MAX and print "chassis-max V err E msg ..."
 *         and the maximum then in force ("chassis-max-now V")
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../include/l2s_nltest.h"

/*
 * The slab bytes charged to the process's memory cgroup (memory.stat
 * "slab"): objects are charged in bytes there, memory.current moves in the
 * pages a CPU charges ahead of time (256 KiB).  -1 without a cgroup v2.
 */
static long long cg_slab(void)
{
	char path[600], line[512];
	long long v = -1;
	FILE *f;

	f = fopen("/proc/self/cgroup", "r");
	if (!f)
		return -1;
	/* cgroup v2: the one line "0::/PATH". */
	if (!fgets(line, sizeof(line), f) || strncmp(line, "0::", 3)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	line[strcspn(line, "\n")] = 0;
	snprintf(path, sizeof(path), "/sys/fs/cgroup%s/memory.stat", line + 3);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "slab %lld", &v) == 1)
			break;
	fclose(f);
	return v;
}

struct kind {
	const char *name;
	uint8_t cmd;
};

static const struct kind kinds[] = {
	{ "profile", L2TPSEL_CMD_PROFILE_NEW },
	{ "domain", L2TPSEL_CMD_DOMAIN_NEW },
	{ "tgroup", L2TPSEL_CMD_TGROUP_NEW },
	{ "slg", L2TPSEL_CMD_SLG_NEW },
	{ "client", L2TPSEL_CMD_CLIENT_NEW },
	{ "session", L2TPSEL_CMD_SESSION_UP },
};

static int admit_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct nlt_attrs at;

	nlt_parse(nlh, &at);
	*(int *)arg = nlt_u8(&at, L2TPSEL_A_ADMIT);
	return MNL_CB_OK;
}

static int chassis_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct nlt_attrs at;

	nlt_parse(nlh, &at);
	*(uint32_t *)arg = nlt_u32(&at, L2TPSEL_A_CHASSIS_MAX);
	return MNL_CB_OK;
}

static int one(struct nlt *t, const struct kind *k, unsigned long i, struct nlt_ack *ack)
{
	char buf[1024], name[32];
	struct nlmsghdr *nlh = nlt_req(t, buf, k->cmd, 0);
	int admit = -1, ret;

	snprintf(name, sizeof(name), "f%lu", i);
	switch (k->cmd) {
	case L2TPSEL_CMD_DOMAIN_NEW:
		mnl_attr_put_strz(nlh, L2TPSEL_A_DOMAIN, name);
		mnl_attr_put_strz(nlh, L2TPSEL_A_PROFILE, "f0");
		break;
	case L2TPSEL_CMD_SESSION_UP:
		mnl_attr_put_u64(nlh, L2TPSEL_A_SESSION_KEY, i + 1);
		mnl_attr_put_u8(nlh, L2TPSEL_A_ROLE, L2TPSEL_ROLE_LAC);
		mnl_attr_put_u32(nlh, L2TPSEL_A_TUNNEL_ID, 1);
		break;
	default:
		mnl_attr_put_strz(nlh, L2TPSEL_A_NAME, name);
	}
	ret = nlt_talk(t, nlh, k->cmd == L2TPSEL_CMD_SESSION_UP ? admit_cb : NULL, &admit, ack);
	if (!ret && k->cmd == L2TPSEL_CMD_SESSION_UP && admit != L2TPSEL_LEVEL_PASS) {
		snprintf(ack->msg, sizeof(ack->msg), "not admitted: level %d", admit);
		return -EDQUOT;
	}
	return ret;
}

static void quoted(const char *s)
{
	putchar('"');
	for (; *s; s++)
		putchar(*s == '"' || *s == '\n' ? '\'' : *s);
	putchar('"');
}

int main(int argc, char **argv)
{
	unsigned long max = 1000000, i;
	long long chassis = -1, before;
	struct nlt_ack ack;
	struct nlt t;
	size_t k;
	int opt, ret;

	while ((opt = getopt(argc, argv, "n:c:")) != -1) {
		if (opt == 'n')
			max = strtoul(optarg, NULL, 0);
		else if (opt == 'c')
			chassis = strtoll(optarg, NULL, 0);
		else
			return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	ret = nlt_open(&t);
	if (ret) {
		fprintf(stderr, "obj_caps: cannot open the l2tpsel family: %s\n", strerror(-ret));
		return 1;
	}
	if (chassis >= 0) {
		char buf[256];
		struct nlmsghdr *nlh = nlt_req(&t, buf, L2TPSEL_CMD_LIMIT_SET, 0);
		uint32_t now = 0;

		mnl_attr_put_u32(nlh, L2TPSEL_A_CHASSIS_MAX, (uint32_t)chassis);
		ret = nlt_talk(&t, nlh, NULL, NULL, &ack);
		printf("chassis-max %lld err %d msg ", chassis, -ret);
		quoted(ack.msg);
		putchar('\n');
		nlh = nlt_req(&t, buf, L2TPSEL_CMD_LIMIT_GET, 0);
		ret = nlt_talk(&t, nlh, chassis_cb, &now, &ack);
		printf("chassis-max-now %u err %d\n", now, -ret);
	}
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		before = cg_slab();
		for (i = 0, ret = 0; i < max; i++) {
			ret = one(&t, &kinds[k], i, &ack);
			if (ret)
				break;
		}
		printf("%s created %lu err %d charged %lld msg ", kinds[k].name, i, -ret,
		       before < 0 ? -1 : cg_slab() - before);
		quoted(ret ? ack.msg : "");
		putchar('\n');
	}
	printf("full\n");
	while (getchar() != EOF)
		;
	nlt_close(&t);
	return 0;
}
