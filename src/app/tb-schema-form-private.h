/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <adwaita.h>
#include <toolbench.h>

#include "tb-schema-form.h"

G_BEGIN_DECLS

/* What the form's files share: the field tree, what the schema says of a
 * field (tb-schema-form-schema.c), and a field's value
 * (tb-schema-form-value.c). The widgets are built in tb-schema-form.c. */

typedef enum
{
  KIND_STRING,
  KIND_TEXT,
  KIND_ENUM,
  KIND_INTEGER,
  KIND_NUMBER,
  KIND_BOOLEAN,
  KIND_NULL,
  KIND_CONST,
  KIND_OBJECT,
  KIND_ARRAY,
  KIND_VARIANT,
  KIND_JSON,
} FieldKind;

typedef struct _Field Field;

struct _Field
{
  TbSchemaForm *form;
  Field        *parent;
  FieldKind     kind;
  JsonNode     *schema;        /* resolved */
  JsonNode     *origin;        /* as written, before $ref */
  char         *name;          /* property name; NULL for items and the root */
  guint         depth;
  guint         required : 1;
  guint         nullable : 1;
  guint         present : 1;   /* booleans: the person set a value */
  guint         revealed : 1;  /* left or changed by the person: its errors show */

  GtkWidget    *row;           /* owned reference */
  GtkWidget    *input;
  GtkWidget    *error_label;
  GtkWidget    *error_row;
  GtkWidget    *null_toggle;
  GtkWidget    *clear_button;  /* optional booleans: stop sending a value */
  GtkWidget    *add_button;
  GtkWidget    *variant_dropdown;
  GtkWidget    *list;          /* GtkListBox holding the children of the root */

  GPtrArray    *children;      /* Field * */
  GPtrArray    *variants;      /* JsonNode *, resolved */
  JsonNode     *item_schema;
  JsonObject   *extra;         /* members of an object the schema does not name */
  JsonNode     *foreign;       /* a value the widget cannot show */
  GString      *error;
};

struct _TbSchemaForm
{
  GtkWidget   parent_instance;

  JsonNode   *root_schema;
  Field      *root;
  GtkWidget  *note_label;
  GtkWidget  *empty_label;
  GtkListBox *list;
  GPtrArray  *local_errors;
  guint       n_fields;
  guint       updating;
  gboolean    too_large;
};

const char *
_tb_schema_form_schema_string (JsonNode   *schema,
                               const char *member);

JsonNode *
_tb_schema_form_schema_member (JsonNode   *schema,
                               const char *member);

JsonArray *
_tb_schema_form_schema_array (JsonNode   *schema,
                              const char *member);

gboolean
_tb_schema_form_schema_number (JsonNode   *schema,
                               const char *member,
                               double     *value);

char *
_tb_schema_form_form_pointer_unescape (const char *segment);

JsonNode *
_tb_schema_form_resolve_ref (TbSchemaForm *self,
                             JsonNode     *schema);

JsonNode *
_tb_schema_form_merge_all_of (TbSchemaForm *self,
                              JsonNode     *schema);

FieldKind
_tb_schema_form_classify (Field *field);

JsonNode *
_tb_schema_form_field_value (Field     *field,
                                             GPtrArray *errors);

void
_tb_schema_form_field_set_value (Field    *field,
                                 JsonNode *value);

void
_tb_schema_form_field_clear_errors (Field *field);

void
_tb_schema_form_field_add_error (Field      *field,
                                 const char *message);

char *
_tb_schema_form_field_path (Field *field);

Field *
_tb_schema_form_field_child_named (Field      *field,
                                   const char *segment);

void
_tb_schema_form_container_add_row (Field     *container,
                                   GtkWidget *row);

void
_tb_schema_form_update_clear_button (Field *field);

Field *
_tb_schema_form_field_new (TbSchemaForm *self,
                           Field        *parent,
                           const char   *name,
                           JsonNode     *schema,
                           gboolean      required,
                           guint         depth);

GtkWidget  *tb_schema_form_get_add_button   (TbSchemaForm  *self,
                                             const char    *pointer);
const char *tb_schema_form_get_field_error  (TbSchemaForm  *self,
                                             const char    *pointer);
guint       tb_schema_form_get_n_fields     (TbSchemaForm  *self);

G_END_DECLS
