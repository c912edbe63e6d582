// SPDX-License-Identifier: GPL-2.0
/*
 * init.c - PID 1 of the runtime gate's initramfs (scripts/lib/boot.sh).
 *
 * Mounts devtmpfs, proc and sysfs, reports whether /dev/kvm exists, then
 * runs the tests of /tests/list, one per line:
 *
 *	NAME TIMEOUT-SECONDS PROGRAM [ARG...]
 *
 * each in a child whose standard output and error come back through a
 * pipe, so that every line of it reaches the console whole and tagged:
 *
 *	series-boot: kvm present|absent
 *	series-boot: begin NAME
 *	series-boot: out NAME: <a line the test printed>
 *	series-boot: result NAME PASS|FAIL|SKIP|TIMEOUT <detail>
 *	series-boot: done
 *
 * then powers the machine off.  The KVM selftests exit 0 when they pass
 * and 4 (KSFT_SKIP) when they skip; anything else is a failure.  The
 * kernel may run without POSIX timers, so the timeout is polled.
 *
 * Every test starts with the wall clock at TEST_EPOCH: the KVM selftests
 * seed their random numbers from time(0) and print the seed, so that
 * their output is the same at the base and at the step.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define KSFT_SKIP	4
#define MAX_ARGS	16
#define LINE_MAX_LEN	4096
#define TEST_EPOCH	1700000000

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void mount_or_say(const char *src, const char *dir, const char *type)
{
	mkdir(dir, 0755);
	if (mount(src, dir, type, 0, NULL) && errno != EBUSY)
		printf("series-boot: mount %s on %s: %s\n", type, dir, strerror(errno));
}

/* Print the complete lines of buf[0..*len) tagged with NAME; keep the rest. */
static void emit_lines(const char *name, char *buf, size_t *len, int flush)
{
	char *start = buf, *nl;

	while ((nl = memchr(start, '\n', buf + *len - start))) {
		*nl = '\0';
		printf("series-boot: out %s: %s\n", name, start);
		start = nl + 1;
	}
	*len -= start - buf;
	memmove(buf, start, *len);
	if (*len && (flush || *len == LINE_MAX_LEN)) {
		printf("series-boot: out %s: %.*s\n", name, (int)*len, buf);
		*len = 0;
	}
}

static void run_test(char *name, int timeout, char **argv)
{
	char buf[LINE_MAX_LEN];
	size_t len = 0;
	int fds[2], status, open_fd = 1, timed_out = 0;
	double deadline = now() + timeout;
	pid_t pid;

	printf("series-boot: begin %s\n", name);
	fflush(stdout);
	if (pipe(fds)) {
		printf("series-boot: result %s FAIL pipe: %s\n", name, strerror(errno));
		return;
	}
	pid = fork();
	if (pid < 0) {
		printf("series-boot: result %s FAIL fork: %s\n", name, strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return;
	}
	if (pid == 0) {
		struct timespec epoch = { TEST_EPOCH, 0 };

		if (clock_settime(CLOCK_REALTIME, &epoch))
			printf("series-boot: out %s: clock_settime: %s\n", name, strerror(errno));
		fflush(stdout);
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		close(fds[0]);
		close(fds[1]);
		execv(argv[0], argv);
		fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	for (;;) {
		struct pollfd p = { .fd = fds[0], .events = POLLIN };
		pid_t w;

		if (open_fd && poll(&p, 1, 50) > 0) {
			ssize_t n = read(fds[0], buf + len, sizeof(buf) - len);

			if (n > 0) {
				len += n;
				emit_lines(name, buf, &len, 0);
			} else if (n == 0) {
				open_fd = 0;
			}
		} else if (!open_fd) {
			struct timespec ts = { 0, 50 * 1000 * 1000 };

			nanosleep(&ts, NULL);
		}
		w = waitpid(pid, &status, WNOHANG);
		if (w == pid && !open_fd)
			break;
		if (w == pid) {
			/* Drain what the test wrote before it exited. */
			ssize_t n;

			while ((n = read(fds[0], buf + len, sizeof(buf) - len)) > 0) {
				len += n;
				emit_lines(name, buf, &len, 0);
			}
			break;
		}
		if (!timed_out && now() > deadline) {
			kill(pid, SIGKILL);
			timed_out = 1;
		}
	}
	emit_lines(name, buf, &len, 1);
	close(fds[0]);
	if (timed_out)
		printf("series-boot: result %s TIMEOUT after %d s\n", name, timeout);
	else if (WIFSIGNALED(status))
		printf("series-boot: result %s FAIL signal %d\n", name, WTERMSIG(status));
	else if (WEXITSTATUS(status) == 0)
		printf("series-boot: result %s PASS status=0\n", name);
	else if (WEXITSTATUS(status) == KSFT_SKIP)
		printf("series-boot: result %s SKIP status=%d\n", name, KSFT_SKIP);
	else
		printf("series-boot: result %s FAIL status=%d\n", name, WEXITSTATUS(status));
	fflush(stdout);
}

int main(void)
{
	char line[1024];
	FILE *list;

	setvbuf(stdout, NULL, _IOLBF, 0);
	mount_or_say("devtmpfs", "/dev", "devtmpfs");
	mount_or_say("proc", "/proc", "proc");
	mount_or_say("sysfs", "/sys", "sysfs");
	printf("series-boot: kvm %s\n", access("/dev/kvm", F_OK) ? "absent" : "present");

	list = fopen("/tests/list", "r");
	if (!list)
		printf("series-boot: no /tests/list: %s\n", strerror(errno));
	while (list && fgets(line, sizeof(line), list)) {
		char *argv[MAX_ARGS + 1], *name, *tmo, *save = NULL;
		int argc = 0;

		line[strcspn(line, "\n")] = '\0';
		name = strtok_r(line, " ", &save);
		tmo = strtok_r(NULL, " ", &save);
		if (!name || name[0] == '#' || !tmo)
			continue;
		while (argc < MAX_ARGS && (argv[argc] = strtok_r(NULL, " ", &save)))
			argc++;
		argv[argc] = NULL;
		if (!argc) {
			printf("series-boot: result %s FAIL no program\n", name);
			continue;
		}
		run_test(name, atoi(tmo), argv);
	}
	if (list)
		fclose(list);
	printf("series-boot: done\n");
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
