/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <glib-object.h>

G_BEGIN_DECLS

typedef struct _TbTool         TbTool;
typedef struct _TbToolResult   TbToolResult;
typedef struct _TbToolRegistry TbToolRegistry;

/**
 * TbToolVisibility:
 * @TB_TOOL_VISIBILITY_MODEL: the tool is offered to models and people.
 * @TB_TOOL_VISIBILITY_USER_ONLY: only a person may call the tool; it never
 *   appears in a provider request and a model that names it gets a
 *   not-registered error.
 *
 * Who may call a tool (#TbTool:visibility).
 */
typedef enum
{
  TB_TOOL_VISIBILITY_MODEL,
  TB_TOOL_VISIBILITY_USER_ONLY,
} TbToolVisibility;

/**
 * TbToolHints:
 * @TB_TOOL_HINT_NONE: nothing is known about what the tool does.
 * @TB_TOOL_HINT_READ_ONLY: the tool changes nothing (`readOnlyHint`).
 * @TB_TOOL_HINT_DESTRUCTIVE: the tool may delete or overwrite
 *   (`destructiveHint`); a call to it always waits for a person.
 * @TB_TOOL_HINT_IDEMPOTENT: calling it again with the same arguments has no
 *   further effect (`idempotentHint`).
 * @TB_TOOL_HINT_OPEN_WORLD: the tool reaches beyond the machine, such as
 *   the web (`openWorldHint`).
 *
 * What a tool's author says it does. For MCP tools these are the server's
 * annotations set to true; they are hints, not promises, and a person can
 * override them per tool with tb_tool_registry_set_hints().
 */
typedef enum /*< flags >*/
{
  TB_TOOL_HINT_NONE = 0,
  TB_TOOL_HINT_READ_ONLY = 1 << 0,
  TB_TOOL_HINT_DESTRUCTIVE = 1 << 1,
  TB_TOOL_HINT_IDEMPOTENT = 1 << 2,
  TB_TOOL_HINT_OPEN_WORLD = 1 << 3,
} TbToolHints;

/**
 * TbProviderHistory:
 * @TB_PROVIDER_HISTORY_WHOLE: every request carries the whole
 *   conversation, so the loop keeps every message in memory (the HTTP
 *   providers: their wire formats are stateless).
 * @TB_PROVIDER_HISTORY_LATEST_TURN: a request needs only the model's last
 *   turn and the messages after it (the scripted provider); the loop
 *   keeps only those for requests, and a recorded loop reads earlier
 *   messages back from its trace file when they are asked for.
 *
 * How much of the conversation a #TbProvider needs in a request
 * (tb_provider_get_history()).
 */
typedef enum
{
  TB_PROVIDER_HISTORY_WHOLE,
  TB_PROVIDER_HISTORY_LATEST_TURN,
} TbProviderHistory;

/**
 * TbToolFailureKind:
 * @TB_TOOL_FAILURE_NONE: the call succeeded.
 * @TB_TOOL_FAILURE_INVALID_ARGUMENTS: the arguments did not match the schema.
 * @TB_TOOL_FAILURE_NOT_FOUND: no tool of that name is registered (or visible).
 * @TB_TOOL_FAILURE_EXECUTION_FAILED: the tool ran and reported an error.
 * @TB_TOOL_FAILURE_TIMEOUT: the tool did not finish in its time limit.
 * @TB_TOOL_FAILURE_CANCELLED: the call was cancelled.
 * @TB_TOOL_FAILURE_PERMISSION_DENIED: the call was refused (sandbox, lock, policy).
 *
 * Why a tool call failed, as a #TbToolResult and the trace say it; the model
 * reads the error text, the kind is for people and programs.
 */
typedef enum
{
  TB_TOOL_FAILURE_NONE,
  TB_TOOL_FAILURE_INVALID_ARGUMENTS,
  TB_TOOL_FAILURE_NOT_FOUND,
  TB_TOOL_FAILURE_EXECUTION_FAILED,
  TB_TOOL_FAILURE_TIMEOUT,
  TB_TOOL_FAILURE_CANCELLED,
  TB_TOOL_FAILURE_PERMISSION_DENIED,
} TbToolFailureKind;

/**
 * TbPluginState:
 * @TB_PLUGIN_STATE_LOADING: the plugin is being asked for its tools.
 * @TB_PLUGIN_STATE_LOADED: the plugin's tools are registered.
 * @TB_PLUGIN_STATE_FAILED: the plugin did not load; its message says why.
 *
 * How far loading a plugin from the plugin folder got.
 */
typedef enum
{
  TB_PLUGIN_STATE_LOADING,
  TB_PLUGIN_STATE_LOADED,
  TB_PLUGIN_STATE_FAILED,
} TbPluginState;

/**
 * TbDefinitionFormat:
 * @TB_DEFINITION_FORMAT_NATIVE: `{name, description, parameters}`, real names.
 * @TB_DEFINITION_FORMAT_OPENAI: Chat Completions `{"type":"function","function":{…}}`.
 * @TB_DEFINITION_FORMAT_ANTHROPIC: Messages `{name, description, input_schema}`.
 * @TB_DEFINITION_FORMAT_GEMINI: generateContent `[{"functionDeclarations":[…]}]`.
 * @TB_DEFINITION_FORMAT_OPENAI_RESPONSES: Responses `{"type":"function", name,
 *   description, parameters, "strict":false}`.
 *
 * The shapes a tool definition takes in requests: Toolbench's own and those
 * of the wire formats (tb_tool_registry_to_wire_name_for() and the
 * registry's definitions use it).
 */
typedef enum
{
  TB_DEFINITION_FORMAT_NATIVE,
  TB_DEFINITION_FORMAT_OPENAI,
  TB_DEFINITION_FORMAT_ANTHROPIC,
  TB_DEFINITION_FORMAT_GEMINI,
  TB_DEFINITION_FORMAT_OPENAI_RESPONSES,
} TbDefinitionFormat;

/**
 * TbElicitationAnswer:
 * @TB_ELICITATION_ANSWER_NONE: declare no elicitation capability; servers
 *   learn that nobody can answer.
 * @TB_ELICITATION_ANSWER_ACCEPT_DEFAULTS: accept, with the defaults of the
 *   requested schema.
 * @TB_ELICITATION_ANSWER_DECLINE: decline every request.
 * @TB_ELICITATION_ANSWER_CANCEL: cancel every request.
 *
 * How a session without a person answers MCP servers that ask for input.
 */
typedef enum
{
  TB_ELICITATION_ANSWER_NONE,
  TB_ELICITATION_ANSWER_ACCEPT_DEFAULTS,
  TB_ELICITATION_ANSWER_DECLINE,
  TB_ELICITATION_ANSWER_CANCEL,
} TbElicitationAnswer;

/**
 * TbMcpAuthMode:
 * @TB_MCP_AUTH_MODE_BROWSER: open the authorization URL in the default
 *   browser; the authorization server sends the browser back to a listener
 *   on 127.0.0.1.
 * @TB_MCP_AUTH_MODE_FETCH: fetch the authorization URL without a browser
 *   and take the code from where the authorization server redirects; for
 *   test servers and CI, where no person signs in.
 *
 * How the authorization URL is followed when no handler of
 * #TbMcpAuth::present-url takes it.
 */
typedef enum
{
  TB_MCP_AUTH_MODE_BROWSER,
  TB_MCP_AUTH_MODE_FETCH,
} TbMcpAuthMode;

/**
 * TbMcpAuthState:
 * @TB_MCP_AUTH_STATE_SIGNED_OUT: no token is known for the server.
 * @TB_MCP_AUTH_STATE_SIGNING_IN: a sign-in is under way.
 * @TB_MCP_AUTH_STATE_SIGNED_IN: a token is known (it may need refreshing).
 *
 * Whether a #TbMcpAuth has a sign-in for its server (#TbMcpAuth:state).
 */
typedef enum
{
  TB_MCP_AUTH_STATE_SIGNED_OUT,
  TB_MCP_AUTH_STATE_SIGNING_IN,
  TB_MCP_AUTH_STATE_SIGNED_IN,
} TbMcpAuthState;

/**
 * TbMcpWireDirection:
 * @TB_MCP_WIRE_DIRECTION_NONE: neither: an HTTP exchange, which goes both ways.
 * @TB_MCP_WIRE_DIRECTION_SENT: from the client to the server.
 * @TB_MCP_WIRE_DIRECTION_RECEIVED: from the server to the client.
 *
 * Which way a message of the protocol view went.
 */
typedef enum
{
  TB_MCP_WIRE_DIRECTION_NONE,
  TB_MCP_WIRE_DIRECTION_SENT,
  TB_MCP_WIRE_DIRECTION_RECEIVED,
} TbMcpWireDirection;

/**
 * TbMcpWireKind:
 * @TB_MCP_WIRE_KIND_REQUEST: a JSON-RPC request (a method and an id).
 * @TB_MCP_WIRE_KIND_NOTIFICATION: a JSON-RPC notification (a method, no id).
 * @TB_MCP_WIRE_KIND_RESULT: the answer to a request, with `result`.
 * @TB_MCP_WIRE_KIND_ERROR: the answer to a request, with `error`.
 * @TB_MCP_WIRE_KIND_BATCH: a JSON array of messages.
 * @TB_MCP_WIRE_KIND_INVALID: text that is not a JSON-RPC message (not JSON,
 *   too large to read, or JSON of another shape).
 * @TB_MCP_WIRE_KIND_HTTP: one HTTP exchange of the streamable HTTP transport:
 *   its request line, status line and headers.
 *
 * What a record of the protocol view holds.
 */
typedef enum
{
  TB_MCP_WIRE_KIND_REQUEST,
  TB_MCP_WIRE_KIND_NOTIFICATION,
  TB_MCP_WIRE_KIND_RESULT,
  TB_MCP_WIRE_KIND_ERROR,
  TB_MCP_WIRE_KIND_BATCH,
  TB_MCP_WIRE_KIND_INVALID,
  TB_MCP_WIRE_KIND_HTTP,
} TbMcpWireKind;

G_END_DECLS
