// SPDX-License-Identifier: GPL-2.0
/*
 * PID 1 of the test guest.  tests/vm/run boots the kernel with
 * init=build/vm/init; the root file system is the host's, read-only over
 * virtio-9p.  This program gives the guest its writable places, reads the
 * run's parameters, runs the command on the virtio console and reports its
 * exit status through the run directory (a second, writable 9p share).
 *
 * It is a static C program, not a shell script, because every dynamically
 * linked exec costs about 0.3 s in a KASAN + lockdep kernel under TCG, and
 * this is the boot overhead of every test.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#define RUN_DIR "/run/p4tc"

static void klog(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int fd, n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (n > 0)
		(void)!write(fd, buf, strnlen(buf, sizeof(buf)));
	close(fd);
}

static int do_mount(const char *src, const char *dst, const char *type,
		    unsigned long flags, const char *data)
{
	mkdir(dst, 0755);
	if (mount(src, dst, type, flags, data) == 0)
		return 0;
	klog("p4tc-init: mount %s on %s (%s) failed: %s\n", src, dst, type,
	     strerror(errno));
	return -1;
}

static void mkdir_p(const char *path)
{
	char buf[256];
	size_t i;

	snprintf(buf, sizeof(buf), "%s", path);
	for (i = 1; buf[i]; i++) {
		if (buf[i] != '/')
			continue;
		buf[i] = '\0';
		mkdir(buf, 0755);
		buf[i] = '/';
	}
	mkdir(buf, 0755);
}

/*
 * A tmpfs overlay over a read-only directory of the host.  On failure
 * the directory stays read-only (an empty tmpfs instead would hide the
 * host's files), and the kernel log says why.
 */
static void overlay(const char *dir)
{
	char upper[256], work[256], opts[768];

	snprintf(upper, sizeof(upper), "/run/overlay%s/upper", dir);
	snprintf(work, sizeof(work), "/run/overlay%s/work", dir);
	mkdir_p(upper);
	mkdir_p(work);
	snprintf(opts, sizeof(opts), "lowerdir=%s,upperdir=%s,workdir=%s",
		 dir, upper, work);
	do_mount("overlay", dir, "overlay", 0, opts);
}

/* The run's parameters: KEY=VALUE lines written by tests/vm/run. */
static void load_env(void)
{
	char line[4096];
	FILE *f = fopen(RUN_DIR "/env", "r");

	if (!f) {
		klog("p4tc-init: no %s/env: %s\n", RUN_DIR, strerror(errno));
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		char *eq = strchr(line, '=');

		line[strcspn(line, "\n")] = '\0';
		if (!eq)
			continue;
		*eq = '\0';
		setenv(line, eq + 1, 1);
	}
	fclose(f);
}

static void link_up(const char *name)
{
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return;
	strncpy(ifr.ifr_name, name, IFNAMSIZ - 1);
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) == 0) {
		ifr.ifr_flags |= IFF_UP;
		ioctl(fd, SIOCSIFFLAGS, &ifr);
	}
	close(fd);
}

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

static void copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC), out;
	ssize_t n;

	if (in < 0)
		return;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out >= 0) {
		while ((n = read(in, buf, sizeof(buf))) > 0)
			if (write(out, buf, n) != n)
				break;
		close(out);
	}
	close(in);
}

/*
 * The whole kernel log, whatever the console's loglevel, for the host to
 * scan and keep: /dev/kmsg hands out one record per read.
 */
static void save_kernel_log(const char *to)
{
	char rec[8192];
	int in = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC), out;
	ssize_t n;

	if (in < 0)
		return;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out >= 0) {
		for (;;) {
			n = read(in, rec, sizeof(rec));
			if (n < 0 && errno == EPIPE)	/* overwritten: go on */
				continue;
			if (n <= 0)
				break;
			if (write(out, rec, n) != n)
				break;
		}
		close(out);
	}
	close(in);
}

static pid_t start_command(int interactive)
{
	pid_t pid = fork();
	int io;

	if (pid != 0)
		return pid;
	setsid();
	io = open("/dev/hvc0", O_RDWR);
	if (io < 0) {
		klog("p4tc-init: /dev/hvc0: %s\n", strerror(errno));
		_exit(126);
	}
	if (interactive) {
		ioctl(io, TIOCSCTTY, 0);
		dup2(io, 0);
	} else {
		struct termios t;

		/* Output bytes as written: no CR before each LF. */
		if (tcgetattr(io, &t) == 0) {
			t.c_oflag &= ~OPOST;
			tcsetattr(io, TCSANOW, &t);
		}
		int null = open("/dev/null", O_RDONLY);

		dup2(null, 0);
	}
	dup2(io, 1);
	dup2(io, 2);
	if (io > 2)
		close(io);
	if (interactive) {
		printf("p4tc guest: exit the shell to power off\n");
		fflush(stdout);
		execl("/bin/bash", "bash", "-i", (char *)NULL);
	} else {
		execl("/bin/bash", "bash", RUN_DIR "/cmd", (char *)NULL);
	}
	klog("p4tc-init: exec bash: %s\n", strerror(errno));
	_exit(127);
}

int main(void)
{
	const char *top, *cwd, *mods;
	char path[8192], buf[32];
	int interactive, status = 0, code;
	pid_t child, pid;

	do_mount("proc", "/proc", "proc", 0, NULL);
	do_mount("sysfs", "/sys", "sysfs", 0, NULL);
	if (access("/dev/null", F_OK) != 0)
		do_mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	do_mount("devpts", "/dev/pts", "devpts", 0, "newinstance,ptmxmode=0666");
	do_mount("tmpfs", "/dev/shm", "tmpfs", 0, NULL);
	do_mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	/*
	 * No periodic kmemleak scan while the tests run: each one walks all
	 * of memory (about 10 s of a vCPU under TCG) and finds nothing the
	 * scans at the end would miss, since a leaked object stays leaked.
	 */
	if (access("/sys/kernel/debug/kmemleak", W_OK) == 0)
		write_file("/sys/kernel/debug/kmemleak", "scan=off");
	do_mount("tmpfs", "/run", "tmpfs", 0, "mode=0755");
	/*
	 * Overlays, not empty tmpfs: the repository (and a CI clone) may live
	 * under /tmp or /root, and must stay visible.
	 */
	overlay("/tmp");
	overlay("/root");
	overlay("/etc");
	overlay("/var");
	if (do_mount("p4tcout", RUN_DIR, "9p", 0,
		     "trans=virtio,version=9p2000.L,msize=512000") != 0)
		goto out;

	load_env();
	/*
	 * Our modules appear at /lib/modules.  The host may have no such
	 * directory (a container or VM without a kernel package), so it is
	 * made in a tmpfs overlay of /usr/lib (/lib is a link to it).
	 */
	mods = getenv("P4TC_MODULES");
	if (mods) {
		overlay("/usr/lib");
		mkdir("/usr/lib/modules", 0755);
		do_mount(mods, "/usr/lib/modules", NULL, MS_BIND, NULL);
	}
	sethostname("p4tc-guest", strlen("p4tc-guest"));
	link_up("lo");

	top = getenv("P4TC_TOP") ?: "/";
	snprintf(path, sizeof(path),
		 "%s/build/iproute2/bin:%s/tests/bin:/usr/local/sbin:"
		 "/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", top, top);
	setenv("PATH", path, 1);
	setenv("HOME", "/root", 1);
	setenv("P4TC_GUEST", "1", 1);
	/* The one writable place the host sees: artifacts go here. */
	setenv("P4TC_OUT", RUN_DIR, 1);
	if (!getenv("TERM"))
		setenv("TERM", "linux", 1);
	cwd = getenv("P4TC_CWD");
	if (!cwd || chdir(cwd) != 0)
		chdir("/");

	interactive = getenv("P4TC_INTERACTIVE") &&
		      !strcmp(getenv("P4TC_INTERACTIVE"), "1");
	child = start_command(interactive);
	/* PID 1 reaps every orphan until the command itself ends. */
	while ((pid = wait(&status)) != child)
		if (pid < 0 && errno != EINTR)
			break;
	code = WIFEXITED(status) ? WEXITSTATUS(status) :
	       WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 126;
	snprintf(buf, sizeof(buf), "%d\n", code);
	write_file(RUN_DIR "/status", buf);

	/*
	 * kmemleak reports only objects older than 5 s: wait that long
	 * after the command, then scan twice (the first scan can see an
	 * object whose last pointer is in flight).
	 */
	if (getenv("P4TC_LEAKCHECK") && !strcmp(getenv("P4TC_LEAKCHECK"), "1") &&
	    access("/sys/kernel/debug/kmemleak", W_OK) == 0) {
		sleep(5);
		write_file("/sys/kernel/debug/kmemleak", "scan");
		write_file("/sys/kernel/debug/kmemleak", "scan");
		copy_file("/sys/kernel/debug/kmemleak", RUN_DIR "/kmemleak");
	}
	klog("p4tc-init: done, status %d\n", code);
	save_kernel_log(RUN_DIR "/dmesg");
out:
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
