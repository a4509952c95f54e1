/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-schema-form"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "tb-schema-form-private.h"

/* A field's value: read from its widgets (with the errors a person can
 * act on), and written to them. */

/* Reading values */

static void
add_local_error (GPtrArray  *errors,
                 Field      *field,
                 const char *message)
{
  g_autofree char *path = _tb_schema_form_field_path (field);

  g_ptr_array_add (errors, tb_schema_error_new (path, "", "form", message));
}

static char *
input_text (Field *field)
{
  if (GTK_IS_TEXT_VIEW (field->input))
    {
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (field->input));
      GtkTextIter start, end;

      gtk_text_buffer_get_bounds (buffer, &start, &end);
      return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
    }
  return g_strdup (gtk_editable_get_text (GTK_EDITABLE (field->input)));
}

static JsonNode *
parse_number (Field      *field,
              const char *text,
              GPtrArray  *errors)
{
  g_autofree char *trimmed = g_strstrip (g_strdup (text));
  JsonNode *node;
  gint64 i;
  char *end = NULL;
  double d;

  if (g_ascii_string_to_signed (trimmed, 10, G_MININT64, G_MAXINT64, &i, NULL))
    {
      node = json_node_new (JSON_NODE_VALUE);
      json_node_set_int (node, i);
      return node;
    }

  d = g_ascii_strtod (trimmed, &end);
  if (end != NULL && end != trimmed && *end == '\0' && isfinite (d))
    {
      node = json_node_new (JSON_NODE_VALUE);
      json_node_set_double (node, d);
      return node;
    }

  add_local_error (errors, field,
                   field->kind == KIND_INTEGER ? _("Enter a whole number")
                                               : _("Enter a number"));
  /* Kept as typed, so Run Anyway can send exactly that. */
  return tb_json_node_new_string (text);
}

JsonNode *
_tb_schema_form_field_value (Field     *field,
                                             GPtrArray *errors)
{
  if (field->null_toggle != NULL &&
      gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (field->null_toggle)))
    return json_node_new (JSON_NODE_NULL);

  if (field->foreign != NULL)
    return json_node_copy (field->foreign);

  switch (field->kind)
    {
    case KIND_STRING:
    case KIND_TEXT:
      {
        g_autofree char *text = input_text (field);

        return *text != '\0' ? tb_json_node_new_string (text) : NULL;
      }

    case KIND_INTEGER:
    case KIND_NUMBER:
      {
        g_autofree char *text = input_text (field);

        return *text != '\0' ? parse_number (field, text, errors) : NULL;
      }

    case KIND_JSON:
      {
        g_autofree char *text = input_text (field);
        g_autoptr(GError) error = NULL;
        JsonNode *node;

        if (*text == '\0')
          return NULL;
        node = tb_json_parse (text, -1, &error);
        if (node == NULL)
          add_local_error (errors, field, error->message);
        return node;
      }

    case KIND_ENUM:
      {
        JsonArray *values = _tb_schema_form_schema_array (field->schema, "enum");
        guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (field->input));

        if (selected == GTK_INVALID_LIST_POSITION)
          return NULL;
        if (!field->required)
          {
            if (selected == 0)
              return NULL;
            selected--;
          }
        if (selected >= json_array_get_length (values))
          return NULL;
        return json_node_copy (json_array_get_element (values, selected));
      }

    case KIND_BOOLEAN:
      if (!field->present && !field->required)
        return NULL;
      {
        JsonNode *node = json_node_new (JSON_NODE_VALUE);

        json_node_set_boolean (node, gtk_switch_get_active (GTK_SWITCH (field->input)));
        return node;
      }

    case KIND_NULL:
      return field->required ? json_node_new (JSON_NODE_NULL) : NULL;

    case KIND_CONST:
      return field->required ? json_node_copy (_tb_schema_form_schema_member (field->schema, "const")) : NULL;

    case KIND_OBJECT:
      {
        JsonObject *object = json_object_new ();
        JsonNode *node;

        for (guint i = 0; i < field->children->len; i++)
          {
            Field *child = g_ptr_array_index (field->children, i);
            JsonNode *value = _tb_schema_form_field_value (child, errors);

            if (value != NULL)
              json_object_set_member (object, child->name, value);
          }
        if (field->extra != NULL)
          {
            JsonObjectIter iter;
            const char *key;
            JsonNode *value;

            json_object_iter_init (&iter, field->extra);
            while (json_object_iter_next (&iter, &key, &value))
              if (!json_object_has_member (object, key))
                json_object_set_member (object, key, json_node_copy (value));
          }
        if (json_object_get_size (object) == 0 && !field->required && field->parent != NULL)
          {
            json_object_unref (object);
            return NULL;
          }
        node = json_node_new (JSON_NODE_OBJECT);
        json_node_take_object (node, object);
        return node;
      }

    case KIND_ARRAY:
      {
        JsonArray *array = json_array_new ();
        JsonNode *node;

        for (guint i = 0; i < field->children->len; i++)
          {
            JsonNode *value = _tb_schema_form_field_value (g_ptr_array_index (field->children, i),
                                                                           errors);

            json_array_add_element (array, value != NULL ? value
                                                         : json_node_new (JSON_NODE_NULL));
          }
        if (json_array_get_length (array) == 0 && !field->required)
          {
            json_array_unref (array);
            return NULL;
          }
        node = json_node_new (JSON_NODE_ARRAY);
        json_node_take_array (node, array);
        return node;
      }

    case KIND_VARIANT:
      if (field->children->len == 0)
        return NULL;
      {
        Field *child = g_ptr_array_index (field->children, 0);
        JsonNode *value = _tb_schema_form_field_value (child, errors);

        if (value == NULL && field->required)
          value = json_node_new (JSON_NODE_NULL);
        return value;
      }

    default:
      g_assert_not_reached ();
    }
  return NULL;
}

/* Writing values */

static const char *
node_kind (JsonNode *node)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    return "object";
  if (JSON_NODE_HOLDS_ARRAY (node))
    return "array";
  if (JSON_NODE_HOLDS_NULL (node))
    return "null";
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_STRING:
      return "string";
    case G_TYPE_BOOLEAN:
      return "boolean";
    case G_TYPE_INT64:
      return "integer";
    default:
      return "number";
    }
}

static guint
variant_score (TbSchemaForm *self,
               JsonNode     *schema,
               JsonNode     *value)
{
  const char *kind = node_kind (value);
  const char *type = _tb_schema_form_schema_string (schema, "type");
  JsonNode *constant = _tb_schema_form_schema_member (schema, "const");
  guint score = 0;

  if (constant != NULL)
    return tb_json_equal (constant, value) ? 100 : 0;

  if (type == NULL)
    {
      if (_tb_schema_form_schema_member (schema, "properties") != NULL)
        type = "object";
      else if (_tb_schema_form_schema_member (schema, "items") != NULL)
        type = "array";
    }
  if (type == NULL)
    return 1;
  if (!g_str_equal (type, kind) &&
      !(g_str_equal (type, "number") && g_str_equal (kind, "integer")))
    return 0;
  score = 10;

  /* Objects: prefer the variant naming most of the members, and any whose
   * const-valued member (a discriminator) matches. */
  if (JSON_NODE_HOLDS_OBJECT (value))
    {
      JsonNode *props = _tb_schema_form_schema_member (schema, "properties");
      JsonObjectIter iter;
      const char *key;
      JsonNode *member;

      if (props == NULL || !JSON_NODE_HOLDS_OBJECT (props))
        return score;
      json_object_iter_init (&iter, json_node_get_object (value));
      while (json_object_iter_next (&iter, &key, &member))
        {
          JsonNode *prop = json_object_get_member (json_node_get_object (props), key);
          JsonNode *prop_const;

          if (prop == NULL)
            continue;
          score += 2;
          prop = _tb_schema_form_resolve_ref (self, prop);
          prop_const = _tb_schema_form_schema_member (prop, "const");
          if (prop_const != NULL)
            score += tb_json_equal (prop_const, member) ? 50 : 0;
        }
    }
  return score;
}

static void
set_error_visible (Field *field)
{
  gboolean visible = field->error->len > 0;

  if (field->error_label != NULL)
    {
      gtk_label_set_label (GTK_LABEL (field->error_label), field->error->str);
      gtk_widget_set_visible (field->error_label, visible);
    }
  if (field->error_row != NULL)
    gtk_widget_set_visible (field->error_row, visible);
  if (field->row != NULL)
    {
      if (visible)
        gtk_widget_add_css_class (field->row, "tb-field-invalid");
      else
        gtk_widget_remove_css_class (field->row, "tb-field-invalid");
    }
  if (field->input != NULL)
    gtk_accessible_update_state (GTK_ACCESSIBLE (field->input),
                                 GTK_ACCESSIBLE_STATE_INVALID,
                                 visible ? GTK_ACCESSIBLE_INVALID_TRUE
                                         : GTK_ACCESSIBLE_INVALID_FALSE,
                                 -1);
}

static void
set_text (Field      *field,
          const char *text)
{
  if (GTK_IS_TEXT_VIEW (field->input))
    gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (field->input)), text, -1);
  else
    gtk_editable_set_text (GTK_EDITABLE (field->input), text);
}

void
_tb_schema_form_field_set_value (Field    *field,
                                 JsonNode *value)
{
  if (value == NULL)
    value = _tb_schema_form_schema_member (field->schema, "default");

  g_clear_pointer (&field->foreign, json_node_unref);
  if (field->null_toggle != NULL)
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (field->null_toggle),
                                  value != NULL && JSON_NODE_HOLDS_NULL (value) &&
                                  field->kind != KIND_NULL && field->kind != KIND_JSON);
  if (value != NULL && JSON_NODE_HOLDS_NULL (value) && field->nullable &&
      field->kind != KIND_NULL && field->kind != KIND_JSON)
    return;

  switch (field->kind)
    {
    case KIND_STRING:
    case KIND_TEXT:
      if (value == NULL)
        set_text (field, "");
      else if (JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING)
        set_text (field, json_node_get_string (value));
      else
        {
          g_autofree char *text = tb_schema_form_json_text (value, FALSE);

          set_text (field, text);
          field->foreign = json_node_copy (value);
        }
      break;

    case KIND_INTEGER:
    case KIND_NUMBER:
      if (value == NULL)
        set_text (field, "");
      else
        {
          const char *kind = node_kind (value);
          g_autofree char *text = g_str_equal (kind, "string")
                                  ? g_strdup (json_node_get_string (value))
                                  : tb_schema_form_json_text (value, FALSE);

          set_text (field, text);
          if (!g_str_equal (kind, "integer") && !g_str_equal (kind, "number"))
            field->foreign = json_node_copy (value);
        }
      break;

    case KIND_JSON:
      {
        g_autofree char *text = value != NULL ? tb_schema_form_json_text (value, FALSE)
                                              : g_strdup ("");

        set_text (field, text);
      }
      break;

    case KIND_ENUM:
      {
        JsonArray *values = _tb_schema_form_schema_array (field->schema, "enum");
        guint offset = field->required ? 0 : 1;
        guint found = GTK_INVALID_LIST_POSITION;

        if (value != NULL)
          for (guint i = 0; i < json_array_get_length (values); i++)
            if (tb_json_equal (json_array_get_element (values, i), value))
              {
                found = i;
                break;
              }
        if (found != GTK_INVALID_LIST_POSITION)
          gtk_drop_down_set_selected (GTK_DROP_DOWN (field->input), found + offset);
        else
          {
            gtk_drop_down_set_selected (GTK_DROP_DOWN (field->input), 0);
            if (value != NULL)
              field->foreign = json_node_copy (value);
          }
      }
      break;

    case KIND_BOOLEAN:
      if (value != NULL && JSON_NODE_HOLDS_VALUE (value) &&
          json_node_get_value_type (value) == G_TYPE_BOOLEAN)
        gtk_switch_set_active (GTK_SWITCH (field->input), json_node_get_boolean (value));
      else
        {
          gtk_switch_set_active (GTK_SWITCH (field->input), FALSE);
          if (value != NULL)
            field->foreign = json_node_copy (value);
        }
      /* Like every prefilled default, a boolean's default is sent. */
      field->present = value != NULL;
      _tb_schema_form_update_clear_button (field);
      break;

    case KIND_NULL:
    case KIND_CONST:
      break;

    case KIND_OBJECT:
      g_clear_pointer (&field->extra, json_object_unref);
      if (value != NULL && !JSON_NODE_HOLDS_OBJECT (value))
        {
          for (guint i = 0; i < field->children->len; i++)
            _tb_schema_form_field_set_value (g_ptr_array_index (field->children, i), NULL);
          field->foreign = json_node_copy (value);
          break;
        }
      for (guint i = 0; i < field->children->len; i++)
        {
          Field *child = g_ptr_array_index (field->children, i);
          JsonNode *member = NULL;

          if (value != NULL)
            member = json_object_get_member (json_node_get_object (value), child->name);
          _tb_schema_form_field_set_value (child, member);
        }
      if (value != NULL)
        {
          JsonObjectIter iter;
          const char *key;
          JsonNode *member;

          json_object_iter_init (&iter, json_node_get_object (value));
          while (json_object_iter_next (&iter, &key, &member))
            if (_tb_schema_form_field_child_named (field, key) == NULL)
              {
                if (field->extra == NULL)
                  field->extra = json_object_new ();
                json_object_set_member (field->extra, key, json_node_copy (member));
              }
        }
      break;

    case KIND_ARRAY:
      {
        JsonArray *array = value != NULL && JSON_NODE_HOLDS_ARRAY (value)
                           ? json_node_get_array (value) : NULL;
        guint n = array != NULL ? json_array_get_length (array) : 0;
        TbSchemaForm *self = field->form;

        if (value != NULL && array == NULL)
          field->foreign = json_node_copy (value);

        /* Items past the form's size are kept as they are, not shown. */
        if (self->n_fields + n > TB_SCHEMA_FORM_MAX_FIELDS + field->children->len)
          {
            g_ptr_array_set_size (field->children, 0);
            field->foreign = json_node_copy (value);
            break;
          }

        if (field->children->len > n)
          g_ptr_array_set_size (field->children, n);
        while (field->children->len < n)
          {
            Field *item = _tb_schema_form_field_new (self, field, NULL, field->item_schema, TRUE,
                                                     field->depth + 1);

            g_ptr_array_add (field->children, item);
            _tb_schema_form_container_add_row (field, item->row);
          }
        for (guint i = 0; i < n; i++)
          _tb_schema_form_field_set_value (g_ptr_array_index (field->children, i),
                                           json_array_get_element (array, i));
      }
      break;

    case KIND_VARIANT:
      {
        guint best = 0;
        guint best_score = 0;

        if (value != NULL)
          for (guint i = 0; i < field->variants->len; i++)
            {
              guint score = variant_score (field->form, g_ptr_array_index (field->variants, i),
                                           value);

              if (score > best_score)
                best = i, best_score = score;
            }

        if (gtk_drop_down_get_selected (GTK_DROP_DOWN (field->variant_dropdown)) != best)
          gtk_drop_down_set_selected (GTK_DROP_DOWN (field->variant_dropdown), best);
        if (field->children->len > 0)
          _tb_schema_form_field_set_value (g_ptr_array_index (field->children, 0), value);
      }
      break;

    default:
      g_assert_not_reached ();
    }
}

void
_tb_schema_form_field_clear_errors (Field *field)
{
  g_string_truncate (field->error, 0);
  set_error_visible (field);
  for (guint i = 0; field->children != NULL && i < field->children->len; i++)
    _tb_schema_form_field_clear_errors (g_ptr_array_index (field->children, i));
}

void
_tb_schema_form_field_add_error (Field      *field,
                                 const char *message)
{
  if (field->error->len > 0)
    g_string_append_c (field->error, '\n');
  g_string_append (field->error, message);
  set_error_visible (field);
}

