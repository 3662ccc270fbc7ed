// SPDX-License-Identifier: GPL-2.0
/*
 * p4nic admin queue and event queue.
 *
 * One command is in flight at a time (aq_lock): the caller sleeps until
 * the completion interrupt hands over the completion whose cookie it
 * waits for.  A command that times out resets the device, which stops
 * its DMA, so that the command's buffers can be freed; the device is then
 * dead to the driver until it is probed again.  Whoever frees memory a
 * dead device may still write (a port's rings) halts it the same way.
 *
 * The interrupt handlers take at most a queue's worth of entries per
 * call: a device that keeps writing entries cannot hold the CPU.
 */
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/iopoll.h>
#include "p4nic.h"

static int p4nic_status_errno(u16 status)
{
	switch (status) {
	case P4NIC_ST_OK:
		return 0;
	case P4NIC_ST_BAD_OPCODE:
		return -EOPNOTSUPP;
	case P4NIC_ST_INVALID:
		return -EINVAL;
	case P4NIC_ST_LIMIT:
		return -ERANGE;
	case P4NIC_ST_NO_PIPELINE:
	case P4NIC_ST_NOT_FOUND:
		return -ENOENT;
	case P4NIC_ST_BUSY:
		return -EBUSY;
	case P4NIC_ST_EXISTS:
		return -EEXIST;
	case P4NIC_ST_NO_SPACE:
		return -ENOSPC;
	case P4NIC_ST_NO_MEMORY:
		return -ENOMEM;
	default:
		return -EIO;
	}
}

/**
 * p4nic_adminq_init - allocate and program the admin, completion and
 * event queues
 * @nic: the device, just reset
 *
 * Return: 0, -ENOMEM or -EIO.
 */
int p4nic_adminq_init(struct p4nic *nic)
{
	struct device *dev = &nic->pdev->dev;

	nic->aq = dmam_alloc_coherent(dev, P4NIC_AQ_SIZE * sizeof(*nic->aq),
				      &nic->aq_dma, GFP_KERNEL);
	nic->acq = dmam_alloc_coherent(dev, P4NIC_AQ_SIZE * sizeof(*nic->acq),
				       &nic->acq_dma, GFP_KERNEL);
	nic->eq = dmam_alloc_coherent(dev, P4NIC_EQ_SIZE * sizeof(*nic->eq),
				      &nic->eq_dma, GFP_KERNEL);
	if (!nic->aq || !nic->acq || !nic->eq)
		return -ENOMEM;
	return p4nic_adminq_program(nic);
}

/**
 * p4nic_adminq_program - give the device its queues again, empty
 * @nic: the device, just reset; its queues allocated
 *
 * Context: no admin or event handler runs, nor can start: at probe they
 * are not requested yet, at a function reset p4nic_reset_prepare()
 * disabled them (a handler finishing now would write the old queues'
 * heads into the new ones).
 *
 * Return: 0 or -EIO when the device refuses them.
 */
int p4nic_adminq_program(struct p4nic *nic)
{
	struct device *dev = &nic->pdev->dev;

	memset(nic->aq, 0, P4NIC_AQ_SIZE * sizeof(*nic->aq));
	memset(nic->acq, 0, P4NIC_AQ_SIZE * sizeof(*nic->acq));
	memset(nic->eq, 0, P4NIC_EQ_SIZE * sizeof(*nic->eq));
	spin_lock_irq(&nic->cpl_lock);
	nic->cpl_wait = 0;
	nic->acq_head = 0;
	nic->acq_phase = true;
	spin_unlock_irq(&nic->cpl_lock);
	nic->aq_tail = 0;
	nic->eq_head = 0;
	nic->eq_phase = true;
	nic->halted = false;

	p4nic_wr(nic, P4NIC_REG_AQ_BASE_LO, lower_32_bits(nic->aq_dma));
	p4nic_wr(nic, P4NIC_REG_AQ_BASE_HI, upper_32_bits(nic->aq_dma));
	p4nic_wr(nic, P4NIC_REG_AQ_SIZE, P4NIC_AQ_SIZE);
	p4nic_wr(nic, P4NIC_REG_ACQ_BASE_LO, lower_32_bits(nic->acq_dma));
	p4nic_wr(nic, P4NIC_REG_ACQ_BASE_HI, upper_32_bits(nic->acq_dma));
	p4nic_wr(nic, P4NIC_REG_ACQ_SIZE, P4NIC_AQ_SIZE);
	p4nic_wr(nic, P4NIC_REG_EQ_BASE_LO, lower_32_bits(nic->eq_dma));
	p4nic_wr(nic, P4NIC_REG_EQ_BASE_HI, upper_32_bits(nic->eq_dma));
	p4nic_wr(nic, P4NIC_REG_EQ_SIZE, P4NIC_EQ_SIZE);
	if (p4nic_rd(nic, P4NIC_REG_ERR_COUNT)) {
		dev_err(dev, "device refused the queue setup (register 0x%x)\n",
			P4NIC_ERR_OFFSET(p4nic_rd(nic, P4NIC_REG_ERR_LAST)));
		return -EIO;
	}
	return 0;
}

/* Reset a device the driver gives up on; it stays dead.  aq_lock held. */
static void __p4nic_halt(struct p4nic *nic, const char *why)
{
	u32 st;

	lockdep_assert_held(&nic->aq_lock);
	nic->dead = true;
	if (nic->halted)
		return;
	dev_err(&nic->pdev->dev, "%s: resetting the device, which stays down\n",
		why);
	p4nic_wr(nic, P4NIC_REG_CTRL, P4NIC_CTRL_RESET);
	if (readl_poll_timeout(nic->regs + P4NIC_REG_STATUS, st,
			       st & P4NIC_STATUS_READY, 100,
			       P4NIC_RESET_TIMEOUT_US))
		dev_err(&nic->pdev->dev, "device did not come back from reset\n");
	nic->halted = true;
}

/**
 * p4nic_halt - stop the DMA of a device that can no longer be told to
 * @nic: the device
 * @why: for the log
 *
 * A port whose disable the device refused, or any port of a device that
 * reported a fatal error, cannot know that the device stopped writing its
 * rings: resetting the device is the only way to be sure before they are
 * freed.  The device stays dead to the driver (until a PCI reset brings it
 * back).  Sleeps.
 */
void p4nic_halt(struct p4nic *nic, const char *why)
{
	mutex_lock(&nic->aq_lock);
	__p4nic_halt(nic, why);
	mutex_unlock(&nic->aq_lock);
}

/**
 * p4nic_cmd - execute an admin command and wait for its completion
 * @nic: the device
 * @opcode: P4NIC_CMD_*
 * @in: what the device reads, or NULL
 * @in_len: its length
 * @out: where the device's output is copied, or NULL
 * @out_len: its room
 * @params: inline parameters
 * @nparams: how many (at most 8)
 * @result: on success the bytes written; on P4NIC_ST_INVALID and the like
 *	the offset of the refused field; may be NULL
 *
 * Sleeps.  Return: 0, or a negative errno mapped from the device's status
 * (-EINVAL, -ENOSPC, ...), -ETIMEDOUT, -EIO for a device that stopped or
 * a completion that does not add up.
 */
int p4nic_cmd(struct p4nic *nic, u16 opcode, const void *in, u32 in_len,
	      void *out, u32 out_len, const u32 *params, u32 nparams,
	      u32 *result)
{
	struct device *dev = &nic->pdev->dev;
	dma_addr_t in_dma = 0, out_dma = 0;
	void *inbuf = NULL, *outbuf = NULL;
	struct p4nic_cpl cpl;
	struct p4nic_cmd *c;
	u32 i, done;
	u16 status;
	int ret;

	if (WARN_ON(nparams > ARRAY_SIZE(c->p)))
		return -EINVAL;
	mutex_lock(&nic->aq_lock);
	if (nic->dead) {
		ret = -EIO;
		goto unlock;
	}
	ret = -ENOMEM;
	if (in_len) {
		inbuf = dma_alloc_coherent(dev, in_len, &in_dma, GFP_KERNEL);
		if (!inbuf)
			goto unlock;
		memcpy(inbuf, in, in_len);
	}
	if (out_len) {
		outbuf = dma_alloc_coherent(dev, out_len, &out_dma, GFP_KERNEL);
		if (!outbuf)
			goto free;
	}

	c = &nic->aq[nic->aq_tail];
	memset(c, 0, sizeof(*c));
	c->opcode = cpu_to_le16(opcode);
	/* 0 means "nothing waiting" to the handler: skip it on the wrap */
	if (!++nic->cookie)
		nic->cookie = 1;
	c->cookie = cpu_to_le32(nic->cookie);
	c->in_addr = cpu_to_le64(in_dma);
	c->in_len = cpu_to_le32(in_len);
	c->out_addr = cpu_to_le64(out_dma);
	c->out_len = cpu_to_le32(out_len);
	for (i = 0; i < nparams; i++)
		c->p[i] = cpu_to_le32(params[i]);

	spin_lock_irq(&nic->cpl_lock);
	nic->cpl_wait = nic->cookie;
	reinit_completion(&nic->cpl_done);
	spin_unlock_irq(&nic->cpl_lock);

	nic->aq_tail = (nic->aq_tail + 1) % P4NIC_AQ_SIZE;
	/* the command is in memory before the doorbell */
	dma_wmb();
	p4nic_wr(nic, P4NIC_REG_AQ_TAIL, nic->aq_tail);

	if (!wait_for_completion_timeout(&nic->cpl_done,
					 msecs_to_jiffies(P4NIC_CMD_TIMEOUT_MS))) {
		char why[64];

		snprintf(why, sizeof(why),
			 "admin command %u timed out after %u ms", opcode,
			 P4NIC_CMD_TIMEOUT_MS);
		__p4nic_halt(nic, why);
		ret = -ETIMEDOUT;
		goto free;
	}
	spin_lock_irq(&nic->cpl_lock);
	cpl = nic->cpl;
	spin_unlock_irq(&nic->cpl_lock);

	status = le16_to_cpu(cpl.status);
	done = le32_to_cpu(cpl.result);
	ret = p4nic_status_errno(status);
	if (ret) {
		dev_dbg(dev, "command %u refused: status %u field %u at %u\n",
			opcode, status, le16_to_cpu(cpl.field), done);
	} else if (done > out_len) {
		dev_err(dev, "command %u: the device claims %u bytes written into %u\n",
			opcode, done, out_len);
		ret = -EIO;
	} else if (out_len) {
		memcpy(out, outbuf, out_len);
	}
	if (result)
		*result = done;
free:
	if (outbuf)
		dma_free_coherent(dev, out_len, outbuf, out_dma);
	if (inbuf)
		dma_free_coherent(dev, in_len, inbuf, in_dma);
unlock:
	mutex_unlock(&nic->aq_lock);
	return ret;
}

/* True if the 16-byte entry's phase says the device wrote it this pass. */
static bool p4nic_phase_ok(__le16 flags, bool phase)
{
	return !!(le16_to_cpu(READ_ONCE(flags)) & P4NIC_CPL_PHASE) == phase;
}

/**
 * p4nic_adminq_irq - completions: hand each to the command waiting for it
 * @irq: the admin vector
 * @data: the device
 *
 * Return: IRQ_HANDLED if there was a completion.
 */
irqreturn_t p4nic_adminq_irq(int irq, void *data)
{
	struct p4nic *nic = data;
	struct p4nic_cpl *c;
	unsigned long flags;
	bool any = false;
	u32 n;

	spin_lock_irqsave(&nic->cpl_lock, flags);
	for (n = 0; n < P4NIC_AQ_SIZE; n++) {
		c = &nic->acq[nic->acq_head];
		if (!p4nic_phase_ok(c->flags, nic->acq_phase))
			break;
		/* read the entry after its phase */
		dma_rmb();
		if (nic->cpl_wait && le32_to_cpu(c->cookie) == nic->cpl_wait) {
			nic->cpl = *c;
			nic->cpl_wait = 0;
			complete(&nic->cpl_done);
		} else {
			dev_warn_ratelimited(&nic->pdev->dev,
					     "completion for cookie %u, which no command waits for\n",
					     le32_to_cpu(c->cookie));
		}
		nic->acq_head = (nic->acq_head + 1) % P4NIC_AQ_SIZE;
		if (!nic->acq_head)
			nic->acq_phase = !nic->acq_phase;
		any = true;
	}
	if (any)
		p4nic_wr(nic, P4NIC_REG_ACQ_HEAD, nic->acq_head);
	spin_unlock_irqrestore(&nic->cpl_lock, flags);
	return any ? IRQ_HANDLED : IRQ_NONE;
}

/**
 * p4nic_event_irq - link changes and fatal errors
 * @irq: the event vector
 * @data: the device
 *
 * Return: IRQ_HANDLED if there was an event.
 */
irqreturn_t p4nic_event_irq(int irq, void *data)
{
	struct p4nic *nic = data;
	struct p4nic_event *ev;
	bool any = false;
	u16 port;
	u32 n;

	for (n = 0; n < P4NIC_EQ_SIZE; n++) {
		ev = &nic->eq[nic->eq_head];
		if (!p4nic_phase_ok(ev->flags, nic->eq_phase))
			break;
		dma_rmb();
		port = le16_to_cpu(ev->port);
		switch (le16_to_cpu(ev->type)) {
		case P4NIC_EV_LINK:
			/* the ports' business (p4nic_port.c), set at probe */
			nic->link_event(nic, port);
			break;
		case P4NIC_EV_FATAL:
			nic->dead = true;
			dev_err(&nic->pdev->dev,
				"device stopped: DMA failed on the queue at register 0x%x\n",
				le32_to_cpu(ev->data));
			break;
		default:
			dev_warn_ratelimited(&nic->pdev->dev,
					     "unknown event type %u\n",
					     le16_to_cpu(ev->type));
			break;
		}
		nic->eq_head = (nic->eq_head + 1) % P4NIC_EQ_SIZE;
		if (!nic->eq_head)
			nic->eq_phase = !nic->eq_phase;
		any = true;
	}
	if (any)
		p4nic_wr(nic, P4NIC_REG_EQ_HEAD, nic->eq_head);
	return any ? IRQ_HANDLED : IRQ_NONE;
}
