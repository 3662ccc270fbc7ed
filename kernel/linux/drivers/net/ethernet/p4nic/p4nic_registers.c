// SPDX-License-Identifier: GPL-2.0
/*
 * p4nic: the device's copies of the pipeline's registers.  They start from
 * the values the registers had at BIND (REG_WRITE right after the load,
 * and again after a reset reloads the image); from then on the packets the
 * device runs change them, and P4TC reads them for the control plane
 * (P4TC_OFFLOAD_REG_READ: REG_READ).  All of it runs under RTNL and
 * @off_lock.
 */

#include <linux/kernel.h>
#include <linux/slab.h>
#include <net/p4tc_offload.h>

#include "p4nic.h"

/**
 * struct p4nic_reg_init - a register's values at BIND, for the device
 * @id: the register
 * @count: its cells
 * @cells: their values, as REG_WRITE takes them
 */
struct p4nic_reg_init {
	u32 id;
	u32 count;
	struct p4nic_u128 cells[];
};

static int reg_write(struct p4nic *nic, const struct p4nic_reg_init *ri)
{
	u32 p[3] = { ri->id, 0, ri->count };

	return p4nic_cmd(nic, P4NIC_CMD_REG_WRITE, ri->cells,
			 ri->count * sizeof(ri->cells[0]), NULL, 0, p, 3,
			 NULL);
}

/**
 * p4nic_regs_load - give the device the registers' values at BIND
 * @nic: the device, the pipeline just loaded
 * @d: its description
 *
 * Registers whose cells are all zero need nothing: the device starts
 * them at zero.
 *
 * Return: 0 or a negative errno (the device cannot start as software is).
 */
int p4nic_regs_load(struct p4nic *nic, const struct p4tc_off_pipeline *d)
{
	u32 i, k, n = 0;
	int err;

	nic->reg_init = kcalloc(d->num_registers, sizeof(*nic->reg_init),
				GFP_KERNEL);
	if (d->num_registers && !nic->reg_init)
		return -ENOMEM;
	for (i = 0; i < d->num_registers; i++) {
		const struct p4tc_off_register *r = &d->registers[i];
		const struct p4tc_off_val *v = d->consts + r->init.first;
		struct p4nic_reg_init *ri;
		bool zero = true;

		for (k = 0; k < r->init.count; k++)
			zero &= !v[k].w[0] && !v[k].w[1];
		if (zero)
			continue;
		ri = kzalloc(struct_size(ri, cells, r->init.count), GFP_KERNEL);
		if (!ri)
			return -ENOMEM;
		ri->id = r->id;
		ri->count = r->init.count;
		for (k = 0; k < r->init.count; k++) {
			ri->cells[k].lo = cpu_to_le64(v[k].w[0]);
			ri->cells[k].hi = cpu_to_le64(v[k].w[1]);
		}
		nic->reg_init[n++] = ri;
		nic->num_reg_init = n;
		err = reg_write(nic, ri);
		if (err) {
			dev_err(&nic->pdev->dev, "register %u: REG_WRITE: %d\n",
				r->id, err);
			return err;
		}
	}
	return 0;
}

/**
 * p4nic_regs_restore - after a reset reloaded the image: the registers'
 *	values at BIND again
 * @nic: the device
 */
void p4nic_regs_restore(struct p4nic *nic)
{
	u32 i;

	for (i = 0; i < nic->num_reg_init; i++)
		if (reg_write(nic, nic->reg_init[i]))
			dev_warn(&nic->pdev->dev, "register %u: not restored\n",
				 nic->reg_init[i]->id);
}

/**
 * p4nic_regs_free - forget the registers (the pipeline goes)
 * @nic: the device
 */
void p4nic_regs_free(struct p4nic *nic)
{
	u32 i;

	for (i = 0; i < nic->num_reg_init; i++)
		kfree(nic->reg_init[i]);
	kfree(nic->reg_init);
	nic->reg_init = NULL;
	nic->num_reg_init = 0;
}

/**
 * p4nic_regs_read - P4TC_OFFLOAD_REG_READ: the device's copy of a register
 * @nic: the device, @off_lock held
 * @off: the request
 *
 * Return: 0 or a negative errno.
 */
int p4nic_regs_read(struct p4nic *nic, struct p4tc_offload *off)
{
	struct p4tc_off_reg_read *r = off->reg;
	struct p4tc_off_val *cells;
	struct p4nic_u128 *raw;
	u32 p[3], i;
	int err;

	if (!nic->pipeid || off->pipeid != nic->pipeid)
		return -EOPNOTSUPP;
	if (!r->num_elems)
		return -EINVAL;
	raw = kcalloc(r->num_elems, sizeof(*raw), GFP_KERNEL);
	cells = kcalloc(r->num_elems, sizeof(*cells), GFP_KERNEL);
	err = -ENOMEM;
	if (!raw || !cells)
		goto out;
	p[0] = r->reg_id;
	p[1] = 0;
	p[2] = r->num_elems;
	err = p4nic_cmd(nic, P4NIC_CMD_REG_READ, NULL, 0, raw,
			r->num_elems * sizeof(*raw), p, 3, NULL);
	if (err)
		goto out;
	for (i = 0; i < r->num_elems; i++) {
		cells[i].w[0] = le64_to_cpu(raw[i].lo);
		cells[i].w[1] = le64_to_cpu(raw[i].hi);
	}
	err = r->add(r, dev_name(&nic->pdev->dev), cells);
out:
	kfree(cells);
	kfree(raw);
	return err;
}
