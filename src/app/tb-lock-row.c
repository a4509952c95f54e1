/* SPDX-License-Identifier: GPL-3.0-or-later */

#define G_LOG_DOMAIN "tb-lock-row"

#include "config.h"

#include <glib/gi18n.h>

#include "tb-lock-row.h"
#include "tb-lock-row-private.h"

/* A locked key on the Facts page, with Unlock, which activates the page's
 * "facts.unlock" action with the key. */

struct _TbLockRow
{
  AdwActionRow  parent_instance;

  GtkWidget    *unlock_button;

  char         *key;
};

G_DEFINE_FINAL_TYPE (TbLockRow, tb_lock_row, ADW_TYPE_ACTION_ROW)

enum { PROP_0, PROP_KEY, N_PROPS };
static GParamSpec *properties [N_PROPS];

static void
set_key (TbLockRow  *self,
         const char *key)
{
  g_autofree char *name = NULL;

  g_assert (self->key == NULL);
  if (key == NULL)
    return;

  self->key = g_strdup (key);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self), key);
  /* Translators: %s is a fact's key */
  name = g_strdup_printf (_("Unlock %s"), key);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->unlock_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  gtk_actionable_set_action_target (GTK_ACTIONABLE (self->unlock_button), "s", key);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_KEY]);
}

static void
tb_lock_row_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), TB_TYPE_LOCK_ROW);

  G_OBJECT_CLASS (tb_lock_row_parent_class)->dispose (object);
}

static void
tb_lock_row_finalize (GObject *object)
{
  TbLockRow *self = (TbLockRow *) object;

  g_free (self->key);

  G_OBJECT_CLASS (tb_lock_row_parent_class)->finalize (object);
}

static void
tb_lock_row_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  TbLockRow *self = TB_LOCK_ROW (object);

  switch (prop_id)
    {
    case PROP_KEY:
      g_value_set_string (value, self->key);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_lock_row_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  TbLockRow *self = TB_LOCK_ROW (object);

  switch (prop_id)
    {
    case PROP_KEY:
      set_key (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tb_lock_row_class_init (TbLockRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tb_lock_row_dispose;
  object_class->finalize = tb_lock_row_finalize;
  object_class->get_property = tb_lock_row_get_property;
  object_class->set_property = tb_lock_row_set_property;

  properties [PROP_KEY] =
    g_param_spec_string ("key", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_EXPLICIT_NOTIFY |
                          G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/toolbench/Toolbench/tb-lock-row.ui");
  gtk_widget_class_bind_template_child (widget_class, TbLockRow, unlock_button);
}

static void
tb_lock_row_init (TbLockRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * tb_lock_row_new:
 * @key: a locked key
 *
 * Returns: (transfer floating): a row for @key
 */
GtkWidget *
tb_lock_row_new (const char *key)
{
  g_return_val_if_fail (key != NULL, NULL);

  return g_object_new (TB_TYPE_LOCK_ROW, "key", key, NULL);
}

const char *
tb_lock_row_get_key (TbLockRow *self)
{
  g_return_val_if_fail (TB_IS_LOCK_ROW (self), NULL);
  return self->key;
}
