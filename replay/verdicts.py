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
* ``ok``: otherwise. Without a baseline ``ok`` only says MAF resumes it: which call
  each value goes to cannot be compared.
"""

from __future__ import annotations

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
    warnings: list[str] = field(default_factory=list)
    live_before_resume: list[str] = field(default_factory=list)  # the calls that run live before the resume point

    def to_json(self) -> dict[str, Any]:
        return {
            "checkpoint_id": self.checkpoint_id,
            "workflow": self.workflow,
            "verdict": self.verdict,
            "reason": self.reason,
            "false_refusal": self.false_refusal,
            "first_divergence": self.first_divergence,
            "warnings": self.warnings,
        }


def judge(new: Observation, baseline: Observation | None, restamped: Observation | None = None) -> Verdict:
    """The verdict on one checkpoint from the new code's replay, the baseline's, and the re-stamped one."""
    verdict = Verdict(new.checkpoint_id, new.workflow, "ok", "")
    if new.outcome == "unreadable":
        verdict.verdict, verdict.reason = "unreadable", new.reason
    elif new.outcome == "refused":
        verdict.verdict, verdict.reason = "refused", f"MAF refuses it: {new.reason}"
        verdict.false_refusal = _needless(restamped, baseline)
        if verdict.false_refusal:
            verdict.new_signature_hash = restamped.signature_hash
        if restamped is not None and restamped.outcome == "refused" and restamped.reason != new.reason:
            verdict.reason += f"; with the new signature hash it still refuses: {restamped.reason}"
    elif new.outcome == "failed":
        verdict.verdict, verdict.reason = "wrong", f"the workflow body raises on replay: {new.reason}"
    elif baseline is None:
        verdict.reason = f"resumes with {len(new.served)} cached value(s), {new.reason}; no baseline to compare with"
    elif baseline.outcome != "resumed":
        verdict.reason = f"resumes; the baseline could not replay it ({baseline.outcome}: {baseline.reason})"
    else:
        _compare(verdict, new, baseline)
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


def _needless(restamped: Observation | None, baseline: Observation | None) -> bool:
    if restamped is None or baseline is None or restamped.outcome != "resumed" or baseline.outcome != "resumed":
        return False
    return first_divergence(restamped, baseline) is None


def _compare(verdict: Verdict, new: Observation, baseline: Observation) -> None:
    divergence = first_divergence(new, baseline)
    if divergence is not None:
        verdict.verdict, verdict.first_divergence = "wrong", divergence
        verdict.reason = divergence["what"]
        return
    changed = sorted(
        {item.call.step for item in new.served if new.step_code.get(item.call.step) != baseline.step_code.get(item.call.step)}
    )
    if changed:
        verdict.verdict = "stale"
        verdict.reason = f"step(s) {', '.join(changed)} changed since the checkpoint; their cached results are kept"
        return
    verdict.reason = f"every one of {len(new.served)} cached value(s) goes to the call that made it; {new.reason}"


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
