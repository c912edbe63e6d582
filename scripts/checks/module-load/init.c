// SPDX-License-Identifier: GPL-2.0
/*
 * init.c - PID 1 of the initramfs of the check unit "module-load"
 * (configs/module-load.conf).
 *
 * On a machine that lacks the facility a KVM module needs, the module
 * must refuse to load cleanly: its init runs (every symbol resolved), it
 * fails with its documented errno, and a second load fails the same way.
 * Reads /modload.conf, KEY=VALUE lines:
 *
 *	module=PATH	the module file in the initramfs
 *	errno=N		the errno both loads must fail with
 *	absent=PATH	a path that must not exist afterwards (repeatable)
 *	hwcap=NAME	a feature /proc/cpuinfo must not list (repeatable)
 *
 * and prints one line per assertion, then powers the machine off:
 *
 *	series-modload: PASS|FAIL <assertion>
 *	series-modload: done
 *
 * The kernel's own messages (the module's refusal, any warning) reach
 * the console and are judged by the caller.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_ITEMS	8
#define LINE_LEN	512

static int failures;

static void __attribute__((format(printf, 2, 3)))
report(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("series-modload: %s ", ok ? "PASS" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (!ok)
		failures++;
}

static void mount_or_say(const char *src, const char *dir, const char *type)
{
	mkdir(dir, 0755);
	if (mount(src, dir, type, 0, NULL) && errno != EBUSY)
		printf("series-modload: mount %s on %s: %s\n", type, dir, strerror(errno));
}

/* Load the module once: 0 if it loaded, else the errno of the failure. */
static int load(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	if (syscall(SYS_finit_module, fd, "", 0))
		err = errno;
	close(fd);
	return err;
}

/* The "features" line of /proc/cpuinfo, into buf; 0 if there is none. */
static int cpu_features(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	int found = 0;

	if (!f)
		return 0;
	while (fgets(buf, len, f)) {
		if (!strncmp(buf, "features", 8)) {
			found = 1;
			break;
		}
	}
	fclose(f);
	return found;
}

/* Whether the space-separated word list after the colon of line has word */
static int has_word(const char *line, const char *word)
{
	const char *p = strchr(line, ':');
	size_t n = strlen(word);

	for (p = p ? p + 1 : line; (p = strstr(p, word)); p += n) {
		if ((p[-1] == ' ' || p[-1] == '\t') &&
		    (p[n] == ' ' || p[n] == '\n' || p[n] == '\0'))
			return 1;
	}
	return 0;
}

int main(void)
{
	char line[LINE_LEN], module[LINE_LEN] = "", features[4096];
	char absent[MAX_ITEMS][LINE_LEN], hwcap[MAX_ITEMS][LINE_LEN];
	int nabsent = 0, nhwcap = 0, want_errno = -1, i, err;
	struct stat st;
	FILE *conf;

	mount_or_say("devtmpfs", "/dev", "devtmpfs");
	mount_or_say("proc", "/proc", "proc");
	mount_or_say("sysfs", "/sys", "sysfs");

	conf = fopen("/modload.conf", "r");
	if (!conf) {
		report(0, "read /modload.conf: %s", strerror(errno));
		goto out;
	}
	while (fgets(line, sizeof(line), conf)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "module=", 7))
			snprintf(module, sizeof(module), "%s", line + 7);
		else if (!strncmp(line, "errno=", 6))
			want_errno = atoi(line + 6);
		else if (!strncmp(line, "absent=", 7) && nabsent < MAX_ITEMS)
			snprintf(absent[nabsent++], LINE_LEN, "%s", line + 7);
		else if (!strncmp(line, "hwcap=", 6) && nhwcap < MAX_ITEMS)
			snprintf(hwcap[nhwcap++], LINE_LEN, "%s", line + 6);
	}
	fclose(conf);
	if (!*module || want_errno < 0) {
		report(0, "/modload.conf names a module and an errno");
		goto out;
	}

	for (i = 1; i <= 2; i++) {
		printf("series-modload: loading %s, attempt %d\n", module, i);
		fflush(stdout);
		err = load(module);
		if (err < 0)
			report(0, "open %s: %s", module, strerror(-err));
		else
			report(err == want_errno, "load %d of %s fails with errno %d (got %d)",
			       i, module, want_errno, err);
	}
	for (i = 0; i < nabsent; i++)
		report(stat(absent[i], &st) != 0, "%s does not exist", absent[i]);
	if (!cpu_features(features, sizeof(features))) {
		report(0, "/proc/cpuinfo has a features line");
	} else {
		for (i = 0; i < nhwcap; i++)
			report(!has_word(features, hwcap[i]),
			       "/proc/cpuinfo does not list %s", hwcap[i]);
	}
out:
	printf("series-modload: done, %d failure(s)\n", failures);
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
