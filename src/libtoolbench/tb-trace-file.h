/* SPDX-License-Identifier: GPL-3.0-or-later */

#pragma once

#if !defined(TOOLBENCH_INSIDE) && !defined(TOOLBENCH_COMPILATION)
# error "Only <toolbench.h> can be included directly."
#endif

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "tb-redact.h"

G_BEGIN_DECLS

/**
 * TB_TRACE_FORMAT_VERSION:
 *
 * The trace file format this build writes and the newest it reads.
 */
#define TB_TRACE_FORMAT_VERSION 1

/**
 * TB_TRACE_MAX_LINE:
 *
 * The longest line (one event, or the header) a reader accepts: 64 MiB.
 * A longer line is reported and skipped; the rest of the trace loads.
 */
#define TB_TRACE_MAX_LINE (64 * 1024 * 1024)

/**
 * TB_TRACE_MAX_DEPTH:
 *
 * The deepest nesting of one trace line: %TB_JSON_MAX_DEPTH, the most the
 * loop accepts in arguments, results and responses, plus room for the
 * event that holds them (a provider request holds a call's arguments
 * about ten levels down). Writer and reader use the same limit, so
 * anything the loop accepts can be recorded and read back.
 */
#define TB_TRACE_MAX_DEPTH (TB_JSON_MAX_DEPTH + 32)

#define TB_TRACE_FILE_ERROR (tb_trace_file_error_quark ())

/**
 * TbTraceFileError:
 * @TB_TRACE_FILE_ERROR_EMPTY: the file is empty.
 * @TB_TRACE_FILE_ERROR_NOT_A_TRACE: the first line is not a trace header.
 * @TB_TRACE_FILE_ERROR_NEWER_VERSION: the trace was written in a newer format.
 * @TB_TRACE_FILE_ERROR_INVALID_EVENT: an event to write is not an object with a "type".
 * @TB_TRACE_FILE_ERROR_DAMAGED: an event line cannot be read.
 * @TB_TRACE_FILE_ERROR_CLOSED: the writer was closed.
 * @TB_TRACE_FILE_ERROR_UNRECORDABLE: an event is too large or too deep for
 *   a reader to read back; an "incomplete" event was written in its place.
 *
 * Why a trace file could not be read or written. The messages name the file
 * and, for a damaged line, its number.
 */
typedef enum
{
  TB_TRACE_FILE_ERROR_EMPTY,
  TB_TRACE_FILE_ERROR_NOT_A_TRACE,
  TB_TRACE_FILE_ERROR_NEWER_VERSION,
  TB_TRACE_FILE_ERROR_INVALID_EVENT,
  TB_TRACE_FILE_ERROR_DAMAGED,
  TB_TRACE_FILE_ERROR_CLOSED,
  TB_TRACE_FILE_ERROR_UNRECORDABLE,
} TbTraceFileError;

GQuark tb_trace_file_error_quark (void);

G_END_DECLS
