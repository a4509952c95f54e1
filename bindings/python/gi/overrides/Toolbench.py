# SPDX-License-Identifier: GPL-3.0-or-later
#
# Python conveniences over the Toolbench typelib, loaded by PyGObject with
# `from gi.repository import Toolbench`. A tool function written in Python
# reports a failure the way the engine expects: any exception it raises
# becomes a GLib.Error with the exception's message (the registry turns it
# into a failure result; the traceback stays out of what a model reads),
# and a return value that is not a Json.Node is refused with a sentence
# saying what came back.

import asyncio
import importlib.util

from gi.repository import Gio, GLib, Json

from ..module import get_introspection_module
from ..overrides import override

Toolbench = get_introspection_module('Toolbench')

__all__ = []


# A typelib of another build than the library it loads describes functions
# that may not be there, or not as described: refused with a clear error.
def _check_versions():
    typelib = (Toolbench.MAJOR_VERSION, Toolbench.MINOR_VERSION, Toolbench.MICRO_VERSION)
    try:
        library = (Toolbench.get_major_version(), Toolbench.get_minor_version(),
                   Toolbench.get_micro_version())
    except (GLib.Error, AttributeError):
        library = None
    if library == typelib:
        return
    shown = '.'.join(str(part) for part in typelib)
    if library is None:
        raise ImportError('The Toolbench typelib (%s) does not match the libtoolbench-1 it '
                          'loads, which is older; install both from the same build' % shown)
    raise ImportError('The Toolbench typelib (%s) is %s than the libtoolbench-1 it loads (%s); '
                      'install both from the same build, or point GI_TYPELIB_PATH and '
                      'LD_LIBRARY_PATH at one build'
                      % (shown, 'older' if typelib < library else 'newer',
                         '.'.join(str(part) for part in library)))


_check_versions()


def _guard(function):
    def run(tool, arguments, context, cancellable, user_data):
        try:
            output = function(tool, arguments, context, cancellable, user_data)
        except GLib.Error:
            raise
        except Exception as error:  # noqa: BLE001 - every failure becomes a result
            message = str(error) or type(error).__name__
            raise GLib.Error('%s: %s' % (type(error).__name__, message))
        if output is not None and not isinstance(output, Json.Node):
            raise GLib.Error('The tool returned %s, not a Json.Node'
                             % type(output).__name__)
        if output is None:
            raise GLib.Error('The tool returned None, not a Json.Node')
        return output
    return run


class Tool(Toolbench.Tool):
    @classmethod
    def new_simple(cls, name, description, parameters, flags, function, user_data=None):
        return Toolbench.Tool.new_simple(name, description, parameters, flags,
                                         _guard(function), user_data)

    @classmethod
    def new_simple_full(cls, name, description, parameters, visibility, source, timeout_ms,
                        flags, function, user_data=None):
        return Toolbench.Tool.new_simple_full(name, description, parameters, visibility, source,
                                              timeout_ms, flags, _guard(function), user_data)


Tool = override(Tool)
__all__.append('Tool')


# ---- await ---------------------------------------------------------------
#
# PyGObject 3.50 returns an awaitable from an _async function called without
# a callback, inside its GLib-based asyncio loop (gi.events). Older
# PyGObject (3.42 in Debian 12) has neither: there, awaitable() wraps the
# _async/_finish pair in an asyncio future, and run() runs a coroutine on an
# asyncio loop that also dispatches the GLib main context, where the
# callbacks of the _async functions arrive.

_NATIVE = importlib.util.find_spec('gi.events') is not None

# How long the loop sleeps between two looks at an idle GLib main context.
_PUMP_IDLE_SECONDS = 0.002


class _GLibPump:
    def __init__(self, loop, context):
        self.loop = loop
        self.context = context
        self.handle = loop.call_soon(self.step)

    def step(self):
        dispatched = 0
        while dispatched < 100 and self.context.pending():
            self.context.iteration(False)
            dispatched += 1
        self.handle = self.loop.call_later(0 if dispatched else _PUMP_IDLE_SECONDS, self.step)

    def stop(self):
        self.handle.cancel()


def _glib_loop_running():
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return None
    if getattr(loop, '_toolbench_pump', None) is not None:
        return loop
    if _NATIVE:
        from gi.events import GLibEventLoop
        if isinstance(loop, GLibEventLoop):
            return loop
    return None


def run(coroutine):
    """Runs @coroutine to its end on an asyncio loop that dispatches the
    GLib main context too, and returns what it returns: the way to await
    Toolbench's _async functions (with awaitable()) from a script. With
    PyGObject 3.50 or later it is PyGObject's own GLib event loop."""
    if _NATIVE:
        from gi.events import GLibEventLoopPolicy
        loop = GLibEventLoopPolicy().new_event_loop()
    else:
        loop = asyncio.new_event_loop()
        loop._toolbench_pump = _GLibPump(loop, GLib.MainContext.default())
    try:
        return loop.run_until_complete(coroutine)
    finally:
        pump = getattr(loop, '_toolbench_pump', None)
        if pump is not None:
            pump.stop()
        loop.close()


def awaitable(source, name, *args):
    """An awaitable for the _async function @name of @source (an object, or
    the Toolbench module for a function of its own), called with @args: all
    its arguments but the cancellable and the callback. It gives what the
    matching _finish function returns, or raises its error. Cancelling the
    awaiting task cancels the call. To be awaited inside run() (or, with
    PyGObject 3.50 or later, any gi.events loop)."""
    if not name.endswith('_async'):
        raise ValueError('%s is not an _async function' % name)
    loop = _glib_loop_running()
    if loop is None:
        raise RuntimeError('Awaiting %s needs the GLib main context running under asyncio: run '
                           'the coroutine with Toolbench.run()' % name)
    function = getattr(source, name)
    finish = getattr(source, name[:-len('_async')] + '_finish')
    cancellable = Gio.Cancellable()
    future = loop.create_future()

    def done(obj, result, *user_data):
        try:
            value = finish(result)
        except GLib.Error as error:
            if not future.done():
                future.set_exception(error)
            return
        if not future.done():
            future.set_result(value)

    def cancelled(fut):
        if fut.cancelled():
            cancellable.cancel()

    future.add_done_callback(cancelled)
    function(*args, cancellable, done)
    return future


__all__ += ['run', 'awaitable']
