/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include "tb-app-util.h"
#include "tb-schema-field-row.h"

/* More than four lines of the widest form hold. */
#define DESCRIPTION_SHOWN_CHARS 1000

/* The row of one value in the schema form: the field's title, whether it
 * is required, a hint at the kind of value, its description, the input
 * and the line that says what is wrong with it. The form decides what goes
 * in; the row only lays it out. */

struct _TbSchemaFieldRow
{
  GtkListBoxRow  parent_instance;

  char          *title;
  char          *hint;
  char          *description;
  gboolean       required;

  GtkBox        *header;
  GtkWidget     *description_label;
  GtkWidget     *error_label;
};

G_DEFINE_FINAL_TYPE (TbSchemaFieldRow, tb_schema_field_row, GTK_TYPE_LIST_BOX_ROW)

enum {
  PROP_0,
  PROP_TITLE,
  PROP_HINT,
  PROP_DESCRIPTION,
  PROP_REQUIRED,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

static gboolean
has_text (gpointer    unused,
          const char *text)
{
  return text != NULL && *text != '\0';
}

/* Four lines of a description show: a label lays out all its text before
 * it ellipsizes, and a schema's description may be tens of kilobytes. */
static char *
shown_description (gpointer    unused,
                   const char *text)
{
  return text != NULL ? tb_text_cut_at_word (text, DESCRIPTION_SHOWN_CHARS, NULL) : NULL;
}

static void
set_string (TbSchemaFieldRow  *self,
            char             **field,
            const char        *value,
            guint              prop)
{
  if (g_strcmp0 (*field, value) == 0)
    return;
  g_free (*field);
  *field = g_strdup (value);
  g_object_notify_by_pspec (G_OBJECT (self), properties [prop]);
}

static void
tb_schema_field_row_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), TB_TYPE_SCHEMA_FIELD_ROW);

  G_OBJECT_CLASS (tb_schema_field_row_parent_class)->dispose (object);
}

static void
tb_schema_field_row_finalize (GObject *object)
{
  TbSchemaFieldRow *self = (TbSchemaFieldRow *) object;

  g_free (self->title);
  g_free (self->hint);
  g_free (self->description);

  G_OBJECT_CLASS (tb_schema_field_row_parent_class)->finalize (object);
}

static void
tb_schema_field_row_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  TbSchemaFieldRow *self = TB_SCHEMA_FIELD_ROW (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_HINT:
      g_value_set_string (value, self->hint);
      break;
    case PROP_DESCRIPTION:
      g_value_set_string (value, self->description);
      break;
    case PROP_REQUIRED:
      g_value_set_boolean (value, self->required);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_schema_field_row_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  TbSchemaFieldRow *self = TB_SCHEMA_FIELD_ROW (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      set_string (self, &self->title, g_value_get_string (value), prop_id);
      break;
    case PROP_HINT:
      set_string (self, &self->hint, g_value_get_string (value), prop_id);
      break;
    case PROP_DESCRIPTION:
      set_string (self, &self->description, g_value_get_string (value), prop_id);
      break;
    case PROP_REQUIRED:
      if (self->required != g_value_get_boolean (value))
        {
          self->required = g_value_get_boolean (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_schema_field_row_class_init (TbSchemaFieldRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_schema_field_row_dispose;
  object_class->finalize = tb_schema_field_row_finalize;
  object_class->get_property = tb_schema_field_row_get_property;
  object_class->set_property = tb_schema_field_row_set_property;

  properties [PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* What kind of value goes in: "integer, ≥ 1", a string's format. */
  properties [PROP_HINT] =
    g_param_spec_string ("hint", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties [PROP_DESCRIPTION] =
    g_param_spec_string ("description", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* Whether the row says "Required" next to its title. */
  properties [PROP_REQUIRED] =
    g_param_spec_boolean ("required", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/toolbench/Toolbench/tb-schema-field-row.ui");
  gtk_widget_class_bind_template_child (widget_class, TbSchemaFieldRow, header);
  gtk_widget_class_bind_template_child (widget_class, TbSchemaFieldRow, description_label);
  gtk_widget_class_bind_template_child (widget_class, TbSchemaFieldRow, error_label);
  gtk_widget_class_bind_template_callback (widget_class, has_text);
  gtk_widget_class_bind_template_callback (widget_class, shown_description);
}

static void
tb_schema_field_row_init (TbSchemaFieldRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * tb_schema_field_row_new:
 * @title: the field's title
 * @hint: (nullable): what kind of value goes in
 * @description: (nullable): the schema's description of the field
 * @required: whether the row says the field is required
 *
 * Returns: (transfer floating): a row with no input yet
 */
GtkWidget *
tb_schema_field_row_new (const char *title,
                         const char *hint,
                         const char *description,
                         gboolean    required)
{
  return g_object_new (TB_TYPE_SCHEMA_FIELD_ROW,
                       "title", title,
                       "hint", hint,
                       "description", description,
                       "required", required,
                       NULL);
}

const char *
tb_schema_field_row_get_title (TbSchemaFieldRow *self)
{
  g_return_val_if_fail (TB_IS_SCHEMA_FIELD_ROW (self), NULL);

  return self->title;
}

void
tb_schema_field_row_set_title (TbSchemaFieldRow *self,
                               const char       *title)
{
  g_return_if_fail (TB_IS_SCHEMA_FIELD_ROW (self));

  set_string (self, &self->title, title, PROP_TITLE);
}

/**
 * tb_schema_field_row_add_control:
 * @self: a row
 * @control: a button or switch
 *
 * Puts @control at the end of the title line.
 */
void
tb_schema_field_row_add_control (TbSchemaFieldRow *self,
                                 GtkWidget        *control)
{
  g_return_if_fail (TB_IS_SCHEMA_FIELD_ROW (self));

  gtk_box_append (self->header, control);
}

/**
 * tb_schema_field_row_set_input:
 * @self: a row
 * @input: the widget that edits the value
 *
 * Puts @input below the title and description, above the error line.
 */
void
tb_schema_field_row_set_input (TbSchemaFieldRow *self,
                               GtkWidget        *input)
{
  g_return_if_fail (TB_IS_SCHEMA_FIELD_ROW (self));

  gtk_box_insert_child_after (GTK_BOX (gtk_widget_get_parent (self->description_label)),
                              input, self->description_label);
}

/**
 * tb_schema_field_row_get_error_label:
 * @self: a row
 *
 * Returns: (transfer none): the label that says what is wrong with the
 *   value, hidden until there is something to say
 */
GtkWidget *
tb_schema_field_row_get_error_label (TbSchemaFieldRow *self)
{
  g_return_val_if_fail (TB_IS_SCHEMA_FIELD_ROW (self), NULL);

  return self->error_label;
}
