/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <gtk/gtk.h>
#include <json-glib/json-glib.h>
#include <toolbench.h>

G_BEGIN_DECLS

/**
 * TB_SCHEMA_FORM_MAX_DEPTH:
 *
 * How deep objects, arrays and variants nest in the form; deeper parts (and
 * recursive `$ref`) are edited as JSON inside the form.
 */
#define TB_SCHEMA_FORM_MAX_DEPTH 8

/**
 * TB_SCHEMA_FORM_MAX_FIELDS:
 *
 * A schema needing more fields than this is edited in the JSON view only:
 * thousands of rows make a form nobody can use, and building them stalls.
 */
#define TB_SCHEMA_FORM_MAX_FIELDS 600

#define TB_SCHEMA_FORM_ERROR (tb_schema_form_error_quark ())

/**
 * TbSchemaFormError:
 * @TB_SCHEMA_FORM_ERROR_TOO_LARGE: the schema needs more fields than the form shows.
 */
typedef enum
{
  TB_SCHEMA_FORM_ERROR_TOO_LARGE,
} TbSchemaFormError;

#define TB_TYPE_SCHEMA_FORM (tb_schema_form_get_type())

G_DECLARE_FINAL_TYPE (TbSchemaForm, tb_schema_form, TB, SCHEMA_FORM, GtkWidget)

GQuark      tb_schema_form_error_quark      (void);
GtkWidget  *tb_schema_form_new              (void);
gboolean    tb_schema_form_set_schema       (TbSchemaForm  *self,
                                             JsonNode      *schema,
                                             GError       **error);
JsonNode   *tb_schema_form_get_value        (TbSchemaForm  *self,
                                             GPtrArray    **local_errors);
void        tb_schema_form_set_value        (TbSchemaForm  *self,
                                             JsonNode      *value);
void        tb_schema_form_set_errors       (TbSchemaForm  *self,
                                             GPtrArray     *errors);
GtkWidget  *tb_schema_form_get_input        (TbSchemaForm  *self,
                                             const char    *pointer);
gboolean    tb_schema_form_get_revealed     (TbSchemaForm  *self,
                                             const char    *pointer);
char       *tb_schema_form_get_error_pointer (TbSchemaForm        *self,
                                              const TbSchemaError *error);
char       *tb_schema_form_json_text        (JsonNode      *node,
                                             gboolean       pretty);

G_END_DECLS
