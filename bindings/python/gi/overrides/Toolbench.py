# SPDX-License-Identifier: GPL-3.0-or-later
#
# Python conveniences over the Toolbench typelib, loaded by PyGObject with
# `from gi.repository import Toolbench`. A tool function written in Python
# reports a failure the way the engine expects: any exception it raises
# becomes a GLib.Error with the exception's message (the registry turns it
# into a failure result; the traceback stays out of what a model reads),
# and a return value that is not a Json.Node is refused with a sentence
# saying what came back.

from gi.repository import GLib, Json

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
