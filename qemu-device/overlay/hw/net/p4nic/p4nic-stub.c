/*
 * x-query-p4nic in a QEMU built without the P4 NIC.
 *
 * Copyright (c) 2026 The P4TC offload authors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/qapi-commands-machine.h"

HumanReadableText *qmp_x_query_p4nic(Error **errp)
{
    error_setg(errp, "this QEMU was built without the p4nic device");
    return NULL;
}
