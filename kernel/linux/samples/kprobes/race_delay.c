// SPDX-License-Identifier: GPL-2.0
/*
 * race_delay - hold a CPU inside a chosen function, so that a race whose
 * window is a few instructions can be made to happen on demand.
 *
 * A reader (a packet in softirq, an interrupt handler) and a writer (a
 * delete, a device reset) race over a window too small for any test to
 * hit when it wants, least of all under an emulator.  This module widens
 * the window: a kretprobe on @symbol spins for @delay_ms at the
 * function's entry or return (@at), the next @armed times it runs, and,
 * when @gate names a function, only while that function is running on
 * the same CPU (a handler, a classifier: code that does not migrate).  A
 * test arms it, starts the reader on one CPU, waits until @hits counts
 * the delay, starts the writer on another CPU and checks what the writer
 * did to the reader: the reproducer of a missing grace period or a
 * missing synchronize_irq().
 *
 *   modprobe race_delay symbol=complete at=return gate=p4nic_adminq_irq
 *   echo 1500 >/sys/module/race_delay/parameters/delay_ms
 *   echo 1 >/sys/module/race_delay/parameters/armed
 *   ... until /sys/module/race_delay/parameters/hits reads 1
 *
 * A test module: it stalls a CPU on purpose and is never loaded outside
 * tests.
 */
#include <linux/atomic.h>
#include <linux/ktime.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/string.h>

static char *symbol;
module_param(symbol, charp, 0444);
MODULE_PARM_DESC(symbol, "the function to delay in (required)");

static char *at = "entry";
module_param(at, charp, 0444);
MODULE_PARM_DESC(at, "where: entry or return");

static char *gate;
module_param(gate, charp, 0444);
MODULE_PARM_DESC(gate, "delay only while this function runs on the CPU");

static unsigned int delay_ms = 1000;
module_param(delay_ms, uint, 0644);
MODULE_PARM_DESC(delay_ms, "how long one delay spins (at most 10000)");

static atomic_t armed = ATOMIC_INIT(0);
static atomic_t hits = ATOMIC_INIT(0);

static int counter_set(const char *val, const struct kernel_param *kp)
{
	int n, ret;

	ret = kstrtoint(val, 0, &n);
	if (ret)
		return ret;
	if (n < 0)
		return -EINVAL;
	atomic_set(kp->arg, n);
	return 0;
}

static int counter_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(kp->arg));
}

static const struct kernel_param_ops counter_ops = {
	.set = counter_set,
	.get = counter_get,
};

module_param_cb(armed, &counter_ops, &armed, 0644);
MODULE_PARM_DESC(armed, "how many of the next calls are delayed");
module_param_cb(hits, &counter_ops, &hits, 0644);
MODULE_PARM_DESC(hits, "how many delays began (writable: a test resets it)");

static DEFINE_PER_CPU(int, in_gate);
static bool delay_at_return;

/* A spin on the clock alone: mdelay()'s pause instructions make an
 * emulator's vCPU leave its translated code at each turn, and its main
 * loop (where the other vCPU's timers and interrupts are served) then
 * waits behind it: the other CPU, the writer's, would stall as well.
 */
static void spin_ms(unsigned int ms)
{
	u64 end = ktime_get_ns() + (u64)ms * NSEC_PER_MSEC;

	while (ktime_get_ns() < end)
		barrier();
}

static void maybe_delay(void)
{
	if (gate && !this_cpu_read(in_gate))
		return;
	if (atomic_dec_if_positive(&armed) < 0)
		return;
	atomic_inc(&hits);
	spin_ms(min(READ_ONCE(delay_ms), 10000U));
}

static int delay_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	if (!delay_at_return)
		maybe_delay();
	return 0;
}

static int delay_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	if (delay_at_return)
		maybe_delay();
	return 0;
}

static int gate_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	this_cpu_inc(in_gate);
	return 0;
}

static int gate_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	this_cpu_dec(in_gate);
	return 0;
}

static struct kretprobe delay_probe = {
	.entry_handler = delay_entry,
	.handler = delay_return,
};

static struct kretprobe gate_probe = {
	.entry_handler = gate_entry,
	.handler = gate_return,
};

static int __init race_delay_init(void)
{
	int ret;

	if (!symbol || !*symbol) {
		pr_err("race_delay: symbol= is required\n");
		return -EINVAL;
	}
	if (strcmp(at, "entry") && strcmp(at, "return")) {
		pr_err("race_delay: at= is entry or return, not '%s'\n", at);
		return -EINVAL;
	}
	delay_at_return = !strcmp(at, "return");
	if (gate && *gate) {
		gate_probe.kp.symbol_name = gate;
		ret = register_kretprobe(&gate_probe);
		if (ret) {
			pr_err("race_delay: cannot probe gate %s: %d\n", gate,
			       ret);
			return ret;
		}
	} else {
		gate = NULL;
	}
	delay_probe.kp.symbol_name = symbol;
	ret = register_kretprobe(&delay_probe);
	if (ret) {
		pr_err("race_delay: cannot probe %s: %d\n", symbol, ret);
		if (gate)
			unregister_kretprobe(&gate_probe);
		return ret;
	}
	return 0;
}

static void __exit race_delay_exit(void)
{
	unregister_kretprobe(&delay_probe);
	if (gate)
		unregister_kretprobe(&gate_probe);
}

module_init(race_delay_init);
module_exit(race_delay_exit);
MODULE_DESCRIPTION("Delay a chosen function to open a race window on demand");
MODULE_LICENSE("GPL");
