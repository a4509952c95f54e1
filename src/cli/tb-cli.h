/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#include <toolbench.h>

G_BEGIN_DECLS

/* The most runs eval and replay --check put side by side. */
#define TB_CLI_MAX_JOBS 256

/* Exit statuses shared by every subcommand. */
enum
{
  TB_CLI_EXIT_OK = 0,
  TB_CLI_EXIT_FAILED = 1,
  TB_CLI_EXIT_USAGE = 2,
};

typedef struct
{
  const char *name;
  const char *summary;
  int       (*run) (int argc, char **argv);
} TbCliCommand;

int             tb_cli_usage_error     (GOptionContext  *context,
                                        const char      *format,
                                        ...) G_GNUC_PRINTF (2, 3);
int             tb_cli_fail            (const GError    *error);
GOptionContext *tb_cli_context_new     (const char         *parameters,
                                        const char         *summary,
                                        const GOptionEntry *entries);
TbToolRegistry *tb_cli_build_registry  (GError         **error);
gboolean        tb_cli_read_arguments  (const char      *text,
                                        const char      *file,
                                        JsonNode       **arguments,
                                        GError         **error);
char           *tb_cli_read_text       (const char      *path_or_dash,
                                        GError         **error);
TbTrace        *tb_cli_load_trace      (const char      *path,
                                        GError         **error);
TbTrace        *tb_cli_open_trace      (const char      *path,
                                        GError         **error);
void            tb_cli_print_json      (JsonNode        *node,
                                        gboolean         pretty);
void            tb_cli_print_json_object (JsonObject    *object);
void            tb_cli_print_json_array (JsonArray      *array);
void            tb_cli_keep_result     (GObject         *object,
                                        GAsyncResult    *result,
                                        gpointer         user_data);
GAsyncResult   *tb_cli_wait_for        (GAsyncResult   **result);
TbRedactor     *tb_cli_new_redactor    (const char      *key_variable);
TbRedactor     *tb_cli_get_output_redactor (void);

int tb_cli_list (int argc, char **argv);
int tb_cli_call (int argc, char **argv);
int tb_cli_trace (int argc, char **argv);
int tb_cli_replay (int argc, char **argv);
int tb_cli_validate (int argc, char **argv);
int tb_cli_facts (int argc, char **argv);
int tb_cli_plugins (int argc, char **argv);

/* How a loop ended, for run and eval (after the shared statuses above). */
enum
{
  TB_CLI_EXIT_LIMIT = 3,
  TB_CLI_EXIT_CANCELLED = 4,
  TB_CLI_EXIT_PAUSED = 5,
};

/* A call by hand, for call and mcp call (tb-cli-call.c). */
typedef struct
{
  char     *args_text;
  char     *args_file;
  int       timeout_ms;
  gboolean  full;
  gboolean  no_validate;
} TbCliCallOptions;

void         tb_cli_add_call_options       (GOptionContext              *context,
                                            TbCliCallOptions            *options,
                                            const char                  *timeout_help);
gboolean     tb_cli_read_call_options      (const TbCliCallOptions      *options,
                                            JsonNode                   **arguments,
                                            GError                     **error);
void         tb_cli_call_options_clear     (TbCliCallOptions            *options);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TbCliCallOptions, tb_cli_call_options_clear)
int          tb_cli_call_tool              (TbToolRegistry              *registry,
                                            const char                  *name,
                                            JsonNode                    *arguments,
                                            const TbCliCallOptions      *options);

/* --provider, --base-url and --api-key-env (tb-cli-provider.c). */
typedef struct
{
  char *kind;
  char *base_url;
  char *key_variable;
} TbCliProviderOptions;

void         tb_cli_add_provider_options   (GOptionContext              *context,
                                            TbCliProviderOptions        *options,
                                            const char                  *provider_help);
gboolean     tb_cli_check_provider_kind    (const TbCliProviderOptions  *options,
                                            gboolean                     allow_scripted,
                                            GError                     **error);
const char  *tb_cli_provider_options_get_key_variable (const TbCliProviderOptions *options);
gboolean     tb_cli_provider_options_has_key          (const TbCliProviderOptions *options);
void         tb_cli_provider_options_clear (TbCliProviderOptions        *options);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TbCliProviderOptions, tb_cli_provider_options_clear)
TbProvider  *tb_cli_make_provider          (const TbCliProviderOptions  *options,
                                            const char                  *model,
                                            const char                  *script,
                                            GError                     **error);
void         tb_cli_describe_provider_kinds (GOptionContext *context);

typedef struct _TbCliInterrupt TbCliInterrupt;

TbCliInterrupt *tb_cli_interrupt_watch   (GCancellable   *cancellable,
                                          const char     *notice);
void            tb_cli_interrupt_unwatch (TbCliInterrupt *watch);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TbCliInterrupt, tb_cli_interrupt_unwatch)
TbLoopState  tb_cli_drive_loop     (TbDispatchLoop  *loop,
                                    GError         **error);
int          tb_cli_exit_for_state (TbLoopState      state);

int tb_cli_run (int argc, char **argv);
int tb_cli_eval (int argc, char **argv);
int tb_cli_models (int argc, char **argv);

gboolean        tb_cli_parse_options              (GOptionContext   *context,
                                                   int              *argc,
                                                   char           ***argv,
                                                   gboolean          tool_sources,
                                                   GError          **error);
/* The --oauth-* options, as parsed (tb-cli-oauth.c). */
typedef struct
{
  const char *authorize;
  const char *client_id;
  const char *client_secret;
  const char *client_metadata_url;
  const char *client_key_file;
  const char *id_token_file;
  const char *idp_token_endpoint;
  const char *idp_client_id;
  const char *assertion_file;
} TbCliOAuthOptions;

gboolean        tb_cli_oauth_check_options        (const TbCliOAuthOptions *options,
                                                   GError         **error);
void            tb_cli_setup_auth                 (TbMcpAuth       *auth,
                                                   gpointer         user_data);
int             tb_cli_mcp_logout                 (int              argc,
                                                   char           **argv);

GOptionGroup   *tb_cli_tool_source_group          (void);
void            tb_cli_add_tool_source_options    (GOptionContext  *context);
gboolean        tb_cli_check_tool_source_options  (GError         **error);
gboolean        tb_cli_is_tool_source_option      (const char      *arg,
                                                   gboolean        *takes_value);
TbToolSourceSet *tb_cli_get_tool_sources          (gboolean         private_workspace,
                                                   GError         **error);
TbToolSession  *tb_cli_open_session               (TbToolSourceSet *sources,
                                                   GCancellable    *cancellable,
                                                   GError         **error);
TbToolSession  *tb_cli_get_session                (void);
const char     *tb_cli_get_workspace_path         (void);
void            tb_cli_add_mcp_url                (const char      *url);
int tb_cli_mcp (int argc, char **argv);
gboolean        tb_cli_mcp_parse                  (GOptionContext     *context,
                                                   int                *argc,
                                                   char             ***argv,
                                                   int                 n_required,
                                                   const char         *missing,
                                                   const char        **server,
                                                   int                *status);
GPtrArray      *tb_cli_mcp_select_servers         (GOptionContext     *context,
                                                   const char         *server,
                                                   TbToolRegistry    **registry,
                                                   int                *status);
int tb_cli_mcp_resources (int argc, char **argv);
int tb_cli_mcp_read (int argc, char **argv);
int tb_cli_mcp_prompts (int argc, char **argv);
int tb_cli_mcp_prompt (int argc, char **argv);
int tb_cli_mcp_complete (int argc, char **argv);
gboolean        tb_cli_is_local_url               (const char      *url);
gboolean        tb_cli_check_writable             (const char      *path,
                                                   GError         **error);
int             tb_cli_replay_check_many          (const char * const *paths,
                                                   guint            jobs,
                                                   gboolean         mock_tools,
                                                   gboolean         json,
                                                   const char      *junit_path,
                                                   TbRedactor      *redactor);
void         tb_cli_report_workspace (TbWorkspace     *workspace,
                                      const char      *path);

G_END_DECLS
