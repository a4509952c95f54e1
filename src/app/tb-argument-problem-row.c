/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <glib/gi18n.h>

#include "tb-argument-problem-row.h"

/* One problem the schema finds with the arguments, in the editor's list:
 * what is wrong, and the JSON pointer of the value it is about. */

struct _TbArgumentProblemRow
{
  GtkListBoxRow  parent_instance;

  char          *message;
  char          *pointer;

  GtkLabel      *pointer_label;
};

G_DEFINE_FINAL_TYPE (TbArgumentProblemRow, tb_argument_problem_row, GTK_TYPE_LIST_BOX_ROW)

enum {
  PROP_0,
  PROP_MESSAGE,
  PROP_POINTER,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

static void
set_pointer (TbArgumentProblemRow *self,
             const char           *pointer)
{
  g_free (self->pointer);
  self->pointer = g_strdup (pointer != NULL ? pointer : "");
  gtk_label_set_label (self->pointer_label, *self->pointer != '\0' ? self->pointer
                                                                   : _("(arguments)"));
  gtk_actionable_set_action_target (GTK_ACTIONABLE (self), "s", self->pointer);
}

static void
tb_argument_problem_row_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), TB_TYPE_ARGUMENT_PROBLEM_ROW);

  G_OBJECT_CLASS (tb_argument_problem_row_parent_class)->dispose (object);
}

static void
tb_argument_problem_row_finalize (GObject *object)
{
  TbArgumentProblemRow *self = (TbArgumentProblemRow *) object;

  g_free (self->message);
  g_free (self->pointer);

  G_OBJECT_CLASS (tb_argument_problem_row_parent_class)->finalize (object);
}

static void
tb_argument_problem_row_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  TbArgumentProblemRow *self = TB_ARGUMENT_PROBLEM_ROW (object);

  switch (prop_id)
    {
    case PROP_MESSAGE:
      g_value_set_string (value, self->message);
      break;
    case PROP_POINTER:
      g_value_set_string (value, self->pointer);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_argument_problem_row_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  TbArgumentProblemRow *self = TB_ARGUMENT_PROBLEM_ROW (object);

  switch (prop_id)
    {
    case PROP_MESSAGE:
      g_free (self->message);
      self->message = g_value_dup_string (value);
      break;
    case PROP_POINTER:
      set_pointer (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_argument_problem_row_class_init (TbArgumentProblemRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_argument_problem_row_dispose;
  object_class->finalize = tb_argument_problem_row_finalize;
  object_class->get_property = tb_argument_problem_row_get_property;
  object_class->set_property = tb_argument_problem_row_set_property;

  properties [PROP_MESSAGE] =
    g_param_spec_string ("message", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /* The JSON pointer of the value; "" for the arguments as a whole. */
  properties [PROP_POINTER] =
    g_param_spec_string ("pointer", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/toolbench/Toolbench/tb-argument-problem-row.ui");
  gtk_widget_class_bind_template_child (widget_class, TbArgumentProblemRow, pointer_label);
}

static void
tb_argument_problem_row_init (TbArgumentProblemRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * tb_argument_problem_row_new:
 * @message: what is wrong
 * @pointer: the JSON pointer of the value it is about
 *
 * Returns: (transfer floating): the row
 */
GtkWidget *
tb_argument_problem_row_new (const char *message,
                             const char *pointer)
{
  return g_object_new (TB_TYPE_ARGUMENT_PROBLEM_ROW,
                       "message", message,
                       "pointer", pointer,
                       NULL);
}

const char *
tb_argument_problem_row_get_pointer (TbArgumentProblemRow *self)
{
  g_return_val_if_fail (TB_IS_ARGUMENT_PROBLEM_ROW (self), NULL);

  return self->pointer;
}
