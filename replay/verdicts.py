"""Verdicts from observations: what the new code does with a checkpoint, judged against the code that wrote it.

* ``unreadable``: the storage cannot load or decode it (the type is named);
* ``refused``: MAF raises one of its own refusals on the new code; ``false_refusal``
  when the same replay with the checkpoint re-stamped to the new signature hash
  (in memory) serves every entry to the call the baseline serves it to;
* ``wrong``: the body raises during replay, or (with a baseline) some cached key is
  served to another call than in the baseline, or the call that made it runs
  live again, or its step is no longer called at all (its result is dropped), or
  a key the baseline never serves is served. A key whose call the new code no
  longer makes (its arguments changed) is not served, and the new call runs
  live: that is right, and said in the warnings;
* ``stale`` (with a baseline): every key goes to the same call, but a step whose
  entries are served has another code digest (bytecode, constants, names; not
  line numbers) than in the baseline;
* ``unjudged``: MAF resumes it but the comparison cannot be made: a baseline was
  given and could not replay the checkpoint (it does not import, or MAF refuses
  or fails on it even re-stamped), or the replay ended at a use of a live
  result before a key the baseline serves was reached, and a later call could
  still take that key (a call-order key, or a step not called before the end)
  or drop it;
* ``ok``: otherwise. Without a baseline ``ok`` only says MAF resumes it: which call
  each value goes to cannot be compared.

A baseline that MAF refuses (the checkpoint was written under another Python or
MAF release, whose signature hash differs for the same code) is replayed again
re-stamped, and that replay is the baseline.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from steplint.replay.observation import Observation


@dataclass
class Verdict:
    checkpoint_id: str
    workflow: str | None
    verdict: str
    reason: str
    false_refusal: bool = False
    first_divergence: dict[str, Any] | None = None
    new_signature_hash: str | None = None  # set with false_refusal: the hash --restamp writes
    false_refusal_unjudged: bool = False  # refused; re-stamped, the replay ended before keys it must judge
    warnings: list[str] = field(default_factory=list)
    live_before_resume: list[str] = field(default_factory=list)  # the calls that run live before the resume point

    def to_json(self) -> dict[str, Any]:
        return {
            "checkpoint_id": self.checkpoint_id,
            "workflow": self.workflow,
            "verdict": self.verdict,
            "reason": self.reason,
            "false_refusal": self.false_refusal,
            "false_refusal_unjudged": self.false_refusal_unjudged,
            "first_divergence": self.first_divergence,
            "warnings": self.warnings,
        }


def judge(new: Observation, baseline: Observation | None, restamped: Observation | None = None,
          baseline_problem: str = "") -> Verdict:
    """The verdict on one checkpoint from the new code's replay, the baseline's, and the re-stamped one.

    *baseline_problem* says why a baseline that was asked for is missing (it did not import): then an
    ``ok`` the baseline would have to confirm is ``unjudged``.
    """
    verdict = Verdict(new.checkpoint_id, new.workflow, "ok", "")
    if new.outcome == "unreadable":
        verdict.verdict, verdict.reason = "unreadable", new.reason
    elif new.outcome == "refused":
        verdict.verdict, verdict.reason = "refused", f"MAF refuses it: {new.reason}"
        if _comparable(restamped, baseline) and first_divergence(restamped, baseline) is None:
            unreached = unjudged_keys(restamped, baseline)
            if not unreached:  # re-stamped, every value goes to its call: the refusal is needless
                verdict.false_refusal, verdict.new_signature_hash = True, restamped.signature_hash
            else:
                verdict.false_refusal_unjudged = True
                verdict.reason += (f"; re-stamped, the replay ends before key(s) {', '.join(unreached)} the code "
                                   "that wrote it serves, so whether the refusal is needless is not judged")
        if restamped is not None and restamped.outcome == "refused" and restamped.reason != new.reason:
            verdict.reason += f"; with the new signature hash it still refuses: {restamped.reason}"
    elif new.outcome == "failed":
        verdict.verdict, verdict.reason = "wrong", f"the workflow body raises on replay: {new.reason}"
    elif baseline is None and baseline_problem:
        verdict.verdict = "unjudged"
        verdict.reason = f"resumes with {len(new.served)} cached value(s), but {baseline_problem}"
    elif baseline is None:
        verdict.reason = f"resumes with {len(new.served)} cached value(s), {new.reason}; no baseline to compare with"
    elif baseline.outcome != "resumed":
        verdict.verdict = "unjudged"
        verdict.reason = f"resumes, but the baseline could not replay it ({baseline.outcome}: {baseline.reason})"
    else:
        _compare(verdict, new, baseline)
    if baseline is not None and baseline.restamped and verdict.verdict in ("refused", "ok", "stale", "unjudged"):
        verdict.reason += ("; the code that wrote it is refused too (written under another Python or MAF release, "
                           "or by other code): compared with its replay re-stamped")
    if new.outcome == "resumed" and verdict.verdict != "wrong":
        _warn_live(verdict, new, baseline)
    return verdict


def _warn_live(verdict: Verdict, new: Observation, baseline: Observation | None) -> None:
    live = new.live_before_resume()
    verdict.live_before_resume = [call.text() for call in live]
    verdict.warnings += [f"{call.text()} runs live before the resume point" for call in live]
    if baseline is not None and baseline.outcome == "resumed":
        made = new.calls()
        served = {item.key for item in new.served}
        verdict.warnings += [
            f"the cached result of {item.call.text()} (key {item.key}) is not used: the new code no longer makes that call"
            for item in baseline.served
            if item.key not in served and item.call not in made
        ]


def _comparable(restamped: Observation | None, baseline: Observation | None) -> bool:
    return restamped is not None and baseline is not None and restamped.outcome == baseline.outcome == "resumed"


def _compare(verdict: Verdict, new: Observation, baseline: Observation) -> None:
    divergence = first_divergence(new, baseline)
    if divergence is not None:
        verdict.verdict, verdict.first_divergence = "wrong", divergence
        verdict.reason = divergence["what"]
        return
    unreached = unjudged_keys(new, baseline)
    if unreached:
        verdict.verdict = "unjudged"
        verdict.reason = (f"{new.reason}, before key(s) {', '.join(unreached)} the code that wrote it serves: "
                          "a later call may take or drop them")
        return
    changed = sorted(
        {item.call.step for item in new.served if new.step_code.get(item.call.step) != baseline.step_code.get(item.call.step)}
    )
    if changed:
        verdict.verdict = "stale"
        verdict.reason = f"step(s) {', '.join(changed)} changed since the checkpoint; their cached results are kept"
        return
    verdict.reason = f"every one of {len(new.served)} cached value(s) goes to the call that made it; {new.reason}"


def unjudged_keys(new: Observation, baseline: Observation) -> list[str]:
    """The keys the baseline serves that a replay which ended early never reached, and a later call could take.

    A key is judged (left unused, rightly) when no later call can take it: an identity key (1.20+'s ``v2::``
    keys: only the call that made it can take it) whose step is called with other arguments before the end,
    or a call-order key whose place in the order was already reached (its call looked it up and MAF or the
    runtime shim ran the call live instead).
    """
    if not new.stopped_early():
        return []
    served = {item.key for item in new.served}
    seen = new.calls()
    calls_of = Counter(item.call.step for item in new.served) + Counter(item.call.step for item in new.live)
    return [
        item.key for item in baseline.served
        if item.key not in served and item.call not in seen and not _spent(item.key, item.call.step, calls_of)
    ]


#: 1.20+'s identity keys (step, wrapper, argument fingerprint, occurrence): only the same call can take one.
IDENTITY_KEY_PREFIX = "v2::"
#: call-order keys: 1.18/1.19's (step, index) tuples as text (``step#index``), 1.20+'s legacy ``step::index``
_ORDER_KEY = re.compile(r"^(?P<step>.+)(?:#|::)(?P<index>\d+)$")


def _spent(key: str, step: str, calls_of: Counter[str]) -> bool:
    """Whether no call after the end of the replay can take *key*: an identity key of a step called already, or
    a call-order key whose call (the index-th of its step) was already made."""
    if key.startswith(IDENTITY_KEY_PREFIX):
        return calls_of[step] > 0
    order = _ORDER_KEY.match(key)
    return order is not None and order["step"] == step and calls_of[step] > int(order["index"])


def first_divergence(new: Observation, baseline: Observation) -> dict[str, Any] | None:
    """The first key, in the baseline's order, that the new code serves to another call or wrongly leaves unserved.

    A key left unserved is wrong when the call that made it runs live again, or
    when its step is not called at all (its result is dropped); when the step is
    still called, only with other arguments, the new call runs live and that is
    right (a warning).
    """
    new_by_key = {item.key: item.call for item in new.served}
    live = {item.call for item in new.live}
    steps_called = {call.step for call in new.calls()}
    for item in baseline.served:
        taken_by = new_by_key.pop(item.key, None)
        if taken_by == item.call:
            continue
        made_by = item.call.text()
        if taken_by is not None:
            what = f"key {item.key} (made by {made_by}) is served to {taken_by.text()}"
        elif item.call in live:
            what = f"{made_by} completed before the checkpoint and runs again (its key {item.key} is not served)"
        elif item.call.step not in steps_called and not new.stopped_early():
            what = f"key {item.key} (made by {made_by}) is dropped: the new code never calls step {item.call.step}"
        else:
            continue
        served_to = taken_by.text() if taken_by else None
        return {"key": item.key, "written_by": made_by, "served_to": served_to, "what": what}
    for key, call in new_by_key.items():
        what = f"key {key} is served to {call.text()}, which the code that wrote it never serves it to"
        return {"key": key, "written_by": None, "served_to": call.text(), "what": what}
    return None
