"""Termination tools: done, unable, ask_user. They return a signal for the host, not data for the model.

Their specs say `kind: return` and `flags: [terminal, ...]`. A host's loop reads it like this:

    result = registry.call(name, arguments)
    if result.ok and "terminal" in registry.info(result.tool).flags:
        signal = result.to_dict()["result"]    # {"signal": "done" | "unable" | "ask_user", ...}
        ...                                    # stop the loop (done, unable) or ask the user
    else:
        ...                                    # send result.text() back to the model and go on

A call that failed validation is not a signal (result.ok is False): the model gets the
message and tries again, as with any tool. See docs/builtin-tools.md.
"""

from __future__ import annotations

from toolgen_builtin.tools.ask_user import AskUserArguments, AskUserResult, AskUserTool
from toolgen_builtin.tools.done import DoneArguments, DoneResult, DoneTool
from toolgen_builtin.tools.unable import UnableArguments, UnableResult, UnableTool


class Done(DoneTool):
    def run(self, arguments: DoneArguments) -> DoneResult:
        return DoneResult(signal="done", summary=arguments.summary, answer=arguments.answer)


class Unable(UnableTool):
    def run(self, arguments: UnableArguments) -> UnableResult:
        return UnableResult(
            signal="unable",
            reason=arguments.reason,
            blockers=list(arguments.blockers),
            partial_result=arguments.partial_result,
        )


class AskUser(AskUserTool):
    def run(self, arguments: AskUserArguments) -> AskUserResult:
        return AskUserResult(
            signal="ask_user", question=arguments.question, options=list(arguments.options)
        )
