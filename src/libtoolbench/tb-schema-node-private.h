/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* The compiled form of a TbSchema: a graph of Nodes, one per schema
 * object, that tb-schema-compile.c builds and tb-schema-validate.c walks. */

#include "tb-schema-private.h"

G_BEGIN_DECLS

#define DEFAULT_BASE "tb://schema/root.json"

enum
{
  T_NULL = 1 << 0,
  T_BOOLEAN = 1 << 1,
  T_OBJECT = 1 << 2,
  T_ARRAY = 1 << 3,
  T_NUMBER = 1 << 4,
  T_STRING = 1 << 5,
  T_INTEGER = 1 << 6,
};

/* Vocabularies of draft 2020-12; draft-07 has all of them but unevaluated. */
enum
{
  V_APPLICATOR = 1 << 0,
  V_UNEVALUATED = 1 << 1,
  V_VALIDATION = 1 << 2,
  V_FORMAT_ASSERTION = 1 << 3,
  V_DEFAULT = V_APPLICATOR | V_UNEVALUATED | V_VALIDATION,
};

typedef struct _Node Node;

typedef struct
{
  char       *uri;              /* absolute, no fragment */
  GHashTable *dynamic_anchors;  /* name → Node*, or NULL */
} Resource;

typedef struct
{
  char *name;
  Node *schema;
} Named;

typedef struct
{
  char  *name;
  char **names;
} DepRequired;

typedef struct
{
  TbSchemaRegex *regex;
  Node          *schema;
} Patterned;

typedef struct
{
  gboolean present;
  gboolean is_int;
  gint64   ivalue;
  double   value;
  char    *text;
} Bound;

struct _Node
{
  JsonNode      *json;
  char          *location;
  Resource      *resource;
  TbSchemaDraft  draft;

  guint          is_bool : 1;
  guint          bool_value : 1;
  guint          ref_only : 1;
  guint          has_const : 1;
  guint          unique_items : 1;
  guint          assert_format : 1;
  guint          has_numeric : 1;
  guint          has_string : 1;
  guint          has_array : 1;
  guint          has_object : 1;
  guint          mark : 2;
  guint          type_only : 1;  /* "type" and nothing else that applies */
  guint8         types;
  /* The text validator handles it and all below it. Set once, on first use,
   * while other threads may read the bits above: a byte of its own. */
  guint8         streamable;

  Node          *ref;
  Node          *dynamic_ref;
  char          *dynamic_name;

  JsonNode      *const_value;
  char          *const_text;
  GPtrArray     *enum_values;
  char          *enum_text;

  Bound          minimum;
  Bound          maximum;
  Bound          exclusive_minimum;
  Bound          exclusive_maximum;
  Bound          multiple_of;

  gint64         min_length;
  gint64         max_length;
  TbSchemaRegex *pattern;
  char          *pattern_source;
  char          *format;

  gint64         min_items;
  gint64         max_items;
  Node         **prefix_items;
  guint          n_prefix_items;
  Node          *items;
  Node          *contains;
  gint64         min_contains;
  gint64         max_contains;
  Node          *unevaluated_items;

  gint64         min_properties;
  gint64         max_properties;
  char         **required;
  gint8         *required_prop;  /* index of each required name in properties, or -1 */
  gint8         *required_index; /* the same for the text validator, up to 64 properties */
  guint32       *property_keys;  /* for the text validator: length << 8 | first byte */
  Named         *properties;
  guint          n_properties;
  GHashTable    *property_index;
  Patterned     *pattern_properties;
  guint          n_pattern_properties;
  Node          *additional_properties;
  Node          *property_names;
  DepRequired   *dependent_required;
  guint          n_dependent_required;
  Named         *dependent_schemas;
  guint          n_dependent_schemas;
  Node          *unevaluated_properties;

  Node         **all_of;
  guint          n_all_of;
  Node         **any_of;
  guint          n_any_of;
  Node         **one_of;
  guint          n_one_of;
  Node          *not_schema;
  Node          *if_schema;
  Node          *then_schema;
  Node          *else_schema;
};

struct _TbSchema
{
  GObject        parent_instance;

  JsonNode      *json;
  TbSchemaDraft  draft;
  Node          *root;
  GPtrArray     *nodes;      /* Node*, owned */
  GPtrArray     *resources;  /* Resource*, owned */
  GPtrArray     *documents;  /* JsonNode*, kept alive for the nodes' json */
  gsize          stream_ready; /* the nodes' streamable flags are set */
};

void      _tb_schema_node_free      (Node              *node);
void      _tb_schema_prepare_stream (TbSchema          *self);
void      _tb_schema_resource_free  (Resource          *resource);
gboolean  _tb_schema_compile        (TbSchema          *self,
                                     TbSchemaDraft      draft_or_auto,
                                     TbSchemaFlags      flags,
                                     TbSchemaRegistry  *registry,
                                     GError           **error);

G_END_DECLS
