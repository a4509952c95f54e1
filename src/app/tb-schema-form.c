/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-schema-form"

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>
#include <toolbench.h>

#include "tb-app-util.h"
#include "tb-schema-field-row.h"
#include "tb-schema-form-private.h"

/* A form generated from a JSON Schema. Every field is a small tree node
 * (Field) that owns its row; the form reads and writes JSON through the
 * tree, so the JSON editor and the form can mirror each other. Values the
 * widgets cannot show (a number where a string is expected, an enum value
 * outside the list, unknown object members) are kept aside and given back
 * unchanged, so switching views never loses what the person typed. */

G_DEFINE_FINAL_TYPE (TbSchemaForm, tb_schema_form, GTK_TYPE_WIDGET)
G_DEFINE_QUARK (tb-schema-form-error-quark, tb_schema_form_error)

enum { CHANGED, REVEALED, N_SIGNALS };
static guint signals [N_SIGNALS];

static void   field_free      (Field        *field);

/**
 * tb_schema_form_json_text:
 * @node: (nullable): a value
 * @pretty: whether to indent
 *
 * JSON text for a person to read and edit: as tb_json_to_string(), with
 * each fractional number written as the shortest text that reads back as
 * the same value (3.14, where json-glib writes 3.1400000000000001).
 *
 * Returns: (transfer full): the text
 */
char *
tb_schema_form_json_text (JsonNode *node,
                          gboolean  pretty)
{
  g_autofree char *text = tb_json_to_string (node, pretty);
  GString *out;
  gboolean in_string = FALSE;
  const char *p;

  if (strpbrk (text, ".eE") == NULL)
    return g_steal_pointer (&text);

  out = g_string_sized_new (strlen (text));
  for (p = text; *p != '\0'; )
    {
      if (in_string)
        {
          if (*p == '\\' && p[1] != '\0')
            g_string_append_len (out, p++, 1);
          else if (*p == '"')
            in_string = FALSE;
          g_string_append_len (out, p++, 1);
        }
      else if (*p == '"')
        {
          in_string = TRUE;
          g_string_append_len (out, p++, 1);
        }
      else if (*p == '-' || g_ascii_isdigit (*p))
        {
          gsize length = strspn (p, "0123456789+-.eE");
          g_autofree char *token = g_strndup (p, length);

          if (strpbrk (token, ".eE") != NULL)
            {
              g_autofree char *shortest = tb_json_format_double (g_ascii_strtod (token, NULL));

              g_string_append (out, shortest);
            }
          else
            g_string_append (out, token);
          p += length;
        }
      else
        g_string_append_len (out, p++, 1);
    }
  return g_string_free (out, FALSE);
}

char *
_tb_schema_form_field_path (Field *field)
{
  g_autoptr(GPtrArray) segments = g_ptr_array_new_with_free_func (g_free);
  GString *path = g_string_new (NULL);

  for (Field *f = field; f != NULL && f->parent != NULL; f = f->parent)
    {
      if (f->parent->kind == KIND_VARIANT)
        continue;
      if (f->parent->kind == KIND_ARRAY)
        {
          guint index = 0;

          g_ptr_array_find (f->parent->children, f, &index);
          g_ptr_array_add (segments, g_strdup_printf ("%u", index));
        }
      else
        g_ptr_array_add (segments, tb_json_pointer_escape (f->name));
    }

  for (guint i = segments->len; i > 0; i--)
    {
      g_string_append_c (path, '/');
      g_string_append (path, g_ptr_array_index (segments, i - 1));
    }
  return g_string_free (path, FALSE);
}

Field *
_tb_schema_form_field_child_named (Field      *field,
                                   const char *segment)
{
  if (field->kind == KIND_VARIANT)
    {
      if (field->children->len == 0)
        return NULL;
      return _tb_schema_form_field_child_named (g_ptr_array_index (field->children, 0), segment);
    }
  if (field->kind == KIND_OBJECT)
    {
      for (guint i = 0; i < field->children->len; i++)
        {
          Field *child = g_ptr_array_index (field->children, i);

          if (g_strcmp0 (child->name, segment) == 0)
            return child;
        }
    }
  if (field->kind == KIND_ARRAY)
    {
      guint64 index;

      if (g_ascii_string_to_unsigned (segment, 10, 0, G_MAXUINT, &index, NULL) &&
          index < field->children->len)
        return g_ptr_array_index (field->children, index);
    }
  return NULL;
}

/* The deepest field on @pointer; @exact tells whether it is the whole path. */
static Field *
field_lookup (TbSchemaForm *self,
              const char   *pointer,
              gboolean     *exact)
{
  g_auto(GStrv) parts = NULL;
  Field *field = self->root;

  *exact = TRUE;
  if (field == NULL || pointer == NULL || *pointer == '\0')
    return field;
  if (*pointer != '/')
    {
      *exact = FALSE;
      return field;
    }

  parts = g_strsplit (pointer + 1, "/", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_autofree char *segment = _tb_schema_form_form_pointer_unescape (parts[i]);
      Field *child = _tb_schema_form_field_child_named (field, segment);

      if (child == NULL)
        {
          *exact = FALSE;
          break;
        }
      field = child;
    }
  return field;
}

/* The field at @pointer itself, or %NULL. */
static Field *
field_at (TbSchemaForm *self,
          const char   *pointer)
{
  gboolean exact;
  Field *field = field_lookup (self, pointer, &exact);

  return exact ? field : NULL;
}

static void
emit_changed (TbSchemaForm *self)
{
  if (self->updating == 0)
    g_signal_emit (self, signals [CHANGED], 0);
}

/* A field's problems show once the person has left it or changed it with
 * a click, not while they have yet to reach it; containers follow. */
static void
field_reveal (Field *field)
{
  gboolean changed = FALSE;

  if (field->form->updating > 0)
    return;
  for (Field *f = field; f != NULL; f = f->parent)
    if (!f->revealed)
      f->revealed = changed = TRUE;
  if (changed)
    g_signal_emit (field->form, signals [REVEALED], 0);
}

static void
field_conceal (Field *field)
{
  field->revealed = FALSE;
  for (guint i = 0; field->children != NULL && i < field->children->len; i++)
    field_conceal (g_ptr_array_index (field->children, i));
}

static void
on_focus_leave (GtkEventControllerFocus *controller,
                Field                   *field)
{
  GtkWidget *widget = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller));

  /* A window going away takes the focus too; nobody left the field. */
  if (gtk_widget_get_mapped (widget))
    field_reveal (field);
}

static void
field_touched (Field *field)
{
  g_clear_pointer (&field->foreign, json_node_unref);
  emit_changed (field->form);
  /* Typing is not done until the person leaves; a click is. */
  if (field->input == NULL || !(GTK_IS_EDITABLE (field->input) ||
                                GTK_IS_TEXT_VIEW (field->input)))
    field_reveal (field);
}

/* Widgets */

void
_tb_schema_form_container_add_row (Field     *container,
                                   GtkWidget *row)
{
  if (container->list != NULL)
    gtk_list_box_append (GTK_LIST_BOX (container->list), row);
  else
    adw_expander_row_add_row (ADW_EXPANDER_ROW (container->row), row);
}

static void
container_remove_row (Field     *container,
                      GtkWidget *row)
{
  if (gtk_widget_get_parent (row) == NULL)
    return;
  if (container->list != NULL)
    gtk_list_box_remove (GTK_LIST_BOX (container->list), row);
  else
    adw_expander_row_remove (ADW_EXPANDER_ROW (container->row), row);
}

static char *
field_title (Field *field)
{
  const char *title = _tb_schema_form_schema_string (field->origin, "title");

  if (title == NULL)
    title = _tb_schema_form_schema_string (field->schema, "title");
  if (field->parent != NULL && field->parent->kind == KIND_ARRAY)
    {
      guint index = field->parent->children->len;

      g_ptr_array_find (field->parent->children, field, &index);
      /* Translators: the title of an array item in the form; %u counts from 1 */
      return g_strdup_printf (_("Item %u"), index + 1);
    }
  if (title != NULL)
    return g_strdup (title);
  if (field->name != NULL)
    return g_strdup (field->name);
  return g_strdup (_("Value"));
}

static const char *
field_description (Field *field)
{
  const char *description = _tb_schema_form_schema_string (field->origin, "description");

  return description != NULL ? description : _tb_schema_form_schema_string (field->schema, "description");
}

static char *
field_hint (Field *field)
{
  g_autoptr(GString) hint = g_string_new (NULL);
  double min, max;
  const char *format = _tb_schema_form_schema_string (field->schema, "format");

  switch (field->kind)
    {
    case KIND_INTEGER:
      g_string_append (hint, _("integer"));
      break;
    case KIND_NUMBER:
      g_string_append (hint, _("number"));
      break;
    case KIND_STRING:
    case KIND_TEXT:
      if (format == NULL)
        return NULL;
      g_string_append (hint, format);
      break;
    case KIND_JSON:
      g_string_append (hint, _("JSON"));
      break;
    case KIND_ENUM:
    case KIND_BOOLEAN:
    case KIND_NULL:
    case KIND_CONST:
    case KIND_OBJECT:
    case KIND_ARRAY:
    case KIND_VARIANT:
    default:
      return NULL;
    }

  if (field->kind == KIND_INTEGER || field->kind == KIND_NUMBER)
    {
      gboolean has_min = _tb_schema_form_schema_number (field->schema, "minimum", &min);
      gboolean has_max = _tb_schema_form_schema_number (field->schema, "maximum", &max);

      if (has_min && has_max)
        {
          g_autofree char *low = tb_json_format_double (min);
          g_autofree char *high = tb_json_format_double (max);

          g_string_append_printf (hint, ", %s – %s", low, high);
        }
      else if (has_min || has_max)
        {
          g_autofree char *bound = tb_json_format_double (has_min ? min : max);

          g_string_append_printf (hint, has_min ? ", ≥ %s" : ", ≤ %s", bound);
        }
    }
  return g_string_free (g_steal_pointer (&hint), FALSE);
}

static void
on_remove_item (GtkButton *button,
                Field     *item)
{
  Field *array = item->parent;
  TbSchemaForm *self = item->form;

  g_ptr_array_remove (array->children, item);
  for (guint i = 0; i < array->children->len; i++)
    {
      Field *other = g_ptr_array_index (array->children, i);
      g_autofree char *title = field_title (other);

      if (ADW_IS_EXPANDER_ROW (other->row))
        adw_preferences_row_set_title (ADW_PREFERENCES_ROW (other->row), title);
      else if (TB_IS_SCHEMA_FIELD_ROW (other->row))
        tb_schema_field_row_set_title (TB_SCHEMA_FIELD_ROW (other->row), title);
    }
  emit_changed (self);
}

static void
move_item (Field *item,
           int    delta)
{
  Field *array = item->parent;
  guint index = 0;
  guint target;

  if (!g_ptr_array_find (array->children, item, &index))
    return;
  if ((delta < 0 && index == 0) || (delta > 0 && index + 1 >= array->children->len))
    return;
  target = index + delta;

  /* Swap the values, not the widgets: focus and expansion stay in place. */
  {
    Field *other = g_ptr_array_index (array->children, target);
    g_autoptr(JsonNode) a = NULL;
    g_autoptr(JsonNode) b = NULL;
    g_autoptr(GPtrArray) ignored = NULL;

    ignored = g_ptr_array_new_with_free_func ((GDestroyNotify) tb_schema_error_free);
    a = _tb_schema_form_field_value (item, ignored);
    b = _tb_schema_form_field_value (other, ignored);
    item->form->updating++;
    _tb_schema_form_field_set_value (item, b);
    _tb_schema_form_field_set_value (other, a);
    item->form->updating--;
  }
  emit_changed (item->form);
}

static void
on_move_up (GtkButton *button,
            Field     *item)
{
  move_item (item, -1);
}

static void
on_move_down (GtkButton *button,
              Field     *item)
{
  move_item (item, 1);
}

static GtkWidget *
icon_button (const char *icon,
             const char *label)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon);

  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (button, label);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  return button;
}

static void
on_null_toggled (GtkToggleButton *toggle,
                 Field           *field)
{
  gboolean is_null = gtk_toggle_button_get_active (toggle);

  if (field->input != NULL)
    gtk_widget_set_sensitive (field->input, !is_null);
  if (field->row != NULL && ADW_IS_EXPANDER_ROW (field->row))
    adw_expander_row_set_enable_expansion (ADW_EXPANDER_ROW (field->row), !is_null);
  field_touched (field);
}

/* Buttons that go in the row's header: null toggle and item controls. */
static void
add_header_controls (Field *field,
                     void (*add) (Field *, GtkWidget *))
{
  g_autofree char *title = field_title (field);

  if (field->nullable)
    {
      field->null_toggle = gtk_toggle_button_new_with_label ("null");
      gtk_widget_add_css_class (field->null_toggle, "flat");
      gtk_widget_add_css_class (field->null_toggle, "caption");
      gtk_widget_set_valign (field->null_toggle, GTK_ALIGN_CENTER);
      gtk_widget_set_tooltip_text (field->null_toggle, _("Send null for this field"));
      gtk_accessible_update_property (GTK_ACCESSIBLE (field->null_toggle),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, _("Null"), -1);
      g_signal_connect (field->null_toggle, "toggled", G_CALLBACK (on_null_toggled), field);
      add (field, field->null_toggle);
    }

  if (field->parent != NULL && field->parent->kind == KIND_ARRAY)
    {
      GtkWidget *up = icon_button ("go-up-symbolic", _("Move Item Up"));
      GtkWidget *down = icon_button ("go-down-symbolic", _("Move Item Down"));
      GtkWidget *remove = icon_button ("user-trash-symbolic", _("Remove Item"));

      g_signal_connect (up, "clicked", G_CALLBACK (on_move_up), field);
      g_signal_connect (down, "clicked", G_CALLBACK (on_move_down), field);
      g_signal_connect (remove, "clicked", G_CALLBACK (on_remove_item), field);
      add (field, up);
      add (field, down);
      add (field, remove);
    }
}

static void
header_box_add (Field     *field,
                GtkWidget *widget)
{
  tb_schema_field_row_add_control (TB_SCHEMA_FIELD_ROW (field->row), widget);
}

static void
expander_add (Field     *field,
              GtkWidget *widget)
{
  adw_expander_row_add_action (ADW_EXPANDER_ROW (field->row), widget);
}

/* Items and variants are always sent; only object members can be left out. */
static gboolean
shows_required (Field *field)
{
  return field->required && field->parent != NULL && field->parent->kind == KIND_OBJECT;
}

static GtkWidget *
required_label (void)
{
  GtkWidget *label = gtk_label_new (_("Required"));

  gtk_widget_add_css_class (label, "caption");
  gtk_widget_add_css_class (label, "tb-required");
  gtk_widget_set_valign (label, GTK_ALIGN_CENTER);
  return label;
}

static void
label_input (Field     *field,
             GtkWidget *widget)
{
  g_autofree char *title = field_title (field);
  const char *description = field_description (field);

  gtk_accessible_update_property (GTK_ACCESSIBLE (widget),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, title,
                                  GTK_ACCESSIBLE_PROPERTY_REQUIRED, (gboolean) field->required,
                                  -1);
  if (description != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (widget),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
}

static void
on_entry_changed (GtkEditable *editable,
                  Field       *field)
{
  field_touched (field);
}

static void
on_buffer_changed (GtkTextBuffer *buffer,
                   Field         *field)
{
  field_touched (field);
}

static void
on_dropdown_selected (GObject    *object,
                      GParamSpec *pspec,
                      Field      *field)
{
  field_touched (field);
}

void
_tb_schema_form_update_clear_button (Field *field)
{
  if (field->clear_button != NULL)
    gtk_widget_set_visible (field->clear_button, field->present);
}

static void
on_switch_active (GObject    *object,
                  GParamSpec *pspec,
                  Field      *field)
{
  field->present = TRUE;
  _tb_schema_form_update_clear_button (field);
  field_touched (field);
}

static void
on_clear_clicked (GtkButton *button,
                  Field     *field)
{
  field->form->updating++;
  gtk_switch_set_active (GTK_SWITCH (field->input), FALSE);
  field->form->updating--;
  field->present = FALSE;
  _tb_schema_form_update_clear_button (field);
  field_touched (field);
}

static char *
node_label (JsonNode *node)
{
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (node));
  return tb_schema_form_json_text (node, FALSE);
}

/* Makes field->input; returns the widget that goes in the row, the
 * input itself or the frame around it. */
static GtkWidget *
build_input (Field *field)
{
  GtkWidget *input = NULL;
  GtkWidget *outer = NULL;
  JsonArray *examples = _tb_schema_form_schema_array (field->schema, "examples");
  g_autofree char *example = NULL;

  if (examples != NULL && json_array_get_length (examples) > 0)
    {
      g_autofree char *text = node_label (json_array_get_element (examples, 0));

      /* Translators: placeholder showing an example value from the schema */
      example = g_strdup_printf (_("e.g. %s"), text);
    }

  switch (field->kind)
    {
    case KIND_STRING:
    case KIND_INTEGER:
    case KIND_NUMBER:
    case KIND_JSON:
      input = gtk_entry_new ();
      gtk_widget_set_hexpand (input, TRUE);
      if (example != NULL)
        gtk_entry_set_placeholder_text (GTK_ENTRY (input), example);
      if (field->kind == KIND_INTEGER)
        gtk_entry_set_input_purpose (GTK_ENTRY (input), GTK_INPUT_PURPOSE_DIGITS);
      else if (field->kind == KIND_NUMBER)
        gtk_entry_set_input_purpose (GTK_ENTRY (input), GTK_INPUT_PURPOSE_NUMBER);
      if (field->kind == KIND_JSON)
        {
          gtk_widget_add_css_class (input, "monospace");
          if (example == NULL)
            gtk_entry_set_placeholder_text (GTK_ENTRY (input), _("Any JSON value"));
        }
      g_signal_connect (input, "changed", G_CALLBACK (on_entry_changed), field);
      break;

    case KIND_TEXT:
      {
        GtkWidget *frame = gtk_frame_new (NULL);

        input = gtk_text_view_new ();
        gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (input), GTK_WRAP_WORD_CHAR);
        gtk_text_view_set_accepts_tab (GTK_TEXT_VIEW (input), FALSE);
        gtk_text_view_set_top_margin (GTK_TEXT_VIEW (input), 6);
        gtk_text_view_set_bottom_margin (GTK_TEXT_VIEW (input), 6);
        gtk_text_view_set_left_margin (GTK_TEXT_VIEW (input), 8);
        gtk_text_view_set_right_margin (GTK_TEXT_VIEW (input), 8);
        gtk_widget_set_size_request (input, -1, 72);
        gtk_widget_add_css_class (frame, "tb-text-frame");
        gtk_frame_set_child (GTK_FRAME (frame), input);
        g_signal_connect (gtk_text_view_get_buffer (GTK_TEXT_VIEW (input)), "changed",
                          G_CALLBACK (on_buffer_changed), field);
        outer = frame;
      }
      break;

    case KIND_ENUM:
      {
        JsonArray *values = _tb_schema_form_schema_array (field->schema, "enum");
        g_autoptr(GtkStringList) labels = gtk_string_list_new (NULL);
        guint n = json_array_get_length (values);

        if (!field->required)
          gtk_string_list_append (labels, _("(not set)"));
        for (guint i = 0; i < n; i++)
          {
            g_autofree char *label = node_label (json_array_get_element (values, i));

            gtk_string_list_append (labels, label);
          }
        input = gtk_drop_down_new (G_LIST_MODEL (g_steal_pointer (&labels)), NULL);
        gtk_widget_set_hexpand (input, TRUE);
        if (n > 12)
          {
            GtkExpression *expression =
              gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL, "string");

            gtk_drop_down_set_enable_search (GTK_DROP_DOWN (input), TRUE);
            gtk_drop_down_set_expression (GTK_DROP_DOWN (input), expression);
            gtk_expression_unref (expression);
          }
        g_signal_connect (input, "notify::selected", G_CALLBACK (on_dropdown_selected), field);
      }
      break;

    case KIND_BOOLEAN:
      input = gtk_switch_new ();
      gtk_widget_set_valign (input, GTK_ALIGN_CENTER);
      g_signal_connect (input, "notify::active", G_CALLBACK (on_switch_active), field);
      break;

    case KIND_CONST:
    case KIND_NULL:
      {
        JsonNode *value = _tb_schema_form_schema_member (field->schema, "const");
        g_autofree char *text = value != NULL ? tb_schema_form_json_text (value, FALSE)
                                              : g_strdup ("null");

        input = gtk_label_new (text);
        gtk_label_set_xalign (GTK_LABEL (input), 0);
        gtk_label_set_selectable (GTK_LABEL (input), TRUE);
        gtk_label_set_ellipsize (GTK_LABEL (input), PANGO_ELLIPSIZE_END);
        gtk_widget_add_css_class (input, "monospace");
      }
      break;

    case KIND_OBJECT:
    case KIND_ARRAY:
    case KIND_VARIANT:
    default:
      g_assert_not_reached ();
    }

  if (GTK_IS_EDITABLE (input) || GTK_IS_TEXT_VIEW (input))
    {
      GtkEventController *focus = gtk_event_controller_focus_new ();

      g_signal_connect (focus, "leave", G_CALLBACK (on_focus_leave), field);
      gtk_widget_add_controller (input, focus);
    }
  label_input (field, input);
  field->input = input;
  return outer != NULL ? outer : input;
}

static GtkWidget *
new_error_label (void)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_widget_add_css_class (label, "error");
  gtk_widget_add_css_class (label, "caption");
  gtk_widget_set_visible (label, FALSE);
  return label;
}

static void
build_scalar_row (Field *field)
{
  g_autofree char *title = field_title (field);
  g_autofree char *hint = field_hint (field);
  TbSchemaFieldRow *row;
  GtkWidget *outer;

  row = TB_SCHEMA_FIELD_ROW (tb_schema_field_row_new (title, hint, field_description (field),
                                                      shows_required (field)));
  field->row = g_object_ref_sink (GTK_WIDGET (row));
  field->error_label = tb_schema_field_row_get_error_label (row);

  outer = build_input (field);
  add_header_controls (field, header_box_add);

  /* A switch sits at the end of the title line, as in GNOME's settings. */
  if (field->kind == KIND_BOOLEAN)
    {
      if (!field->required)
        {
          field->clear_button = icon_button ("edit-clear-symbolic", _("Do Not Send"));
          g_signal_connect (field->clear_button, "clicked", G_CALLBACK (on_clear_clicked), field);
          gtk_widget_set_visible (field->clear_button, FALSE);
          tb_schema_field_row_add_control (row, field->clear_button);
        }
      tb_schema_field_row_add_control (row, outer);
    }
  else
    tb_schema_field_row_set_input (row, outer);
}

static void build_children (Field *field);

static void
on_add_item (GtkButton *button,
             Field     *array)
{
  TbSchemaForm *self = array->form;
  Field *item;

  if (self->n_fields >= TB_SCHEMA_FORM_MAX_FIELDS)
    return;
  item = _tb_schema_form_field_new (self, array, NULL, array->item_schema, TRUE, array->depth + 1);
  g_ptr_array_add (array->children, item);
  _tb_schema_form_container_add_row (array, item->row);
  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (array->row), TRUE);
  self->updating++;
  _tb_schema_form_field_set_value (item, NULL);
  self->updating--;
  if (item->input != NULL)
    gtk_widget_grab_focus (item->input);
  emit_changed (self);
}

static void
on_variant_selected (GObject    *object,
                     GParamSpec *pspec,
                     Field      *field)
{
  TbSchemaForm *self = field->form;
  guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (object));
  Field *child;

  if (selected == GTK_INVALID_LIST_POSITION || selected >= field->variants->len)
    return;
  if (field->children->len > 0)
    {
      child = g_ptr_array_index (field->children, 0);
      if (child->schema == g_ptr_array_index (field->variants, selected))
        return;
    }

  g_ptr_array_set_size (field->children, 0);
  child = _tb_schema_form_field_new (self, field, field->name, g_ptr_array_index (field->variants, selected),
                                     TRUE, field->depth + 1);
  g_ptr_array_add (field->children, child);
  _tb_schema_form_container_add_row (field, child->row);
  self->updating++;
  _tb_schema_form_field_set_value (child, NULL);
  self->updating--;
  field_touched (field);
}

static char *
variant_label (JsonNode *schema,
               guint     index)
{
  const char *title = _tb_schema_form_schema_string (schema, "title");
  const char *type = _tb_schema_form_schema_string (schema, "type");

  if (title != NULL)
    return g_strdup (title);
  if (_tb_schema_form_schema_member (schema, "const") != NULL)
    return tb_schema_form_json_text (_tb_schema_form_schema_member (schema, "const"), FALSE);
  if (type != NULL)
    return g_strdup (type);
  /* Translators: a choice among anyOf/oneOf schemas; %u counts from 1 */
  return g_strdup_printf (_("Option %u"), index + 1);
}

static void
build_container_row (Field *field)
{
  AdwExpanderRow *expander = ADW_EXPANDER_ROW (adw_expander_row_new ());
  g_autofree char *title = field_title (field);
  const char *description = field_description (field);

  field->row = g_object_ref_sink (GTK_WIDGET (expander));
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (expander), title);
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (expander), FALSE);
  if (description != NULL)
    adw_expander_row_set_subtitle (expander, description);
  adw_expander_row_set_expanded (expander, field->depth <= 2);
  gtk_widget_add_css_class (field->row, "tb-field");

  if (shows_required (field))
    adw_expander_row_add_action (expander, required_label ());

  if (field->kind == KIND_VARIANT)
    {
      g_autoptr(GtkStringList) labels = gtk_string_list_new (NULL);

      for (guint i = 0; i < field->variants->len; i++)
        {
          g_autofree char *label = variant_label (g_ptr_array_index (field->variants, i), i);

          gtk_string_list_append (labels, label);
        }
      field->variant_dropdown = gtk_drop_down_new (G_LIST_MODEL (g_steal_pointer (&labels)),
                                                   NULL);
      gtk_widget_set_valign (field->variant_dropdown, GTK_ALIGN_CENTER);
      gtk_widget_set_tooltip_text (field->variant_dropdown, _("Which kind of value to send"));
      field->input = field->variant_dropdown;
      label_input (field, field->variant_dropdown);
      adw_expander_row_add_action (expander, field->variant_dropdown);
    }

  if (field->kind == KIND_ARRAY)
    {
      field->add_button = icon_button ("list-add-symbolic", _("Add Item"));
      g_signal_connect (field->add_button, "clicked", G_CALLBACK (on_add_item), field);
      adw_expander_row_add_action (expander, field->add_button);
    }

  add_header_controls (field, expander_add);

  field->error_row = gtk_list_box_row_new ();
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (field->error_row), FALSE);
  gtk_list_box_row_set_selectable (GTK_LIST_BOX_ROW (field->error_row), FALSE);
  field->error_label = new_error_label ();
  gtk_widget_set_margin_start (field->error_label, 12);
  gtk_widget_set_margin_end (field->error_label, 12);
  gtk_widget_set_margin_top (field->error_label, 6);
  gtk_widget_set_margin_bottom (field->error_label, 6);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (field->error_row), field->error_label);
  gtk_widget_set_visible (field->error_row, FALSE);
  adw_expander_row_add_row (expander, field->error_row);

  build_children (field);

  if (field->kind == KIND_VARIANT)
    g_signal_connect (field->variant_dropdown, "notify::selected",
                      G_CALLBACK (on_variant_selected), field);
}

static gboolean
name_in_array (JsonArray  *array,
               const char *name)
{
  if (array == NULL)
    return FALSE;
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      const char *s = json_array_get_string_element (array, i);

      if (s != NULL && g_str_equal (s, name))
        return TRUE;
    }
  return FALSE;
}

static void
build_children (Field *field)
{
  TbSchemaForm *self = field->form;

  if (field->kind == KIND_OBJECT)
    {
      JsonNode *properties = _tb_schema_form_schema_member (field->schema, "properties");
      JsonArray *required = _tb_schema_form_schema_array (field->schema, "required");
      g_autoptr(GList) names = NULL;

      if (properties == NULL || !JSON_NODE_HOLDS_OBJECT (properties))
        return;

      names = json_object_get_members (json_node_get_object (properties));
      for (const GList *l = names; l != NULL && !self->too_large; l = l->next)
        {
          const char *name = l->data;
          JsonNode *prop = json_object_get_member (json_node_get_object (properties), name);
          Field *child = _tb_schema_form_field_new (self, field, name, prop, name_in_array (required, name),
                                                    field->depth + 1);

          g_ptr_array_add (field->children, child);
          _tb_schema_form_container_add_row (field, child->row);
        }
    }
  else if (field->kind == KIND_ARRAY)
    {
      JsonNode *items = _tb_schema_form_schema_member (field->schema, "items");
      JsonArray *prefix = _tb_schema_form_schema_array (field->schema, "prefixItems");

      if (items == NULL && prefix != NULL && json_array_get_length (prefix) > 0)
        items = json_array_get_element (prefix, 0);
      field->item_schema = items != NULL ? json_node_ref (items)
                                         : tb_json_node_new_object ();
    }
  else if (field->kind == KIND_VARIANT)
    {
      Field *child = _tb_schema_form_field_new (self, field, field->name,
                                                g_ptr_array_index (field->variants, 0), TRUE,
                                                field->depth + 1);

      g_ptr_array_add (field->children, child);
      _tb_schema_form_container_add_row (field, child->row);
    }
}

Field *
_tb_schema_form_field_new (TbSchemaForm *self,
                           Field        *parent,
                           const char   *name,
                           JsonNode     *schema,
                           gboolean      required,
                           guint         depth)
{
  Field *field = g_new0 (Field, 1);
  JsonNode *resolved;

  field->form = self;
  field->parent = parent;
  field->name = g_strdup (name);
  field->required = required;
  field->depth = depth;
  field->origin = schema != NULL ? json_node_ref (schema) : NULL;
  field->children = g_ptr_array_new_with_free_func ((GDestroyNotify) field_free);
  field->error = g_string_new (NULL);

  self->n_fields++;
  if (self->n_fields > TB_SCHEMA_FORM_MAX_FIELDS)
    self->too_large = TRUE;

  resolved = schema != NULL ? _tb_schema_form_resolve_ref (self, schema) : NULL;
  field->schema = resolved != NULL ? _tb_schema_form_merge_all_of (self, resolved) : NULL;
  field->kind = field->schema != NULL ? _tb_schema_form_classify (field) : KIND_JSON;

  /* Past the depth cap (recursive $ref ends here too) the value is JSON. */
  if ((field->kind == KIND_OBJECT || field->kind == KIND_ARRAY || field->kind == KIND_VARIANT) &&
      (depth > TB_SCHEMA_FORM_MAX_DEPTH || self->too_large))
    field->kind = KIND_JSON;

  if (field->kind == KIND_OBJECT && parent == NULL)
    {
      /* The root's properties go straight into the form's boxed list;
       * what is wrong with the root object as a whole is said in the note. */
      field->list = GTK_WIDGET (self->list);
      field->row = g_object_ref (field->list);
      build_children (field);
    }
  else if (field->kind == KIND_OBJECT || field->kind == KIND_ARRAY ||
           field->kind == KIND_VARIANT)
    build_container_row (field);
  else
    build_scalar_row (field);

  return field;
}

static void
field_free (Field *field)
{
  if (field == NULL)
    return;

  field->form->n_fields--;

  /* Children first: their rows live inside ours. */
  g_clear_pointer (&field->children, g_ptr_array_unref);
  if (field->row != NULL)
    {
      if (field->parent != NULL && gtk_widget_get_parent (field->row) != NULL)
        container_remove_row (field->parent, field->row);
      g_clear_object (&field->row);
    }
  g_clear_pointer (&field->variants, g_ptr_array_unref);
  g_clear_pointer (&field->item_schema, json_node_unref);
  g_clear_pointer (&field->schema, json_node_unref);
  g_clear_pointer (&field->origin, json_node_unref);
  g_clear_pointer (&field->extra, json_object_unref);
  g_clear_pointer (&field->foreign, json_node_unref);
  g_string_free (field->error, TRUE);
  g_free (field->name);
  g_free (field);
}

/* GObject */

static void
tb_schema_form_dispose (GObject *object)
{
  TbSchemaForm *self = (TbSchemaForm *) object;

  g_clear_pointer (&self->root, field_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_SCHEMA_FORM);
  tb_widget_unparent_children (GTK_WIDGET (self));

  G_OBJECT_CLASS (tb_schema_form_parent_class)->dispose (object);
}

static void
tb_schema_form_finalize (GObject *object)
{
  TbSchemaForm *self = (TbSchemaForm *) object;

  g_clear_pointer (&self->root_schema, json_node_unref);
  g_clear_pointer (&self->local_errors, g_ptr_array_unref);

  G_OBJECT_CLASS (tb_schema_form_parent_class)->finalize (object);
}

static void
tb_schema_form_class_init (TbSchemaFormClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_schema_form_dispose;
  object_class->finalize = tb_schema_form_finalize;

  /**
   * TbSchemaForm::changed:
   *
   * The person changed a value in the form (not emitted by
   * tb_schema_form_set_value()).
   */
  signals [CHANGED] =
    g_signal_new ("changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  /**
   * TbSchemaForm::revealed:
   *
   * The person left a field or changed it with a click: its problems may
   * now be shown (tb_schema_form_get_revealed()).
   */
  signals [REVEALED] =
    g_signal_new ("revealed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "tbschemaform");
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/toolbench/Toolbench/tb-schema-form.ui");
  gtk_widget_class_bind_template_child (widget_class, TbSchemaForm, note_label);
  gtk_widget_class_bind_template_child (widget_class, TbSchemaForm, empty_label);
  gtk_widget_class_bind_template_child (widget_class, TbSchemaForm, list);
}

static void
tb_schema_form_init (TbSchemaForm *self)
{
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));

  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), 8);
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
tb_schema_form_new (void)
{
  return g_object_new (TB_TYPE_SCHEMA_FORM, NULL);
}

static guint
count_properties (JsonNode *schema)
{
  JsonNode *props = _tb_schema_form_schema_member (schema, "properties");

  return props != NULL && JSON_NODE_HOLDS_OBJECT (props)
         ? json_object_get_size (json_node_get_object (props)) : 0;
}

/**
 * tb_schema_form_set_schema:
 * @self: a form
 * @schema: (nullable): the JSON Schema of the value; %NULL clears the form
 * @error: set when the schema needs more fields than the form shows
 *
 * Builds the form, filled with the schema's defaults.
 *
 * Returns: %TRUE when the form represents the schema
 */
gboolean
tb_schema_form_set_schema (TbSchemaForm  *self,
                           JsonNode      *schema,
                           GError       **error)
{
  GtkWidget *child;
  guint n_props;

  g_return_val_if_fail (TB_IS_SCHEMA_FORM (self), FALSE);

  g_clear_pointer (&self->root, field_free);
  /* A root that is not an object left its one row. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list))) != NULL)
    gtk_list_box_remove (self->list, child);
  gtk_widget_set_visible (self->empty_label, FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->list), FALSE);
  g_clear_pointer (&self->root_schema, json_node_unref);
  gtk_widget_set_visible (self->note_label, FALSE);
  self->n_fields = 0;
  self->too_large = FALSE;

  if (schema == NULL)
    return TRUE;

  if (!tb_json_node_depth_ok (schema, TB_JSON_MAX_DEPTH))
    {
      g_set_error (error, TB_SCHEMA_FORM_ERROR, TB_SCHEMA_FORM_ERROR_TOO_LARGE,
                   _("The schema nests more than %u levels deep; edit the arguments as JSON."),
                   TB_JSON_MAX_DEPTH);
      return FALSE;
    }

  n_props = count_properties (schema);
  if (n_props > TB_SCHEMA_FORM_MAX_FIELDS)
    {
      g_set_error (error, TB_SCHEMA_FORM_ERROR, TB_SCHEMA_FORM_ERROR_TOO_LARGE,
                   g_dngettext (GETTEXT_PACKAGE,
                                "The schema has %u property, more than a form can show; "
                                "edit the arguments as JSON.",
                                "The schema has %u properties, more than a form can show; "
                                "edit the arguments as JSON.", n_props),
                   n_props);
      return FALSE;
    }

  self->root_schema = json_node_ref (schema);
  self->root = _tb_schema_form_field_new (self, NULL, NULL, schema, TRUE, 0);

  if (self->too_large)
    {
      g_clear_pointer (&self->root, field_free);
      g_clear_pointer (&self->root_schema, json_node_unref);
      g_set_error (error, TB_SCHEMA_FORM_ERROR, TB_SCHEMA_FORM_ERROR_TOO_LARGE,
                   _("The schema needs more than %u fields, more than a form can show; "
                     "edit the arguments as JSON."), TB_SCHEMA_FORM_MAX_FIELDS);
      return FALSE;
    }

  if (self->root->kind == KIND_OBJECT && self->root->children->len == 0 &&
      _tb_schema_form_schema_member (schema, "additionalProperties") == NULL)
    gtk_widget_set_visible (self->empty_label, TRUE);
  else
    {
      if (self->root->kind != KIND_OBJECT)
        gtk_list_box_append (self->list, self->root->row);
      gtk_widget_set_visible (GTK_WIDGET (self->list), TRUE);
    }

  self->updating++;
  _tb_schema_form_field_set_value (self->root, NULL);
  self->updating--;
  return TRUE;
}

/**
 * tb_schema_form_get_value:
 * @self: a form
 * @local_errors: (out) (optional) (transfer full) (element-type TbSchemaError):
 *   values the form cannot turn into JSON (a number field holding "abc")
 *
 * Returns: (transfer full) (nullable): the value the form holds
 */
JsonNode *
tb_schema_form_get_value (TbSchemaForm  *self,
                          GPtrArray    **local_errors)
{
  g_autoptr(GPtrArray) errors = NULL;
  JsonNode *value;

  g_return_val_if_fail (TB_IS_SCHEMA_FORM (self), NULL);

  errors = g_ptr_array_new_with_free_func ((GDestroyNotify) tb_schema_error_free);
  if (self->root == NULL)
    value = tb_json_node_new_object ();
  else
    value = _tb_schema_form_field_value (self->root, errors);
  if (value == NULL)
    value = self->root != NULL && self->root->kind == KIND_OBJECT ? tb_json_node_new_object ()
                                                                  : json_node_new (JSON_NODE_NULL);
  if (local_errors != NULL)
    *local_errors = g_steal_pointer (&errors);
  return value;
}

/**
 * tb_schema_form_set_value:
 * @self: a form
 * @value: (nullable): the value to show; %NULL restores the defaults
 *
 * Fills the widgets from @value without emitting #TbSchemaForm::changed.
 */
void
tb_schema_form_set_value (TbSchemaForm *self,
                          JsonNode     *value)
{
  g_return_if_fail (TB_IS_SCHEMA_FORM (self));

  if (self->root == NULL)
    return;
  if (value != NULL && !tb_json_node_depth_ok (value, TB_JSON_MAX_DEPTH))
    return;
  self->updating++;
  _tb_schema_form_field_set_value (self->root, value);
  self->updating--;
  /* Back to the defaults: nothing has been touched. */
  if (value == NULL)
    field_conceal (self->root);
}

/**
 * tb_schema_form_get_revealed:
 * @self: a form
 * @pointer: a JSON Pointer to a value
 *
 * Returns: whether the person has left or changed the field holding
 *   @pointer (the nearest one the form has), so its problems may show
 */
gboolean
tb_schema_form_get_revealed (TbSchemaForm *self,
                             const char   *pointer)
{
  gboolean exact;
  Field *field;

  g_return_val_if_fail (TB_IS_SCHEMA_FORM (self), FALSE);

  field = field_lookup (self, pointer, &exact);
  return field != NULL && field->revealed;
}

/**
 * tb_schema_form_get_error_pointer:
 * @self: a form
 * @error: a validation error
 *
 * Returns: (transfer full) (nullable): for a missing required member
 *   named in @error, the pointer to that member's field; otherwise %NULL
 */
char *
tb_schema_form_get_error_pointer (TbSchemaForm        *self,
                                  const TbSchemaError *error)
{
  gboolean exact;
  Field *field;

  g_return_val_if_fail (TB_IS_SCHEMA_FORM (self), NULL);

  if (g_strcmp0 (error->keyword, "required") != 0)
    return NULL;
  field = field_lookup (self, error->instance_path, &exact);
  while (field != NULL && field->kind == KIND_VARIANT && field->children->len > 0)
    field = g_ptr_array_index (field->children, 0);
  if (!exact || field == NULL || field->kind != KIND_OBJECT)
    return NULL;
  for (guint i = 0; i < field->children->len; i++)
    {
      Field *child = g_ptr_array_index (field->children, i);
      g_autofree char *quoted = NULL;

      if (child->name == NULL || !child->required)
        continue;
      /* The validator names the member in quotes. */
      quoted = g_strdup_printf ("“%s”", child->name);
      if (strstr (error->message, quoted) != NULL)
        return _tb_schema_form_field_path (child);
    }
  return NULL;
}

static void
mark_missing_required (Field *field)
{
  for (guint i = 0; i < field->children->len; i++)
    {
      Field *child = g_ptr_array_index (field->children, i);
      g_autoptr(GPtrArray) ignored =
        g_ptr_array_new_with_free_func ((GDestroyNotify) tb_schema_error_free);
      g_autoptr(JsonNode) value = NULL;

      if (!child->required)
        continue;
      value = _tb_schema_form_field_value (child, ignored);
      if (value == NULL && !strstr (child->error->str, _("This field is required.")))
        _tb_schema_form_field_add_error (child, _("This field is required."));
    }
}

/**
 * tb_schema_form_set_errors:
 * @self: a form
 * @errors: (nullable) (element-type TbSchemaError): validation errors
 *
 * Shows each error at the field its instance path points to; errors about
 * a missing required member are shown at that member's field.
 */
void
tb_schema_form_set_errors (TbSchemaForm *self,
                           GPtrArray    *errors)
{
  g_autoptr(GString) unplaced = g_string_new (NULL);

  g_return_if_fail (TB_IS_SCHEMA_FORM (self));

  if (self->root == NULL)
    return;

  _tb_schema_form_field_clear_errors (self->root);
  for (guint i = 0; errors != NULL && i < errors->len; i++)
    {
      TbSchemaError *error = g_ptr_array_index (errors, i);
      gboolean exact;
      Field *field = field_lookup (self, error->instance_path, &exact);

      while (field != NULL && field->kind == KIND_VARIANT && field->children->len > 0 &&
             g_strcmp0 (error->keyword, "required") == 0)
        field = g_ptr_array_index (field->children, 0);

      if (exact && field != NULL && field->kind == KIND_OBJECT &&
          g_strcmp0 (error->keyword, "required") == 0)
        mark_missing_required (field);
      else if (field != NULL && field != self->root)
        _tb_schema_form_field_add_error (field, error->message);
      else
        {
          if (unplaced->len > 0)
            g_string_append_c (unplaced, '\n');
          g_string_append (unplaced, error->message);
        }
    }

  gtk_label_set_label (GTK_LABEL (self->note_label), unplaced->str);
  gtk_widget_set_visible (self->note_label, unplaced->len > 0);
}

/**
 * tb_schema_form_get_input:
 * @self: a form
 * @pointer: a JSON Pointer to a field ("/name", "/items/0")
 *
 * Returns: (transfer none) (nullable): the widget that edits the field: a
 *   #GtkEntry, #GtkTextView, #GtkDropDown (enums and variants) or #GtkSwitch
 */
GtkWidget *
tb_schema_form_get_input (TbSchemaForm *self,
                          const char   *pointer)
{
  Field *field;

  g_return_val_if_fail (TB_IS_SCHEMA_FORM (self), NULL);

  field = field_at (self, pointer);
  if (field == NULL)
    return NULL;
  while (field->kind == KIND_VARIANT && field->input == NULL && field->children->len > 0)
    field = g_ptr_array_index (field->children, 0);
  return field->input;
}

/**
 * tb_schema_form_get_add_button:
 * @self: a form
 * @pointer: a JSON Pointer to an array field
 *
 * Returns: (transfer none) (nullable): the array's "Add Item" button
 */
GtkWidget *
tb_schema_form_get_add_button (TbSchemaForm *self,
                               const char   *pointer)
{
  Field *field;

  g_return_val_if_fail (TB_IS_SCHEMA_FORM (self), NULL);

  field = field_at (self, pointer);
  return field != NULL ? field->add_button : NULL;
}

/**
 * tb_schema_form_get_field_error:
 * @self: a form
 * @pointer: a JSON Pointer to a field
 *
 * Returns: (nullable): the error text shown at the field, or %NULL
 */
const char *
tb_schema_form_get_field_error (TbSchemaForm *self,
                                const char   *pointer)
{
  Field *field;

  g_return_val_if_fail (TB_IS_SCHEMA_FORM (self), NULL);

  field = field_at (self, pointer);
  if (field == NULL)
    return NULL;
  if (field == self->root)
    return gtk_widget_get_visible (self->note_label)
           ? gtk_label_get_label (GTK_LABEL (self->note_label)) : NULL;
  return field->error->len > 0 ? field->error->str : NULL;
}

/**
 * tb_schema_form_get_n_fields:
 * @self: a form
 *
 * Returns: how many fields the form built
 */
guint
tb_schema_form_get_n_fields (TbSchemaForm *self)
{
  g_return_val_if_fail (TB_IS_SCHEMA_FORM (self), 0);

  return self->n_fields;
}
