/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

/* What the Trace page's files share, and what the tests, the screenshots
 * and the benchmarks read of it; the window uses tb-trace-page.h only. */

#include "tb-eval-section.h"
#include "tb-eval-view.h"
#include "tb-fork-editor.h"
#include "tb-recent-traces.h"
#include "tb-replay-report-view.h"
#include "tb-timeline.h"
#include "tb-trace-page.h"

G_BEGIN_DECLS

/* The most characters of one string the details show: a longer one is
 * cut there, since a text view lays out a paragraph whole. */
#define TB_TRACE_PAGE_DETAIL_MAX_CHARS 10000

struct _TbTracePage
{
  GtkWidget           parent_instance;

  TbRedactor         *redactor;   /* what is shown, saved and exported */

  GtkWidget          *scroller;
  GtkWidget          *box;
  GtkWidget          *toolbar;
  GtkLabel           *title_label;
  GtkLabel           *status_label;
  GtkWidget          *open_button;
  GtkWidget          *save_button;
  GtkWidget          *replay_button;
  GtkWidget          *export_button;
  GtkDropDown        *export_format;
  GtkCheckButton     *live_check;
  GtkListView        *timeline_view;
  GtkSingleSelection *selection;
  GtkTextView        *detail;
  GtkLabel           *detail_note;
  TbReplayReportView *report_view;
  TbForkEditor       *fork_editor;
  TbTracePageProviderFunc provider_func;
  gpointer            provider_data;
  GtkWidget          *recovered_bar;
  GtkWidget          *reopen_button;
  GtkWidget          *discard_button;
  GFile              *recovered_file;
  TbTimeline         *timeline;
  GtkTreeListModel   *tree;
  GPtrArray          *groups_to_close;  /* new rows of calls' MCP messages */
  guint               close_groups_id;
  GtkFilterListModel *filtered;
  GtkCustomFilter    *filter;
  GtkSearchEntry     *search_entry;
  GtkDropDown        *kind_filter;
  TbRecentTraces     *recent;
  GtkWidget          *event_menu;  /* the popover of a row's menu */
  GtkWidget          *eval_menu_button;
  TbEvalSection      *eval_section;

  TbToolRegistry     *registry;
  TbTrace            *trace;
  char               *title;
  TbTrace            *fork_trace;  /* the fork shown, until it is saved or left */
  GCancellable       *cancellable;
  gboolean            busy;
  gboolean            loading;
  gboolean            replay_when_loaded;
  GFile              *file;      /* a large file shown from its index */
  TbReplay           *forking;   /* the fork running, and its title */
  char               *forking_title;
  int                 save_mode; /* what the open save dialog saves */
  TbTraceReader      *reader;    /* and its reader */
  struct {
    gboolean          pending;   /* run once the file is read whole */
    guint             step;
    TbReplayEdit      edit;
    char             *text;
  } fork_when_loaded;

  /* The timeline beside the details, or above them in a narrow window. */
  GtkPaned           *paned;
  guint               layout_id;
  int                 wide_position;
};

void            _tb_trace_page_set_status        (TbTracePage    *self,
                                                  const char     *text);
gboolean        _tb_trace_page_fork_target       (TbTracePage    *self,
                                                  guint           position,
                                                  guint          *step,
                                                  TbReplayEdit   *edit,
                                                  char          **heading,
                                                  JsonNode      **value,
                                                  GError        **error);
void            _tb_trace_page_class_init_menu   (GtkWidgetClass *widget_class);
guint           _tb_trace_page_find_row          (TbTracePage    *self,
                                                  gint            position);
TbTimelineNode *_tb_trace_page_row_node          (gpointer        item);
JsonNode       *_tb_trace_page_dup_event_json    (TbTracePage    *self,
                                                  TbTimelineNode *node);

gboolean        tb_trace_page_get_busy           (TbTracePage    *self);
const char     *tb_trace_page_get_status_text    (TbTracePage    *self);
guint           tb_trace_page_get_n_events       (TbTracePage    *self);
char           *tb_trace_page_get_event_row_text (TbTracePage    *self,
                                                  guint           position);
guint           tb_trace_page_get_n_rows         (TbTracePage    *self);
char           *tb_trace_page_get_row            (TbTracePage    *self,
                                                  guint           row,
                                                  guint          *depth,
                                                  gint           *event);
void            tb_trace_page_set_filter         (TbTracePage    *self,
                                                  int             kind,
                                                  const char     *search);
char           *tb_trace_page_get_detail_text    (TbTracePage    *self);
void            tb_trace_page_set_live           (TbTracePage    *self,
                                                  gboolean        live);
GtkWidget      *tb_trace_page_get_button         (TbTracePage    *self,
                                                  const char     *name);
TbReplayReport *tb_trace_page_get_report         (TbTracePage    *self);
guint           tb_trace_page_get_n_report_rows  (TbTracePage    *self);
char           *tb_trace_page_get_report_row_text (TbTracePage   *self,
                                                   guint          position);
gboolean        tb_trace_page_get_report_row_highlighted (TbTracePage *self,
                                                          guint        position);
void            tb_trace_page_select_step        (TbTracePage    *self,
                                                  guint           position);
void            tb_trace_page_set_fork_kind      (TbTracePage    *self,
                                                  TbReplayEdit    edit,
                                                  guint           turn);
GtkTextBuffer  *tb_trace_page_get_fork_buffer    (TbTracePage    *self);
guint           tb_trace_page_get_n_recent       (TbTracePage    *self);
gboolean        tb_trace_page_get_offering_recovered (TbTracePage *self);
void            tb_trace_page_set_fork_live      (TbTracePage    *self,
                                                  gboolean        live);
TbForkEditor   *tb_trace_page_get_fork_editor    (TbTracePage    *self);
TbReplayReportView *tb_trace_page_get_report_view (TbTracePage   *self);
void            tb_trace_page_open_eval_report_file (TbTracePage *self,
                                                     GFile       *file);
void            tb_trace_page_run_scenario_folder (TbTracePage   *self,
                                                   GFile         *folder);
TbEvalView     *tb_trace_page_get_eval_view      (TbTracePage    *self);
gboolean        tb_trace_page_get_eval_busy      (TbTracePage    *self);
const char     *tb_trace_page_get_eval_title     (TbTracePage    *self);

gboolean        tb_trace_page_save_to            (TbTracePage    *self,
                                                  GFile          *file,
                                                  GError        **error);
gboolean        tb_trace_page_export_to          (TbTracePage    *self,
                                                  GFile          *file,
                                                  TbDefinitionFormat format,
                                                  GError        **error);
gboolean        tb_trace_page_fork               (TbTracePage    *self,
                                                  guint           step,
                                                  TbReplayEdit    edit,
                                                  const char     *json_text,
                                                  GError        **error);
gboolean        tb_trace_page_save_fork_to       (TbTracePage    *self,
                                                  GFile          *file,
                                                  GError        **error);

const char     *tb_trace_page_get_title          (TbTracePage    *self);

G_END_DECLS
