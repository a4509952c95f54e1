/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <adwaita.h>
#include <gtksourceview/gtksource.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/**
 * TB_TEXT_LONG_LINE:
 *
 * The longest line, in bytes, tb_text_break_long_lines() leaves whole.
 */
#define TB_TEXT_LONG_LINE 1024

/**
 * TB_HIGHLIGHT_MAX_LINE:
 *
 * The longest line, in bytes, a code view highlights. GtkSourceView tags
 * each token, and each tag costs the length of its line: a JSON string of
 * 30 KB with a newline escape every dozen bytes took three seconds, one of
 * 240 KB more than two minutes. A view holding a longer line shows its
 * text plain until the line is gone.
 */
#define TB_HIGHLIGHT_MAX_LINE 4096

/**
 * TB_TEXT_BLOCK_SHOWN_CHARS:
 *
 * The characters of a text block (tb_text_block_new()) shown until Show
 * More is pressed.
 */
#define TB_TEXT_BLOCK_SHOWN_CHARS 4000

/* Makes the text a search looks in for @item. */
typedef char *(*TbSearchText) (gpointer item);

void  tb_app_init                 (void);
void  tb_source_view_set_language (GtkSourceView *view,
                                   const char    *language);
void  tb_source_view_setup        (GtkSourceView *view,
                                   const char    *language,
                                   gboolean       editable);
char *tb_format_duration          (gint64         duration_us);
char *tb_text_preview             (const char    *text,
                                   gsize          max_bytes,
                                   gboolean      *truncated);
char *tb_text_break_long_lines    (const char    *text,
                                   gboolean      *broken);
char *tb_text_cut_at_word         (const char    *text,
                                   guint          max_chars,
                                   gboolean      *cut);
JsonNode *tb_json_shorten_strings (JsonNode *node,
                                   guint     max_chars,
                                   guint    *n_cut);
void  tb_label_set_start          (GtkLabel        *label,
                                   GtkToggleButton *more,
                                   const char      *text,
                                   const char      *after,
                                   guint            max_chars);
GtkWidget *tb_text_block_new      (const char    *text,
                                   const char    *css_class);
void  tb_widget_unparent_children (GtkWidget     *widget);
void  tb_label_set_outside_text   (GtkLabel      *label,
                                   const char    *text);
guint tb_list_box_count_rows      (GtkListBox    *list);
void               tb_list_view_follow_search (GtkListView *list,
                                               GtkWidget   *search);
GtkFilterListModel *tb_list_view_show_filtered (GtkListView *list,
                                                GListModel  *model,
                                                GtkFilter   *filter,
                                                GCallback    setup,
                                                GCallback    bind,
                                                GCallback    unbind,
                                                gpointer     user_data);
void  tb_copy_text                (GtkWidget     *widget,
                                   const char    *text);
void  tb_expander_keep_focus_out  (GtkExpander   *expander);
void  tb_button_name_by_label     (GtkButton     *button);
void  tb_drop_down_name_button    (GtkDropDown   *drop_down,
                                   const char    *name);
void  tb_flow_box_append          (GtkFlowBox    *flow_box,
                                   GtkWidget     *child);
void  tb_dialog_fit_content       (GtkWindow         *dialog,
                                   GtkScrolledWindow *content);
void  tb_label_set_status         (GtkLabel      *label,
                                   const char    *text,
                                   gboolean       is_error);
char       **tb_search_terms_parse (const char  *text);
gboolean     tb_search_terms_match (char       **terms,
                                    const char  *key);
const char  *tb_search_key         (gpointer      item,
                                    GQuark        quark,
                                    TbSearchText  text);
void         tb_status_page_set_text (AdwStatusPage *page,
                                      const char    *icon,
                                      const char    *title,
                                      const char    *text);
void         tb_status_page_set_app_icon (AdwStatusPage *page);
GtkFileChooserNative *tb_file_chooser_new (GtkWidget            *widget,
                                           const char           *title,
                                           GtkFileChooserAction  action,
                                           const char           *accept_label);

G_END_DECLS
