# SPDX-License-Identifier: GPL-3.0-or-later
#
# What a Toolbench plugin written in Python imports to mark a function as a
# tool. The plugin runner (toolbench-plugin-runner.py) finds the functions
# marked so, lists them with their schemas and calls them, each call in a
# process of its own.

__all__ = ['tool']


def tool(parameters=None, name=None, description=None, title=None, annotations=None,
         timeout_ms=None):
    """Marks a function as a tool.

    parameters: the JSON Schema of the arguments, as a dict (an object
    schema); the function is called with the arguments as keyword
    arguments. name: the tool's name (the function's by default).
    description: what the model reads (the docstring by default). title,
    annotations (such as {"readOnlyHint": True}) and timeout_ms as in a
    command-tool manifest. The function returns a value JSON can hold
    (dict, list, str, int, float, bool or None); an exception it raises is
    a failure with the exception's message.
    """
    def mark(function):
        function.__toolbench_tool__ = {
            'name': name or function.__name__,
            'description': description if description is not None
            else ' '.join((function.__doc__ or '').split()),
            'parameters': parameters if parameters is not None
            else {'type': 'object', 'properties': {}},
            'title': title,
            'annotations': annotations,
            'timeout-ms': timeout_ms,
        }
        return function

    if callable(parameters) and name is None:
        # @tool without arguments.
        function, parameters = parameters, None
        return mark(function)
    return mark
