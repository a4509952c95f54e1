/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-loop-status"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-app-util.h"
#include "tb-loop-status.h"

/* Where a run stands, under the Loop page's controls: its state and
 * iteration as the loop reports them (or "Not started" with the cap the
 * next run gets), the last error or warning, and a notice with a way to
 * the proposed fact when the run waits for one. */

struct _TbLoopStatus
{
  GtkWidget       parent_instance;

  TbDispatchLoop *loop;
  guint           max_iterations;
  gboolean        holding;

  GtkWidget      *state_box;
  GtkLabel       *state_label;
  GtkLabel       *iteration_label;
  GtkLabel       *error_label;
  GtkWidget      *proposal_notice;
  GtkWidget      *review_button;
};

G_DEFINE_FINAL_TYPE (TbLoopStatus, tb_loop_status, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_MAX_ITERATIONS, PROP_HOLDING, N_PROPS };
static GParamSpec *properties [N_PROPS];

static const char *
state_text (TbLoopState state)
{
  switch (state)
    {
    case TB_LOOP_STATE_READY:
      return _("Ready for the model's turn");
    case TB_LOOP_STATE_AWAITING_MODEL:
      return _("Waiting for the model");
    case TB_LOOP_STATE_CALLS_PENDING:
      return _("Calls wait for your decision");
    case TB_LOOP_STATE_RUNNING_TOOLS:
      return _("Running tools");
    case TB_LOOP_STATE_FINISHED:
      return _("Finished");
    case TB_LOOP_STATE_LIMIT_REACHED:
      return _("Iteration cap reached");
    case TB_LOOP_STATE_FAILED:
      return _("Failed");
    case TB_LOOP_STATE_CANCELLED:
      return _("Stopped");
    default:
      return "";
    }
}

static void
update (TbLoopStatus *self)
{
  guint max = self->loop != NULL ? tb_dispatch_loop_get_max_iterations (self->loop)
                                 : self->max_iterations;
  guint iteration = self->loop != NULL ? tb_dispatch_loop_get_iteration (self->loop) : 0;
  g_autofree char *iteration_text = g_strdup_printf (_("Iteration %u of %u"), iteration, max);

  gtk_label_set_label (self->state_label,
                       self->loop == NULL ? _("Not started")
                                          : state_text (tb_dispatch_loop_get_state (self->loop)));
  gtk_label_set_label (self->iteration_label, iteration_text);
  /* A failed run says why. */
  if (self->loop != NULL && tb_dispatch_loop_get_state (self->loop) == TB_LOOP_STATE_FAILED
      && tb_dispatch_loop_get_error (self->loop) != NULL)
    tb_loop_status_set_error (self, tb_dispatch_loop_get_error (self->loop)->message);
}

static void
tb_loop_status_dispose (GObject *object)
{
  TbLoopStatus *self = (TbLoopStatus *) object;

  tb_loop_status_set_loop (self, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), TB_TYPE_LOOP_STATUS);

  G_OBJECT_CLASS (tb_loop_status_parent_class)->dispose (object);
}

static void
tb_loop_status_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  TbLoopStatus *self = TB_LOOP_STATUS (object);

  switch (prop_id)
    {
    case PROP_MAX_ITERATIONS:
      g_value_set_uint (value, self->max_iterations);
      break;
    case PROP_HOLDING:
      g_value_set_boolean (value, self->holding);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_loop_status_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  TbLoopStatus *self = TB_LOOP_STATUS (object);

  switch (prop_id)
    {
    case PROP_MAX_ITERATIONS:
      tb_loop_status_set_max_iterations (self, g_value_get_uint (value));
      break;
    case PROP_HOLDING:
      tb_loop_status_set_holding (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_loop_status_class_init (TbLoopStatusClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_loop_status_dispose;
  object_class->get_property = tb_loop_status_get_property;
  object_class->set_property = tb_loop_status_set_property;

  /**
   * TbLoopStatus:max-iterations:
   *
   * The cap shown before a run starts; a run shows its own.
   */
  properties [PROP_MAX_ITERATIONS] =
    g_param_spec_uint ("max-iterations", NULL, NULL, 0, G_MAXUINT, 0,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  /**
   * TbLoopStatus:holding:
   *
   * Whether the run waits for a person to decide on a proposed fact.
   */
  properties [PROP_HOLDING] =
    g_param_spec_boolean ("holding", NULL, NULL, FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/toolbench/Toolbench/tb-loop-status.ui");
  gtk_widget_class_bind_template_child (widget_class, TbLoopStatus, state_box);
  gtk_widget_class_bind_template_child (widget_class, TbLoopStatus, state_label);
  gtk_widget_class_bind_template_child (widget_class, TbLoopStatus, iteration_label);
  gtk_widget_class_bind_template_child (widget_class, TbLoopStatus, error_label);
  gtk_widget_class_bind_template_child (widget_class, TbLoopStatus, proposal_notice);
  gtk_widget_class_bind_template_child (widget_class, TbLoopStatus, review_button);
}

static void
tb_loop_status_init (TbLoopStatus *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  update (self);
}

/**
 * tb_loop_status_set_loop:
 * @self: a loop status
 * @loop: (nullable): the run to follow; %NULL before a run starts
 */
void
tb_loop_status_set_loop (TbLoopStatus   *self,
                         TbDispatchLoop *loop)
{
  g_return_if_fail (TB_IS_LOOP_STATUS (self));
  g_return_if_fail (!loop || TB_IS_DISPATCH_LOOP (loop));

  if (self->loop == loop)
    return;
  if (self->loop != NULL)
    g_signal_handlers_disconnect_by_data (self->loop, self);
  g_set_object (&self->loop, loop);
  if (loop != NULL)
    {
      g_signal_connect_swapped (loop, "notify::state", G_CALLBACK (update), self);
      g_signal_connect_swapped (loop, "notify::iteration", G_CALLBACK (update), self);
      g_signal_connect_swapped (loop, "notify::max-iterations", G_CALLBACK (update), self);
    }
  update (self);
}

void
tb_loop_status_set_max_iterations (TbLoopStatus *self,
                                   guint         max)
{
  g_return_if_fail (TB_IS_LOOP_STATUS (self));

  if (self->max_iterations == max)
    return;
  self->max_iterations = max;
  update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_MAX_ITERATIONS]);
}

void
tb_loop_status_set_holding (TbLoopStatus *self,
                            gboolean      holding)
{
  g_return_if_fail (TB_IS_LOOP_STATUS (self));

  holding = !!holding;
  if (self->holding == holding)
    return;
  self->holding = holding;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_HOLDING]);
}

/**
 * tb_loop_status_set_error:
 * @self: a loop status
 * @text: (nullable): what went wrong, or %NULL to show nothing
 *
 * Errors quote providers, servers and tools: their control characters
 * are shown, not obeyed.
 */
void
tb_loop_status_set_error (TbLoopStatus *self,
                          const char   *text)
{
  g_return_if_fail (TB_IS_LOOP_STATUS (self));

  tb_label_set_outside_text (self->error_label, text);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), text != NULL && *text != '\0');
}

const char *
tb_loop_status_get_error (TbLoopStatus *self)
{
  g_return_val_if_fail (TB_IS_LOOP_STATUS (self), NULL);
  return gtk_label_get_label (self->error_label);
}

const char *
tb_loop_status_get_state_text (TbLoopStatus *self)
{
  g_return_val_if_fail (TB_IS_LOOP_STATUS (self), NULL);
  return gtk_label_get_label (self->state_label);
}

const char *
tb_loop_status_get_iteration_text (TbLoopStatus *self)
{
  g_return_val_if_fail (TB_IS_LOOP_STATUS (self), NULL);
  return gtk_label_get_label (self->iteration_label);
}

/**
 * tb_loop_status_get_review_button:
 * @self: a loop status
 *
 * Returns: (transfer none): the button of the notice shown while the run
 *   waits for a proposed fact
 */
GtkWidget *
tb_loop_status_get_review_button (TbLoopStatus *self)
{
  g_return_val_if_fail (TB_IS_LOOP_STATUS (self), NULL);
  return self->review_button;
}
