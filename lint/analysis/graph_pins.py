"""Where ``steplint graph`` pins a rule's findings: each rule names one (``Rule.graph_pin``), the graph builder obeys.

A module of its own so that a rule class can name one without loading the analysis.
"""

#: On the step or workflow whose definition (``def``, parameters, defaults) the finding points into.
PIN_DEFINITION = "definition"
#: On the edges of the call it points at; else as ``PIN_DEFINITION``.
PIN_CALL = "call"
#: On the edges of its call and, once, on the step called; else as ``PIN_DEFINITION``.
PIN_CALL_AND_CALLEE = "call-and-callee"
#: As ``PIN_DEFINITION``; else on the workflow whose body holds it; else on the graph itself.
PIN_WORKFLOW_BODY = "workflow-body"
#: On the step or workflow whose body makes the call the finding points at; else as ``PIN_DEFINITION``.
PIN_BODY = "body"
#: As ``PIN_DEFINITION``; else on the graph itself (a finding in module code, about a step it makes).
PIN_DEFINITION_OR_GRAPH = "definition-or-graph"
