/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <glib-object.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define TB_TYPE_SCHEMA_REGISTRY (tb_schema_registry_get_type ())

G_DECLARE_FINAL_TYPE (TbSchemaRegistry, tb_schema_registry, TB, SCHEMA_REGISTRY, GObject)

TbSchemaRegistry *tb_schema_registry_new    (void);
gboolean          tb_schema_registry_add    (TbSchemaRegistry  *self,
                                             const char        *uri,
                                             JsonNode          *schema,
                                             GError           **error);
JsonNode         *tb_schema_registry_lookup (TbSchemaRegistry  *self,
                                             const char        *uri);

G_END_DECLS
